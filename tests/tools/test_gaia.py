"""webgrip as a drop-in for AMD GAIA's browser tools (``webgrip.tools.gaia``), run through GAIA.

GAIA (``amd-gaia``, in the ``.[frameworks]`` extra) is an optional test dependency: without it
these tests skip, naming the package. Every call shape GAIA's own ``BrowserToolsMixin``
accepts goes through GAIA's real registry and executor (``Agent._execute_tool_timed``), and
GAIA's agent loop (``process_query``) runs with a scripted stand-in model (GAIA's own
``MockLLMProvider`` has no ``send_messages``) in GAIA's JSON-in-prompt and native tool-call
modes. Pages, search results and files come from a loopback site; the policy
is opened for loopback through Config only.
"""

from __future__ import annotations

import json
import os
import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.loopback import loopback_config
from helpers.siteserver import Reply, SiteServer, article, ddg_results, page
from webgrip.tools.gaia import gaia_answer

NAMES = ["fetch_page", "search_web", "download_file"]
GAIA_MISSING = "amd-gaia is not installed (pip install '.[frameworks]')"


# -- without GAIA: the answer in GAIA's words ----------------------------------------------
def test_gaia_answer_renames_the_header_and_the_markers_but_not_the_page():
    text = (
        "Title: Cheese\nURL: http://a.test/\nShowing characters 0–10 of 99\n\n"
        "the page says start_index=3 and Title: x\n\n"
        "[Truncated: call fetch_page with start_index=10 to continue]"
    )
    out = gaia_answer(text)
    assert out.startswith("Page: Cheese\nURL: http://a.test/\n")
    assert "the page says start_index=3 and Title: x" in out
    assert out.endswith("[Truncated: call fetch_page with offset=10 to continue]")
    found = gaia_answer(
        "Title: T\n\n[at character 5]\nx\n\n[More matches: call fetch_page with "
        'find="x" and start_index=40]\n\n[To read on from a passage, call '
        "fetch_page with start_index set to its character.]"
    )
    assert 'find="x" and offset=40]' in found and "with offset set to its character" in found
    assert gaia_answer("Error: start_index must be 0 or more") == "Error: offset must be 0 or more"


# -- GAIA itself -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def gaia():
    return pytest.importorskip("gaia.agents.base.agent", reason=GAIA_MISSING, exc_type=ImportError)


@pytest.fixture
def registry(gaia, tmp_path, monkeypatch) -> Iterator[dict]:
    """GAIA's global tool registry, restored after the test; GAIA's state in tmp_path."""
    from gaia.agents.base import tools as gaia_tools

    monkeypatch.setenv("GAIA_HOME", str(tmp_path / "gaia-home"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    saved = dict(gaia_tools._TOOL_REGISTRY)
    gaia_tools._TOOL_REGISTRY.clear()
    yield gaia_tools._TOOL_REGISTRY
    gaia_tools._TOOL_REGISTRY.clear()
    gaia_tools._TOOL_REGISTRY.update(saved)


class Site:
    """The loopback web: a long article, DuckDuckGo-style results and a CSV file."""

    def __init__(self, server: SiteServer, downloads: Path):
        self.server = server
        self.article = server.route("/article", page(article("Cheese", 40)))
        self.file = server.route(
            "/report.csv", lambda req: Reply(200, b"x,y\n1,2\n", content_type="text/csv")
        )
        self.blocked = False
        server.route(
            "/html/",
            lambda req: (
                Reply(202, b"")
                if self.blocked
                else Reply(
                    200, ddg_results([("Cheese", self.article, "All about cheese")]).encode()
                )
            ),
        )
        server.route("/lite/", lambda req: Reply(202, b""))
        self.downloads = downloads
        self.config = loopback_config(
            downloads,
            search_endpoints={
                "duckduckgo_html": server.url("/html/"),
                "duckduckgo_lite": server.url("/lite/"),
            },
        )


@pytest.fixture
def site(tmp_path) -> Iterator[Site]:
    with SiteServer() as server:
        yield Site(server, tmp_path / "webgrip-downloads")


def webgrip_agent(site: Site, validator=None, **kwargs):
    """A GAIA agent with webgrip's browser tools (no model server: skip_lemonade)."""
    from gaia.agents.base.agent import Agent
    from webgrip.tools.gaia import WebgripBrowserToolsMixin

    class WebAgent(Agent, WebgripBrowserToolsMixin):
        def __init__(self, **options):
            self._path_validator = validator
            super().__init__(**options)

        def _register_tools(self):
            self.register_webgrip_tools(config=site.config)

    return WebAgent(skip_lemonade=True, silent_mode=True, **kwargs)


def gaia_browser_agent():
    """A GAIA agent with GAIA's own BrowserToolsMixin (no web client: its bodies refuse)."""
    from gaia.agents.base.agent import Agent
    from gaia.agents.tools.browser_tools import BrowserToolsMixin

    class GaiaAgent(Agent, BrowserToolsMixin):
        def _register_tools(self):
            self.register_browser_tools()

    return GaiaAgent(skip_lemonade=True, silent_mode=True)


def _signature(entry: dict) -> dict:
    import inspect

    return {
        name: (p.default, entry["parameters"][name]["type"])
        for name, p in inspect.signature(entry["function"]).parameters.items()
    }


# -- registration ----------------------------------------------------------------------------
def test_tools_have_gaias_names_signatures_defaults_and_atomic(registry, site):
    gaia_browser_agent()
    own = {name: dict(registry[name]) for name in NAMES}
    registry.clear()
    agent = webgrip_agent(site)
    ours = agent._tools_registry
    for name in NAMES:
        assert ours[name]["atomic"] is True
        assert getattr(ours[name]["function"], "_webgrip_gaia", False)
        # Every parameter GAIA's own tool has, with its default, type and requiredness.
        assert _signature(ours[name]) == _signature(own[name]), name
        for arg, info in own[name]["parameters"].items():
            assert ours[name]["parameters"][arg]["required"] == info["required"]
            assert set(info.get("enum", ())) <= set(ours[name]["parameters"][arg].get("enum", ()))
    assert ours["fetch_page"]["parameters"]["extract"]["enum"] == [
        "text",
        "markdown",
        "html",
        "links",
        "tables",
    ]


def test_descriptions_fit_gaias_limits_and_start_with_a_sentence(registry, site):
    from gaia.agents.base.tools import MAX_TOOL_DESCRIPTION_CHARS, MAX_TOOL_PARAM_DESCRIPTION_CHARS

    agent = webgrip_agent(site)
    for name in NAMES:
        entry = agent._tools_registry[name]
        assert len(entry["description"]) <= MAX_TOOL_DESCRIPTION_CHARS, name
        first = entry["description"].splitlines()[0]
        assert first.endswith(".") and first[0].isupper(), first
        for arg, info in entry["parameters"].items():
            assert 0 < len(info["description"]) <= MAX_TOOL_PARAM_DESCRIPTION_CHARS, (name, arg)
    # GAIA's prompt shows models the first line only: whole sentences, not a cut one.
    prompt = agent._format_tools_for_prompt()
    assert (
        "- fetch_page(url: string, extract?: string, max_length?: integer, offset?: "
        "integer, find?: string): Fetch a web page and return its readable content.\n" in prompt
    )


def test_webgrips_own_tools_registered_with_gaias_decorator_fit_too(registry):
    """``Tools(config).register(gaia's tool)`` (webgrip's own signatures) fits GAIA's limits."""
    from gaia.agents.base.tools import (
        MAX_TOOL_DESCRIPTION_CHARS,
        MAX_TOOL_PARAM_DESCRIPTION_CHARS,
        tool,
    )
    from webgrip import Config, Tools

    Tools(Config()).register(tool(atomic=True))
    for name in NAMES:
        entry = registry[name]
        assert len(entry["description"]) <= MAX_TOOL_DESCRIPTION_CHARS, name
        assert re.fullmatch(r"[A-Z][^\n]*\.", entry["description"].splitlines()[0]), name
        for arg, info in entry["parameters"].items():
            assert len(info.get("description", "")) <= MAX_TOOL_PARAM_DESCRIPTION_CHARS, arg


def test_both_browser_mixins_on_one_agent_are_refused(registry, site):
    from gaia.agents.base.agent import Agent
    from gaia.agents.tools.browser_tools import BrowserToolsMixin
    from webgrip.tools.gaia import ToolConflictError, WebgripBrowserToolsMixin

    class Both(Agent, WebgripBrowserToolsMixin, BrowserToolsMixin):
        def _register_tools(self):
            self.register_webgrip_tools(config=site.config)

    with pytest.raises(ToolConflictError, match="both GAIA's BrowserToolsMixin"):
        Both(skip_lemonade=True, silent_mode=True)

    class Later(Agent, WebgripBrowserToolsMixin):
        def _register_tools(self):
            self.register_webgrip_tools(config=site.config)
            self.register_browser_tools()  # GAIA's entry point, reached through ours

    with pytest.raises(ToolConflictError, match="register_browser_tools"):
        Later(skip_lemonade=True, silent_mode=True)


def test_same_named_tools_left_in_gaias_registry_are_replaced_with_a_warning(registry, site):
    gaia_browser_agent()  # another agent in this process registered GAIA's own tools
    with pytest.warns(RuntimeWarning, match="download_file, fetch_page, search_web"):
        agent = webgrip_agent(site)
    assert all(agent._tools_registry[n]["function"]._webgrip_gaia for n in NAMES)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        webgrip_agent(site)  # webgrip's own, registered again: nothing to warn about


# -- every call GAIA's own tools accept works unchanged ------------------------------------
def _gaia_calls(site: Site, folder: Path) -> list[tuple[str, dict]]:
    url = site.article
    return [
        ("fetch_page", {"url": url}),
        ("fetch_page", {"url": url, "extract": "text"}),
        ("fetch_page", {"url": url, "extract": "html", "max_length": 512}),
        ("fetch_page", {"url": url, "extract": "links"}),
        ("fetch_page", {"url": url, "extract": "tables"}),
        ("fetch_page", {"url": url, "max_length": "20000"}),
        ("fetch_page", {"url": url, "max_length": 600, "offset": 600}),
        ("fetch_page", {"url": url, "offset": "1200"}),
        ("fetch_page", {"url": url, "find": "paragraph 7"}),
        ("fetch_page", {"url": url, "find": "paragraph 3", "offset": 0, "max_length": 800}),
        (
            "fetch_page",
            {"url": url, "extract": "text", "max_length": 5000, "offset": 0, "find": None},
        ),
        ("search_web", {"query": "cheese"}),
        ("search_web", {"query": "cheese", "num_results": 3}),
        ("search_web", {"query": "cheese", "num_results": "10"}),
        ("download_file", {"url": site.file}),
        ("download_file", {"url": site.file, "save_to": str(folder)}),
        ("download_file", {"url": site.file, "save_to": str(folder), "filename": "b.csv"}),
        ("download_file", {"url": site.file, "save_to": "~/Downloads", "filename": None}),
    ]


def test_every_call_gaias_own_tools_accept_works_against_webgrip(registry, site, tmp_path):
    folder = tmp_path / "chosen"
    downloads = tmp_path / "home" / "Downloads"
    gaia_agent = gaia_browser_agent()
    calls = _gaia_calls(site, folder)
    for name, args in calls:  # GAIA's executor accepts each for GAIA's own tools
        # (_execute_tool: the turn's failure guard would stop GAIA's uninitialised tools)
        result = gaia_agent._execute_tool(name, dict(args))
        assert isinstance(result, str) and "not initialized" in result, (name, args, result)
    registry.clear()

    # A GAIA session that allows both folders (and webgrip's download_dirs is neither).
    from gaia.security import PathValidator

    validator = PathValidator(allowed_paths=[str(folder), str(downloads)])
    agent = webgrip_agent(site, validator=validator)
    answers = []
    for name, args in calls:
        if name == "download_file" and args.get("filename") is None:
            for old in (folder / "report.csv", downloads / "report.csv"):
                old.unlink(missing_ok=True)
        result = agent._execute_tool_timed(name, dict(args))
        assert isinstance(result, str), (name, args, result)
        assert not result.startswith("Error"), (name, args, result)
        answers.append(result)
    fetches = [a for (n, _), a in zip(calls, answers, strict=True) if n == "fetch_page"]
    assert all(a.startswith("Page: Cheese\nURL: ") for a in fetches), fetches
    assert re.search(
        r"\n\[Truncated: call fetch_page with offset=\d+ to continue\]$", fetches[6]
    ), fetches[6]
    assert "Showing characters 1200–" in fetches[7]
    assert 'Found 1 match for "paragraph 7"' in fetches[8]
    assert "start_index" not in "".join(fetches)
    assert answers[11].startswith('Web search results for: "cheese"\n\n1. Cheese\n')
    assert (folder / "b.csv").read_bytes() == b"x,y\n1,2\n"
    assert (downloads / "report.csv").read_bytes() == b"x,y\n1,2\n"
    assert not site.downloads.exists() or not any(site.downloads.iterdir())


def test_gaias_ui_reads_the_page_title(registry, site):
    from gaia.ui.turn_summary import _PAGE_TITLE_RE

    answer = webgrip_agent(site)._execute_tool_timed("fetch_page", {"url": site.article})
    assert _PAGE_TITLE_RE.search(answer).group("title") == "Cheese"


# -- search_web: GAIA's rate-limit dict -----------------------------------------------------
def test_a_refused_search_is_gaias_rate_limited_dict_until_the_streak_limit(registry, site):
    from gaia.agents.base.agent import Agent
    from webgrip.tools.gaia import SEARCH_UNAVAILABLE_STREAK_LIMIT

    agent = webgrip_agent(site)
    site.blocked = True
    first = agent._execute_tool_timed("search_web", {"query": "cheese"})
    assert Agent._is_throttled_result(first), first
    assert first["status"] == "error" and first["retryable"] is True
    assert first["wait_time_seconds"] > 0
    assert first["error"].startswith("Web search is temporarily unavailable: DuckDuckGo")
    for _ in range(SEARCH_UNAVAILABLE_STREAK_LIMIT - 2):
        assert Agent._is_throttled_result(
            agent._execute_tool_timed("search_web", {"query": "cheese", "num_results": 2})
        )
    last = agent._execute_tool_timed("search_web", {"query": "cheese pie"})
    assert not Agent._is_throttled_result(last) and last["retryable"] is False
    assert "stop calling search_web" in last["error"]
    site.blocked = False
    assert agent._execute_tool_timed("search_web", {"query": "cheese"}).startswith("Web search")
    site.blocked = True
    assert Agent._is_throttled_result(agent._execute_tool_timed("search_web", {"query": "x"}))


# -- download_file: GAIA's path flow, webgrip's guards ---------------------------------------
def test_a_name_clash_is_refused_as_gaia_does(registry, site, tmp_path):
    agent = webgrip_agent(site)
    site.downloads.mkdir(parents=True)
    (site.downloads / "report.csv").write_bytes(b"mine")
    answer = agent._execute_tool_timed(
        "download_file", {"url": site.file, "save_to": str(site.downloads)}
    )
    assert answer.startswith("Error: Refusing to overwrite existing file: "), answer
    assert "filename=" in answer
    assert sorted(p.name for p in site.downloads.iterdir()) == ["report.csv"]
    assert (site.downloads / "report.csv").read_bytes() == b"mine"
    ok = agent._execute_tool_timed(
        "download_file",
        {"url": site.file, "save_to": str(site.downloads), "filename": "report2.csv"},
    )
    assert ok.startswith("Downloaded: report2.csv\n"), ok


def test_without_a_gaia_validator_only_webgrips_download_dirs_are_writable(
    registry, site, tmp_path
):
    agent = webgrip_agent(site)
    elsewhere = tmp_path / "elsewhere"
    answer = agent._execute_tool_timed(
        "download_file", {"url": site.file, "save_to": str(elsewhere)}
    )
    assert answer.startswith("Error:"), answer
    assert not elsewhere.exists()


def test_a_folder_gaia_refuses_is_never_written(registry, site, tmp_path):
    from gaia.security import PathValidator

    allowed = tmp_path / "allowed"
    validator = PathValidator(allowed_paths=[str(allowed)])
    agent = webgrip_agent(site, validator=validator)
    # Outside the session's scope, and nobody to ask (a silent console): refused, no folder.
    other = tmp_path / "other"
    answer = agent._execute_tool_timed("download_file", {"url": site.file, "save_to": str(other)})
    assert answer.startswith("Error:"), answer
    assert not other.exists()
    # A blocked folder is refused before any request.
    hits = len(site.server.requests)
    answer = agent._execute_tool_timed("download_file", {"url": site.file, "save_to": "/etc"})
    assert answer.startswith("Error:"), answer
    assert len(site.server.requests) == hits
    # A symlink inside the allowed folder that leads out of it is followed by neither side.
    allowed.mkdir()
    (allowed / "out").symlink_to(other, target_is_directory=True)
    other.mkdir()
    answer = agent._execute_tool_timed(
        "download_file", {"url": site.file, "save_to": str(allowed / "out")}
    )
    assert answer.startswith("Error:"), answer
    assert list(other.iterdir()) == []
    # A filename cannot climb out of the folder GAIA allowed.
    answer = agent._execute_tool_timed(
        "download_file",
        {"url": site.file, "save_to": str(allowed), "filename": "../../escaped.csv"},
    )
    assert answer.startswith("Downloaded: "), answer
    assert not (tmp_path / "escaped.csv").exists()
    assert [p.parent for p in allowed.glob("*.csv")] == [allowed]


def test_the_download_is_recorded_for_gaias_undo_before_it_is_written(
    registry, site, tmp_path, monkeypatch
):
    from gaia.agents.base import file_snapshots

    seen: list[tuple[str, bool]] = []

    def before_change(path, tool=None):
        seen.append((tool, os.path.lexists(path)))

    monkeypatch.setattr(file_snapshots, "before_change", before_change)
    agent = webgrip_agent(site)
    answer = agent._execute_tool_timed(
        "download_file", {"url": site.file, "save_to": str(site.downloads)}
    )
    assert answer.startswith("Downloaded: report.csv"), answer
    assert seen == [("download_file", False)]


# -- GAIA's agent loop with a scripted model -------------------------------------------------
def test_process_query_runs_the_tools_in_gaias_json_in_prompt_mode(registry, site, tmp_path):
    from gaia.chat.sdk import AgentResponse

    agent = webgrip_agent(site, max_steps=8)
    assert not agent._uses_native_tool_calls()
    steps = [
        {"tool": "search_web", "tool_args": {"query": "cheese", "num_results": 3}},
        {"tool": "fetch_page", "tool_args": {"url": site.article, "find": "paragraph 7"}},
        {
            "tool": "fetch_page",
            "tool_args": {"url": site.article, "offset": 2000, "max_length": 600},
        },
        {"tool": "download_file", "tool_args": {"url": site.file, "save_to": str(site.downloads)}},
    ]
    sent: list[dict] = []

    def send_messages(messages, system_prompt=None, tools=None, **kwargs):
        sent.append({"messages": list(messages), "system_prompt": system_prompt, "tools": tools})
        turn = len(sent) - 1
        if turn < len(steps):
            reply = {"thought": "use a tool", "goal": "answer", **steps[turn]}
        else:
            reply = {"thought": "done", "goal": "achieved", "answer": "Cheese, read."}
        return AgentResponse(text=json.dumps(reply), stats={})

    agent.chat.send_messages = send_messages
    agent.chat.get_stats = lambda: {}
    result = agent.process_query("What does the cheese page say about paragraph 7?")
    assert result["status"] == "success", result
    assert result["result"] == "Cheese, read."
    prompt = sent[0]["system_prompt"]
    assert sent[0]["tools"] is None  # JSON-in-prompt: the tools are described in the prompt
    assert (
        "- fetch_page(url: string, extract?: string, max_length?: integer, offset?: "
        "integer, find?: string): Fetch a web page and return its readable content." in prompt
    )
    outputs = {}
    for entry in result["conversation"]:
        if entry.get("role") == "tool":
            outputs.setdefault(entry["name"], []).append(entry["content"])
    assert set(outputs) == set(NAMES), outputs
    assert outputs["search_web"][0].startswith('Web search results for: "cheese"')
    assert 'Found 1 match for "paragraph 7"' in outputs["fetch_page"][0]
    assert outputs["fetch_page"][1].startswith("Page: Cheese\n")
    assert "Showing characters 2000–" in outputs["fetch_page"][1]
    assert outputs["download_file"][0].startswith("Downloaded: report.csv")
    assert (site.downloads / "report.csv").read_bytes() == b"x,y\n1,2\n"


def test_the_docs_recipe_runs_as_written(registry, site, monkeypatch):
    """docs/frameworks.md's GAIA recipe: the agent class, as written, registers the tools."""
    text = (Path(__file__).parents[2] / "docs" / "frameworks.md").read_text(encoding="utf-8")
    section = text[text.index("## GAIA") :]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    definition = code[: code.index("\nagent = ")]  # the rest asks a real model
    assert "def _register_tools(self):" in definition
    for name, value in (
        ("WEBGRIP_ALLOW_NETWORKS", "127.0.0.0/8"),
        ("WEBGRIP_RATE_LIMIT_SECONDS", "0"),
    ):
        monkeypatch.setenv(name, value)
    namespace: dict = {}
    exec(compile(definition, "docs/frameworks.md", "exec"), namespace)
    agent = namespace["WebAgent"](skip_lemonade=True, silent_mode=True)
    assert all(agent._tools_registry[n]["function"]._webgrip_gaia for n in NAMES)
    answer = agent._execute_tool_timed("fetch_page", {"url": site.article, "find": "cheese"})
    assert answer.startswith("Page: Cheese\n"), answer


def test_process_query_runs_the_tools_in_gaias_native_tool_call_mode(registry, site):
    from gaia.chat.sdk import AgentResponse

    agent = webgrip_agent(site, max_steps=6, model_id="Scripted-Tool-Caller-GGUF")
    assert agent._uses_native_tool_calls()
    calls = [
        ("fetch_page", {"url": site.article, "find": "paragraph 7", "max_length": 2000}),
        ("search_web", {"query": "cheese"}),
    ]
    sent: list[dict] = []

    def send_messages(messages, system_prompt=None, tools=None, **kwargs):
        sent.append({"tools": tools})
        if len(sent) <= len(calls):
            name, args = calls[len(sent) - 1]
            return AgentResponse(
                text=json.dumps(
                    {
                        "__tool_calls__": [
                            {
                                "id": f"call_{len(sent)}",
                                "type": "function",
                                "function": {"name": name, "arguments": json.dumps(args)},
                            }
                        ],
                        "finish_reason": "tool_calls",
                    }
                ),
                stats={},
            )
        return AgentResponse(text="Cheese paragraph 7, read.", stats={})

    agent.chat.send_messages = send_messages
    agent.chat.get_stats = lambda: {}
    result = agent.process_query("What does the cheese page say about paragraph 7?")
    assert result["status"] == "success", result
    schemas = {t["function"]["name"]: t["function"] for t in sent[0]["tools"]}
    assert set(NAMES) <= set(schemas)
    assert set(schemas["fetch_page"]["parameters"]["properties"]) == {
        "url",
        "extract",
        "max_length",
        "offset",
        "find",
    }
    outputs = [e for e in result["conversation"] if e.get("role") == "tool"]
    assert [e["name"] for e in outputs] == ["fetch_page", "search_web"], outputs
    assert 'Found 1 match for "paragraph 7"' in str(outputs[0]["content"])
    assert str(outputs[1]["content"]).startswith('Web search results for: "cheese"')
