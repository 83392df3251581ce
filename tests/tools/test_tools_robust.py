"""The tool methods never raise: any garbage in gives a string out (an ``Error:`` one)."""

from __future__ import annotations

import os
import tempfile

import webgrip
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webgrip import Config, Tools
from webgrip.tools import toolbox as tools_module

# Nothing may leave the machine: only a domain that cannot exist is allowed, so every URL is
# refused before any DNS lookup or connection.
DOWNLOADS = tempfile.mkdtemp(prefix="webgrip-robust-")
TOOLS = Tools(
    Config(
        allowed_domains=("nothing.invalid",),
        download_dirs=(DOWNLOADS,),
        rate_limit_seconds=0,
        timeout=2,
    )
)

anything = st.one_of(
    st.text(max_size=200),
    st.integers(),
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.lists(st.integers(), max_size=3),
    st.binary(max_size=20),
)
urlish = st.one_of(
    anything,
    st.builds(lambda s: "http://" + s, st.text(max_size=50)),
    st.builds(lambda s: "https://example.com/" + s, st.text(max_size=50)),
)

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(urlish, anything, anything, anything)
def test_fetch_page_never_raises(url, extract, max_length, start_index):
    answer = TOOLS.fetch_page(url, extract, max_length, start_index)
    assert isinstance(answer, str) and answer.startswith("Error:")


@SETTINGS
@given(anything, anything)
def test_search_web_never_raises(query, num_results):
    tools = Tools(
        Config(
            allowed_domains=("nothing.invalid",),
            rate_limit_seconds=0,
            timeout=2,
            search_provider="searxng",
        )
    )  # no instance configured: fails fast
    answer = tools.search_web(query, num_results)
    assert isinstance(answer, str) and answer.startswith("Error:")


@SETTINGS
@given(urlish, anything, anything, anything)
def test_download_file_never_raises(url, save_to, filename, overwrite):
    answer = TOOLS.download_file(url, save_to, filename, overwrite)
    assert isinstance(answer, str) and answer.startswith("Error:")
    assert os.listdir(DOWNLOADS) == []


def test_module_functions_lazy_and_report_bad_env(monkeypatch):
    monkeypatch.setattr(tools_module, "_default", None)
    monkeypatch.setenv("WEBGRIP_TIMEOUT", "not-a-number")
    answer = webgrip.fetch_page("https://example.com/")
    assert answer.startswith("Error: webgrip is misconfigured") and "'timeout'" in answer
    assert tools_module._default is None


def test_module_functions_share_one_default(monkeypatch):
    monkeypatch.setattr(tools_module, "_default", None)
    monkeypatch.setenv("WEBGRIP_ALLOWED_DOMAINS", "nothing.invalid")
    assert webgrip.fetch_page("https://example.com/").startswith("Error: Refused")
    first = tools_module._default
    assert first is not None and first.config.allowed_domains == ("nothing.invalid",)
    webgrip.download_file("https://example.com/f.pdf", save_to="/etc")
    assert tools_module._default is first
    assert webgrip.fetch_page.__doc__ == Tools.fetch_page.__doc__


def test_import_builds_no_client():
    import subprocess
    import sys

    code = (
        "import webgrip, webgrip.tools.toolbox as t, webgrip.client as c; "
        "assert t._default is None; print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.stdout.strip() == "ok", out.stderr


def test_a_missing_search_key_says_what_to_set_not_to_wait():
    """A provider with no API key fails the same way every time: the answer names the
    setting and the way out, never "try again later"."""
    answer = Tools(Config(search_provider="brave")).search_web("rust")
    assert answer.startswith("Error: Search failed — Brave Search: no API key configured")
    assert "WEBGRIP_BRAVE_API_KEY" in answer and "choose another search provider" in answer
    assert "later" not in answer
