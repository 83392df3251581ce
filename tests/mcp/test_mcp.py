"""The MCP server, driven end to end by the official SDK's stdio client.

``python -m webgrip mcp`` is started as a subprocess with a loopback configuration in its
environment; a real ``ClientSession`` lists the tools and calls each against loopback servers.
"""

from __future__ import annotations

import sys

import pytest
from helpers.siteserver import Reply, SiteServer, article, ddg_results, loopback_env, page
from webgrip import Tools
from webgrip.tools.schemas import tool_schemas

pytest.importorskip("mcp")
anyio = pytest.importorskip("anyio")
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402


def _text(result) -> str:
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def _session_run(env: dict[str, str], script):
    params = StdioServerParameters(command=sys.executable, args=["-m", "webgrip", "mcp"], env=env)
    with anyio.fail_after(60):
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return await script(session)


def test_real_client_lists_and_calls_every_tool(tmp_path):
    with SiteServer() as site:
        page_url = site.route("/article", page(article("Protocol")))
        site.route("/report.csv", lambda req: Reply(200, b"x,y\n1,2\n", content_type="text/csv"))
        links_url = site.route(
            "/links",
            page(
                "<main><p>Read <a href='/a'>one</a>, <a href='/b'>two</a>, "
                "<a href='/a'>one again</a>.</p></main>"
            ),
        )
        site.route(
            "/html/",
            page(
                ddg_results(
                    [
                        ("Protocol spec", page_url, "The spec of the protocol"),
                        ("Other", "https://example.org/other", "Another result"),
                    ]
                )
            ),
        )
        downloads = tmp_path / "dl"
        downloads.mkdir()
        env = loopback_env(
            WEBGRIP_DOWNLOAD_DIRS=str(downloads),
            WEBGRIP_SEARCH_ENDPOINTS=f"duckduckgo_html={site.url('/html/')};"
            f"duckduckgo_lite={site.url('/lite/')}",
        )

        async def script(session):
            listed = await session.list_tools()
            fetched = await session.call_tool("fetch_page", {"url": page_url, "max_length": 2000})
            found = await session.call_tool("search_web", {"query": "protocol", "num_results": 2})
            saved = await session.call_tool(
                "download_file", {"url": site.url("/report.csv"), "filename": "report.csv"}
            )
            blocked = await session.call_tool("fetch_page", {"url": "http://10.0.0.1/"})
            invalid = await session.call_tool("fetch_page", {"url": page_url, "bogus": 1})
            missing = await session.call_tool("fetch_page", {"url": site.url("/nope")})
            cited = await session.call_tool(
                "fetch_page", {"url": links_url, "links": "citations", "max_age": 0}
            )
            return listed, fetched, found, saved, blocked, invalid, missing, cited

        listed, fetched, found, saved, blocked, invalid, missing, cited = anyio.run(
            _session_run, env, script
        )

    tools = {t.name: t for t in listed.tools}
    assert list(tools) == ["fetch_page", "search_web", "download_file"]
    expected = {s["name"]: s for s in tool_schemas(Tools.__new__(Tools), "mcp")}
    for name, tool in tools.items():
        assert tool.input_schema == expected[name]["inputSchema"]
        assert tool.description == expected[name]["description"]
    assert tools["fetch_page"].annotations.read_only_hint is True
    assert tools["download_file"].annotations.read_only_hint is False

    assert fetched.is_error is False
    assert "Protocol paragraph 1" in _text(fetched)
    assert found.is_error is False
    assert "Protocol spec" in _text(found) and page_url in _text(found)
    assert saved.is_error is False
    assert (downloads / "report.csv").read_bytes() == b"x,y\n1,2\n"
    assert str(downloads / "report.csv") in _text(saved)

    for failed in (blocked, invalid, missing):
        assert failed.is_error is True
        assert _text(failed).startswith("Error:")
    assert "bogus" in _text(invalid)
    # links and max_age reach the tool through MCP: markers in the text, the URLs after it.
    assert cited.is_error is False
    assert "Read one [1], two [2], one again [1]." in _text(cited)
    assert f"Links:\n[1] {site.url('/a')}\n[2] {site.url('/b')}" in _text(cited)


def test_server_without_sdk_explains_how_to_install(tmp_path):
    # Shadow the SDK with a package that fails to import, as if the extra were not installed.
    import subprocess

    fake = tmp_path / "mcp"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ImportError('no mcp here')\n")
    env = loopback_env()
    env["PYTHONPATH"] = str(tmp_path) + (":" + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    result = subprocess.run(
        [sys.executable, "-m", "webgrip", "mcp"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 2
    assert "pip install 'webgrip[mcp]'" in result.stderr


def test_cli_mcp_subcommand_serves_the_same_tools():
    async def script(session):
        return await session.list_tools()

    async def run():
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "webgrip", "mcp"], env=loopback_env()
        )
        with anyio.fail_after(60):
            async with stdio_client(params) as (r, w), ClientSession(r, w) as session:
                await session.initialize()
                return await script(session)

    listed = anyio.run(run)
    assert [t.name for t in listed.tools] == ["fetch_page", "search_web", "download_file"]
