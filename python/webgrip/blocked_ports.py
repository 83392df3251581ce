"""The ports no fetch may reach, and the ``+port`` form that adds to them.

Shared by :mod:`webgrip.config` (arguments, environment) and :mod:`webgrip.config_file`
(``webgrip.toml``), which both accept ``blocked_ports = "+8080"``.
"""

from __future__ import annotations

from . import _core

__all__ = ["DEFAULT_BLOCKED_PORTS", "with_default_ports"]

#: Ports of services that must never be reachable from an agent's fetch, even on a public host:
#: the core's own list (``rust/net/src/policy.rs``), not a copy of it.
DEFAULT_BLOCKED_PORTS: tuple[int, ...] = _core.DEFAULT_BLOCKED_PORTS


def with_default_ports(ports: tuple[int, ...]) -> tuple[int, ...]:
    """:data:`DEFAULT_BLOCKED_PORTS` followed by the ``ports`` not already in it."""
    return DEFAULT_BLOCKED_PORTS + tuple(
        dict.fromkeys(p for p in ports if p not in DEFAULT_BLOCKED_PORTS)
    )
