"""Sites, not only pages: the URLs of a site, their one spelling, and which belong to it.

- :mod:`~webgrip.sites.urls`: :func:`canonical`, the spelling pages are deduplicated on, and
  :func:`is_http`;
- :mod:`~webgrip.sites.scope`: :class:`SiteScope`, which URLs belong to the site;
- :mod:`~webgrip.sites.sitemaps`: reading sitemaps with every cap held;
- :mod:`~webgrip.sites.llmstxt`: reading and writing llms.txt;
- :mod:`~webgrip.sites.mapping`: :func:`map_site` and :func:`seed_urls`, a site's URLs
  (:class:`SiteMap` of :class:`MappedUrl`).

Names load on first use (as in :mod:`webgrip`): importing one module of this package, which
the client does, must not import the others, some of which sit above the client.
"""

from __future__ import annotations

import importlib

__all__ = [
    "LlmsLink",
    "MappedUrl",
    "SiteMap",
    "SiteScope",
    "canonical",
    "is_http",
    "map_site",
    "parse_llms_txt",
    "seed_urls",
    "write_llms_txt",
]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .llmstxt import LlmsLink, parse_llms_txt, write_llms_txt
    from .mapping import MappedUrl, SiteMap, map_site, seed_urls
    from .scope import SiteScope
    from .urls import canonical, is_http

#: Where each public name lives.
_LAZY = {
    "LlmsLink": "llmstxt",
    "MappedUrl": "mapping",
    "SiteMap": "mapping",
    "SiteScope": "scope",
    "canonical": "urls",
    "is_http": "urls",
    "map_site": "mapping",
    "parse_llms_txt": "llmstxt",
    "seed_urls": "mapping",
    "write_llms_txt": "llmstxt",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'webgrip.sites' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
