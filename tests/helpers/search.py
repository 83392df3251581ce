"""Helpers shared by the search tests: fixture files and a loopback client."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from webgrip.config import Config

from helpers.loopback import LOOPBACK_NETWORKS

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "search"
#: Real DuckDuckGo pages (copied from ``shared/fixtures/duckduckgo``; see the README there).
DDG_PAGES = FIXTURES / "duckduckgo"


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def fixture_json(name: str) -> Any:
    return json.loads(fixture_text(name))


def ddg_page(name: str) -> str:
    return (DDG_PAGES / name).read_text(encoding="utf-8")


def loopback_client(httpserver, **config: Any):
    """A ``WebClient`` allowed to reach the pytest-httpserver stand-in, endpoints pointed at it."""
    from webgrip.client import WebClient

    endpoints = {
        "duckduckgo_html": httpserver.url_for("/html/"),
        "duckduckgo_lite": httpserver.url_for("/lite/"),
        "brave": httpserver.url_for("/res/v1/web/search"),
        "tavily": httpserver.url_for("/search"),
        "google": httpserver.url_for("/customsearch/v1"),
        "searxng": httpserver.url_for("/searx/search"),
    }
    endpoints.update(config.pop("search_endpoints", {}))
    settings: dict[str, Any] = {
        "allow_networks": LOOPBACK_NETWORKS,
        "rate_limit_seconds": 0,
        "max_retries": 0,
        "search_endpoints": endpoints,
        "timeout": 10.0,
    }
    settings.update(config)
    return WebClient(Config(**settings))
