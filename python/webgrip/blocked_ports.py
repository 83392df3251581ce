"""The ports no fetch may reach, and the ``+port`` form that adds to them.

Shared by :mod:`webgrip.config` (arguments, environment) and :mod:`webgrip.config_file`
(``webgrip.toml``), which both accept ``blocked_ports = "+8080"``.
"""

from __future__ import annotations

__all__ = ["DEFAULT_BLOCKED_PORTS", "with_default_ports"]

#: Ports of services that must never be reachable from an agent's fetch, even on a public host.
DEFAULT_BLOCKED_PORTS: tuple[int, ...] = (
    0, 19, 21, 22, 23, 25, 110, 135, 137, 139, 143, 445, 465, 587, 993, 995, 1433, 1521,
    2049, 2375, 2376, 3306, 3389, 5432, 5900, 5984, 6379, 9200, 9300, 11211, 27017,
)


def with_default_ports(ports: tuple[int, ...]) -> tuple[int, ...]:
    """:data:`DEFAULT_BLOCKED_PORTS` followed by the ``ports`` not already in it."""
    return DEFAULT_BLOCKED_PORTS + tuple(dict.fromkeys(
        p for p in ports if p not in DEFAULT_BLOCKED_PORTS
    ))
