"""The opt-in ``map_site`` agent tool: its schema in every format (OpenAI, strict OpenAI,
Responses, Anthropic, MCP), its answers and paging, its errors (never raised), the async tool,
and the MCP server offering it when asked (``webgrip mcp --tool map_site``)."""

from __future__ import annotations

import asyncio
import json
import sys

import pytest
from helpers.loopback import loopback_config
from helpers.openai_strict import tool_problems
from helpers.sitemap_sites import urlset
from helpers.siteserver import Reply, SiteServer, loopback_env, page
from webgrip import AsyncTools, Config, Tools
from webgrip.tools.schemas import DEFAULT_TOOLS, tool_schemas

WITH_MAP = (*DEFAULT_TOOLS, "map_site")


def big_site(site: SiteServer, pages: int) -> str:
    o = site.url("")
    site.route(
        "/sitemap.xml",
        lambda req: Reply(
            body=urlset(f"{o}/doc/{i}" for i in range(pages)), content_type="text/xml"
        ),
    )
    llms = "# Docs\n" + "".join(f"- [Doc number {i}](/doc/{i})\n" for i in range(0, pages, 2))
    site.route("/llms.txt", lambda req: Reply(body=llms.encode(), content_type="text/plain"))
    site.route("/", page("<title>Home</title><a href='/doc/1'>One</a>"))
    return o


def _name(entry: dict) -> str:
    return entry.get("name") or entry["function"]["name"]


def test_the_default_tools_stay_three():
    assert [_name(e) for e in Tools().schemas()] == list(DEFAULT_TOOLS)
    assert "map_site" not in Tools().call("map_site", {"url": "https://example.com/"}).split(":")[0]
    assert (
        Tools()
        .call("map_site", {"url": "https://example.com/"})
        .startswith("Error: unknown tool 'map_site'")
    )


@pytest.mark.parametrize(
    ("fmt", "kwargs"),
    [
        ("openai", {}),
        ("openai", {"strict": True}),
        ("openai-responses", {}),
        ("anthropic", {}),
        ("mcp", {}),
    ],
)
def test_the_tool_has_a_schema_in_every_format(fmt, kwargs):
    entries = Tools(tool_names=WITH_MAP).schemas(fmt, **kwargs)
    assert [_name(e) for e in entries] == list(WITH_MAP)
    entry = entries[-1]
    if fmt == "openai":
        params = entry["function"]["parameters"]
    elif fmt == "anthropic":
        params = entry["input_schema"]
    elif fmt == "mcp":
        params = entry["inputSchema"]
        assert entry["annotations"]["readOnlyHint"] is True
    else:
        params = entry["parameters"]
    assert set(params["properties"]) == {"url", "max_length", "start_index"}
    assert params["required"] == (
        ["url", "max_length", "start_index"] if fmt == "openai-responses" or kwargs else ["url"]
    )
    if fmt == "openai-responses" or kwargs:  # strict mode
        assert tool_problems(entry, fmt) == [], entry
    # The same schema by name, from the function the other tools use.
    assert tool_schemas(Tools(), fmt, names=("map_site",), **kwargs) == [entry]


def test_the_answer_lists_titles_and_pages_through():
    with SiteServer() as site:
        o = big_site(site, 120)
        tools = Tools(loopback_config(), tool_names=WITH_MAP)
        first = tools.map_site(o + "/", max_length=1000)
        assert first.startswith(
            f"Site: {o}/\nPages found: 121 (1 from the page itself, 120 from sitemaps)"
        )
        assert f"- {o}/doc/0 — Doc number 0" in first
        assert f"- {o}/doc/1 — One" in first
        assert len(first) <= 1000
        assert first.endswith("]")
        nxt = int(first.rsplit("start_index=", 1)[1].split()[0])
        second = tools.call("map_site", {"url": o + "/", "start_index": nxt, "max_length": 1000})
        assert f"Showing entries {nxt + 1}–" in second
        assert first.split("\n\n")[1].split("\n")[-1] not in second
        # Paging read the one map made for the first answer: the sitemap was asked for once.
        assert len(site.hits("/sitemap.xml")) == 1
        past = tools.map_site(o + "/", start_index=500)
        assert past.startswith("Error: start_index=500 is past the end")


def test_errors_are_strings():
    tools = Tools(Config(), tool_names=WITH_MAP)
    refused = tools.map_site("http://127.0.0.1:9/")
    assert refused.startswith("Error:") and "loopback" in refused
    assert tools.map_site("not a url").startswith("Error:")
    assert tools.call("map_site", {"url": 5}).startswith("Error:")
    assert tools.call("map_site", {"url": "https://example.com/", "start_index": -1}).startswith(
        "Error:"
    )


def test_a_site_without_pages_says_so():
    with SiteServer() as site:
        site.route("/", page("<title>Alone</title><p>No links.</p>"))
        answer = Tools(loopback_config(), tool_names=WITH_MAP).map_site(site.url("/"))
        assert "Pages found: 1 (1 from the page itself)" in answer


def test_async_tools_offer_it_too():
    with SiteServer() as site:
        o = big_site(site, 5)

        async def run():
            async with AsyncTools(loopback_config(), tool_names=WITH_MAP) as tools:
                schemas = tools.schemas("anthropic")
                return (
                    schemas,
                    await tools.map_site(o + "/"),
                    await tools.call("map_site", json.dumps({"url": o + "/"})),
                )

        schemas, answer, called = asyncio.run(run())
        assert [s["name"] for s in schemas] == list(WITH_MAP)
        assert "Pages found: 6" in answer
        assert called == answer


def test_unknown_tool_names_are_refused():
    with pytest.raises(ValueError, match="unknown tool"):
        Tools(tool_names=("fetch_page", "crawl_everything"))
    with pytest.raises(ValueError):
        Tools(tool_names="map_site")


def test_the_mcp_server_offers_it_when_asked():
    pytest.importorskip("mcp")
    anyio = pytest.importorskip("anyio")
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    with SiteServer() as site:
        o = big_site(site, 3)

        async def run():
            params = StdioServerParameters(
                command=sys.executable,
                args=["-m", "webgrip", "mcp", "--tool", "map_site"],
                env=loopback_env(),
            )
            with anyio.fail_after(60):
                async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
                    await session.initialize()
                    listed = await session.list_tools()
                    called = await session.call_tool("map_site", {"url": o + "/"})
                    return listed, called

        listed, called = anyio.run(run)
    assert [t.name for t in listed.tools] == list(WITH_MAP)
    text = "".join(c.text for c in called.content if getattr(c, "type", "") == "text")
    assert called.is_error is False
    assert f"- {o}/doc/2" in text
