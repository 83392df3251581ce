"""Hostile JSON never escapes as an exception: nesting deeper than the parser's recursion
limit and integers longer than Python's int-to-str digit limit (4,300), whether they come
from a model (``Tools.call``), a web page (``fetch_page``), a search provider or a config
file. Each is answered with a short error or, for a page, shown as sent."""

from __future__ import annotations

import asyncio
import json

import pytest
from helpers.loopback import loopback_config, reply
from helpers.search import loopback_client
from webgrip import AsyncTools, Config, Tools, WebClient
from webgrip.errors import SearchError
from webgrip.search import search

DEEP = "[" * 100_000 + "]" * 100_000  # far past any recursion limit
LONG_INT = "9" * 5000  # over sys.get_int_max_str_digits() (4300)
HOSTILE_ARGUMENTS = [
    pytest.param(DEEP, id="deep-array"),
    pytest.param('{"url": ' + DEEP + "}", id="deep-value"),
    pytest.param('{"url": "https://example.com/", "max_length": ' + LONG_INT + "}", id="long-int"),
    pytest.param(
        '{"url": "https://example.com/", "x": {"a": ' * 3000 + "1" + "}" * 6000, id="deep-object"
    ),
]


@pytest.mark.parametrize("arguments", HOSTILE_ARGUMENTS)
@pytest.mark.parametrize("tool", ["fetch_page", "search_web", "download_file"])
def test_call_answers_hostile_json_arguments(arguments: str, tool: str) -> None:
    answer = Tools(Config()).call(tool, arguments)
    assert answer.startswith(f"Error: the arguments for {tool} are not valid JSON (")
    assert len(answer) < 300


@pytest.mark.parametrize("arguments", HOSTILE_ARGUMENTS)
def test_async_call_answers_hostile_json_arguments(arguments: str) -> None:
    async def run() -> str:
        async with AsyncTools(Config()) as tools:
            return await tools.call("fetch_page", arguments)

    assert asyncio.run(run()).startswith("Error: the arguments for fetch_page are not valid JSON")


def test_call_names_the_cause() -> None:
    tools = Tools(Config())
    assert "nested too deeply" in tools.call("fetch_page", DEEP)
    assert "too many digits" in tools.call("fetch_page", '{"url": ' + LONG_INT + "}")


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("[" * 900 + "]" * 900, id="deep-but-parsable"),
        pytest.param('"' + "u" * 100_000 + '"', id="huge-string"),
        pytest.param("9" * 4000, id="long-int-under-limit"),
    ],
)
def test_call_quotes_a_wrong_value_briefly(value: str) -> None:
    # Parsable, but of the wrong type for ``extract`` (an enum of strings): the answer
    # quotes the value, bounded in size and depth.
    answer = Tools(Config()).call(
        "fetch_page", '{"url": "https://example.com/", "extract": ' + value + "}"
    )
    assert answer.startswith("Error: argument 'extract' must be")
    assert len(answer) < 400


def test_call_lists_unknown_arguments_briefly() -> None:
    arguments = {f"k{i}" + "x" * 10_000: 1 for i in range(100)}
    arguments["url"] = "https://example.com/"
    answer = Tools(Config()).call("fetch_page", json.dumps(arguments))
    assert answer.startswith("Error: unknown argument(s) for fetch_page:")
    assert len(answer) < 1000


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(b"[" * 5000 + b"]" * 5000, id="deep"),
        pytest.param(b'{"a": ' + LONG_INT.encode() + b"}", id="long-int"),
        pytest.param(b'{"a": ' * 400 + b"1" + b"}" * 400, id="deep-object-parsable"),
    ],
)
@pytest.mark.parametrize("content_type", ["application/json", None])
def test_fetch_page_shows_hostile_json_as_sent(
    raw_server, body: bytes, content_type: str | None
) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    server = raw_server(reply(200, body, headers))
    answer = Tools(loopback_config()).fetch_page(server.url("/data.json"), max_length=20000)
    assert not answer.startswith("Error:"), answer[:300]
    assert body.decode()[:1000] in answer


def test_fetch_page_still_pretty_prints_ordinary_json(raw_server) -> None:
    server = raw_server(reply(200, b'{"a": [1, {"b": "c"}]}', {"Content-Type": "application/json"}))
    answer = Tools(loopback_config()).fetch_page(server.url("/data.json"))
    assert '{\n  "a": [\n    1,\n    {\n      "b": "c"\n    }\n  ]\n}' in answer


@pytest.mark.parametrize("body", [DEEP, '{"web": {"results": ' + LONG_INT + "}}"])
def test_search_provider_hostile_json_is_a_search_error(httpserver, body: str) -> None:
    httpserver.expect_request("/res/v1/web/search").respond_with_data(
        body, content_type="application/json"
    )
    client = loopback_client(httpserver, brave_api_key="k")
    with pytest.raises(SearchError) as info:
        search(client, "q", provider="brave")
    assert info.value.reason == "bad-response"


@pytest.mark.parametrize("status", [400, 500])
def test_search_provider_hostile_error_body_is_a_search_error(httpserver, status: int) -> None:
    # Error answers are read for their details too (try_json).
    httpserver.expect_request("/res/v1/web/search").respond_with_data(
        DEEP, status=status, content_type="application/json"
    )
    client = loopback_client(httpserver, brave_api_key="k")
    with pytest.raises(SearchError):
        search(client, "q", provider="brave")


def test_response_json_raises_value_error_only(raw_server) -> None:
    server = raw_server(reply(200, DEEP.encode(), {"Content-Type": "application/json"}))
    with WebClient(loopback_config(max_response_bytes=1 << 20)) as client:
        response = client.get(server.url("/"))
    with pytest.raises(ValueError, match="nested too deeply"):
        response.json()


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("timeout = 5\nx = " + "[" * 100_000 + "]" * 100_000 + "\n", id="deep"),
        pytest.param("max_retries = " + LONG_INT + "\n", id="long-int"),
    ],
)
def test_hostile_config_file_is_a_value_error(tmp_path, text: str) -> None:
    path = tmp_path / "webgrip.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=r"webgrip\.toml"):
        Config.load(path, env={})


def test_a_start_index_of_thousands_of_digits_is_not_echoed(raw_server):
    # Valid JSON just under CPython's int-to-str digit limit: the answer stays short.
    server = raw_server(reply(200, b"<p>short page</p>", {"Content-Type": "text/html"}))
    tools = Tools(loopback_config())
    huge = "9" * 4000
    out = tools.call("fetch_page", f'{{"url": "{server.url("/")}", "start_index": {huge}}}')
    assert out.startswith("Error:") and "past the end" in out
    assert len(out) < 500
