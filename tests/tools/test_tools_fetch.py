"""fetch_page against loopback servers: every extract mode and content type, paging, errors."""

from __future__ import annotations

import json
import re
import time

import pytest
from helpers.loopback import RawServer, loopback_config
from webgrip import Config, Tools, UnsupportedContentError
from webgrip.client import WebClient

ARTICLE = """<!doctype html><html lang="en"><head><title>Cheese Guide</title>
<meta name="description" content="All about cheese"></head><body>
<nav><a href="/home">Home</a> <a href="/about">About us</a></nav>
<main><article><h1>Cheese Guide</h1>
<p>Cheddar is a hard cheese that originated in the English village of Cheddar in Somerset.
It is the most popular cheese in the United Kingdom and is aged for months.</p>
<p>Brie is a soft cow's-milk cheese named after Brie, the French region from which it
originated. It is pale in colour with a slight greyish tinge under a rind of white mould.</p>
<p>See the <a href="https://example.org/gouda?utm_medium=x">Gouda page</a> for more.</p>
<table><caption>Prices</caption><tr><th>Cheese</th><th>Price</th></tr>
<tr><td>Cheddar</td><td>4.50</td></tr><tr><td>Brie</td><td>6.00</td></tr></table>
</article></main>
<footer>Copyright 2024 Cheese Co. All rights reserved.</footer></body></html>"""


@pytest.fixture
def tools(tmp_path):
    return Tools(loopback_config(tmp_path))


def header_and_body(answer: str) -> tuple[dict[str, str], str]:
    head, _, body = answer.partition("\n\n")
    fields = dict(line.split(": ", 1) for line in head.splitlines() if ": " in line)
    return fields, body


def serve(httpserver, path, body, content_type, status=200, headers=None):
    httpserver.expect_request(path).respond_with_data(
        body, status=status, content_type=content_type, headers=headers or {}
    )
    return httpserver.url_for(path)


def test_markdown_default_main_content(tools, httpserver):
    url = serve(httpserver, "/cheese", ARTICLE, "text/html; charset=utf-8")
    answer = tools.fetch_page(url)
    fields, body = header_and_body(answer)
    assert fields["Title"] == "Cheese Guide"
    assert fields["URL"] == url
    assert fields["Content-Type"] == "text/html"
    assert re.fullmatch(r"Showing characters 0–(\d+) of \1", answer.splitlines()[3])
    assert "Cheddar is a hard cheese" in body and "# Cheese Guide" in body
    assert "Copyright 2024" not in body  # footer dropped by main-content extraction
    assert "[Gouda page](https://example.org/gouda)" in body


def test_text_mode_plain(tools, httpserver):
    url = serve(httpserver, "/cheese", ARTICLE, "text/html")
    _, body = header_and_body(tools.fetch_page(url, extract="text"))
    assert "Brie is a soft" in body
    assert "](" not in body and "# " not in body


def test_html_mode_returns_the_html(tools, httpserver):
    url = serve(httpserver, "/cheese", ARTICLE, "text/html")
    fields, body = header_and_body(tools.fetch_page(url, extract="html", max_length=20000))
    assert fields["Title"] == "Cheese Guide"
    assert body == ARTICLE


def test_links_mode(tools, httpserver):
    url = serve(httpserver, "/cheese", ARTICLE, "text/html")
    _, body = header_and_body(tools.fetch_page(url, extract="links"))
    assert "- [Gouda page](https://example.org/gouda)" in body
    assert f"- [About us]({httpserver.url_for('/about')})" in body


def test_links_capped_with_count(tools, httpserver):
    links = "".join(f'<a href="/p{i}">page {i}</a> ' for i in range(150))
    url = serve(httpserver, "/many", f"<html><body>{links}</body></html>", "text/html")
    page = tools.client.fetch(url, extract="links")
    assert len(page.data) == 150
    assert page.content.count("\n- [") == 99
    assert page.content.endswith("…and 50 more links")


def test_tables_mode_is_json_rows(tools, httpserver):
    url = serve(httpserver, "/cheese", ARTICLE, "text/html")
    _, body = header_and_body(tools.fetch_page(url, extract="tables"))
    tables = json.loads(body)
    assert tables == [
        {
            "caption": "Prices",
            "headers": ["Cheese", "Price"],
            "rows": [{"Cheese": "Cheddar", "Price": "4.50"}, {"Cheese": "Brie", "Price": "6.00"}],
        }
    ]


def test_no_tables_says_so(tools, httpserver):
    url = serve(httpserver, "/p", "<html><body><p>none</p></body></html>", "text/html")
    assert "(No tables were found on this page.)" in tools.fetch_page(url, extract="tables")


def test_json_pretty_printed(tools, httpserver):
    url = serve(
        httpserver, "/api", '{"name":"Brie","tags":["soft","french"],"n":1}', "application/json"
    )
    fields, body = header_and_body(tools.fetch_page(url))
    assert fields["Content-Type"] == "application/json"
    assert body == json.dumps({"name": "Brie", "tags": ["soft", "french"], "n": 1}, indent=2)


@pytest.mark.parametrize(
    ("content_type", "text"),
    [
        ("text/plain; charset=utf-8", "plain text\n  with  spacing kept\tand tabs\n"),
        ("text/csv", "cheese,price\ncheddar,4.50\nbrie,6.00\n"),
        ("application/xml", '<?xml version="1.0"?><cheeses><c name="brie"/></cheeses>'),
        ("text/markdown", "# Title\n\n* item\n"),
    ],
)
def test_text_types_pass_through(tools, httpserver, content_type, text):
    url = serve(httpserver, "/doc", text, content_type)
    fields, body = header_and_body(tools.fetch_page(url))
    assert body == text
    assert fields["Content-Type"] == content_type.split(";")[0]


@pytest.mark.parametrize(
    ("content_type", "body", "kind"),
    [
        ("image/png", b"\x89PNG\r\n\x1a\n" + b"\x00" * 500, "image"),
        ("application/octet-stream", b"\x7fELF mislabelled" + b"\x00" * 100, "binary file"),
        ("application/zip", b"PK\x03\x04" + b"\x00" * 100, "archive"),
    ],
)
def test_binary_refused_with_download_hint(tools, httpserver, content_type, body, kind):
    url = serve(httpserver, "/file", body, content_type)
    answer = tools.fetch_page(url)
    assert answer.startswith("Error:")
    assert kind in answer and "download_file" in answer
    assert f"{len(body)} bytes" in answer or "KiB" in answer


def test_binary_raises_typed_error(tools, httpserver):
    url = serve(httpserver, "/f.png", b"\x89PNG\r\n\x1a\n...", "image/png")
    with pytest.raises(UnsupportedContentError) as info:
        tools.client.fetch(url)
    assert info.value.content_type == "image/png"


def test_links_on_json_refused(tools, httpserver):
    url = serve(httpserver, "/api", "{}", "application/json")
    answer = tools.fetch_page(url, extract="links")
    assert answer.startswith("Error:") and 'extract="markdown"' in answer


def test_paging_reassembles_exactly_with_one_request(tools, httpserver):
    words = [f"word{i}" + ("\n" if i % 17 == 0 else " ") for i in range(3000)]
    text = "".join(words)
    httpserver.expect_request("/long").respond_with_data(text, content_type="text/plain")
    url = httpserver.url_for("/long")
    parts, start, calls = [], 0, 0
    while True:
        answer = tools.fetch_page(url, max_length=700, start_index=start)
        calls += 1
        _fields, body = header_and_body(answer)
        m = re.search(r"^Showing characters (\d+)–(\d+) of (\d+)$", answer, re.MULTILINE)
        assert m and int(m.group(1)) == start and int(m.group(3)) == len(text)
        # The part is the page's text as it is; the note follows after one blank line.
        chunk = body[: int(m.group(2)) - start]
        assert len(chunk) <= 700
        more = re.fullmatch(
            r"\n*\[Truncated: call fetch_page with start_index=(\d+) to continue\]",
            body[len(chunk) :],
        )
        assert more or body == chunk
        assert "\n\n\n" not in answer
        parts.append(chunk)
        if not more:
            break
        start = int(more.group(1))
        assert start == int(m.group(2))
        if calls < 5:  # cuts fall on word boundaries
            assert chunk[-1].isspace()
    assert "".join(parts) == text
    assert calls > 5
    assert len(httpserver.log) == 1


def test_paging_html_markdown_once(tools, httpserver):
    paras = "".join(
        f"<p>Paragraph {i} says something about cheese and more.</p>" for i in range(400)
    )
    httpserver.expect_request("/big").respond_with_data(
        f"<html><head><title>Big</title></head><body><article>{paras}</article></body></html>",
        content_type="text/html",
    )
    url = httpserver.url_for("/big")
    full = tools.client.fetch(url).content
    log_before = len(httpserver.log)
    pieces, start = [], 0
    while True:
        answer = tools.fetch_page(url, max_length=5000, start_index=start)
        _, body = header_and_body(answer)
        end = int(re.search(r"Showing characters \d+–(\d+) of", answer).group(1))
        pieces.append(body[: end - start])
        more = re.fullmatch(
            r"\n*\[Truncated: call fetch_page with start_index=(\d+) to continue\]",
            body[end - start :],
        )
        assert "\n\n\n" not in answer
        if not more:
            break
        start = int(more.group(1))
    assert "".join(pieces) == full
    # the first page (start_index=0) fetches fresh; the following parts come from the cache
    assert len(httpserver.log) == log_before + 1


def test_max_length_clamped(tools, httpserver):
    url = serve(httpserver, "/t", "x" * 30000, "text/plain")
    assert "Showing characters 0–100 of 30000" in tools.fetch_page(url, max_length=5)
    assert "Showing characters 0–20000 of 30000" in tools.fetch_page(url, max_length=10**9)
    assert "Showing characters 0–300 of 30000" in tools.fetch_page(url, max_length="300")


def test_start_index_past_end(tools, httpserver):
    url = serve(httpserver, "/t", "short text", "text/plain")
    answer = tools.fetch_page(url, start_index=500)
    assert answer.startswith("Error: start_index=500 is past the end")


def test_http_404(tools, httpserver):
    url = serve(httpserver, "/missing", "nope", "text/plain", status=404)
    answer = tools.fetch_page(url)
    assert answer == f"Error: HTTP 404 Not Found for {url}. Check the URL or search for the page."


def test_http_500(tools, httpserver):
    url = serve(httpserver, "/boom", "nope", "text/plain", status=500)
    answer = tools.fetch_page(url)
    assert answer.startswith("Error: HTTP 500 Internal Server Error for")
    assert "try again later" in answer


def test_loopback_refused_by_default(httpserver):
    url = serve(httpserver, "/secret", "secret", "text/plain")
    answer = Tools(Config(rate_limit_seconds=0)).fetch_page(url)
    assert answer.startswith(f"Error: Refused {url} — ")
    assert "Refused" not in answer[len("Error: Refused") :]  # the core's prefix is not repeated
    assert "Only public web addresses can be fetched." in answer
    assert len(httpserver.log) == 0


def test_https_only_mode(httpserver):
    url = serve(httpserver, "/x", "x", "text/plain")
    answer = Tools(loopback_config(allow_http=False)).fetch_page(url)
    assert answer.startswith("Error:") and "https" in answer
    assert len(httpserver.log) == 0


def test_tracking_parameters_stripped_on_fetch(tools, httpserver):
    httpserver.expect_request("/article").respond_with_data("ok", content_type="text/plain")
    url = httpserver.url_for("/article") + "?id=5&utm_source=news&fbclid=abc&gclid=x#part-2"
    answer = tools.fetch_page(url)
    assert "URL: " + httpserver.url_for("/article") + "?id=5" in answer
    request = httpserver.log[0][0]
    assert request.query_string == b"id=5"


def test_extra_tracking_params_from_config(tmp_path, httpserver):
    httpserver.expect_request("/a").respond_with_data("ok", content_type="text/plain")
    tools = Tools(loopback_config(tmp_path, tracking_params=("session_ref",)))
    tools.fetch_page(httpserver.url_for("/a") + "?session_ref=1&q=2")
    assert httpserver.log[0][0].query_string == b"q=2"


def test_timeout_is_an_error_not_a_hang():
    def silent(conn, request):
        time.sleep(5)

    with RawServer(silent) as server:
        answer = Tools(loopback_config(timeout=1)).fetch_page(server.url("/slow"))
    assert answer.startswith("Error: Timed out after 1 s fetching ")
    assert answer.endswith("Try again later or try another source.")


def test_connection_refused_is_an_error():
    with RawServer(lambda c, r: None) as server:
        url = server.url("/")
    answer = Tools(loopback_config()).fetch_page(url)  # server closed: connection refused
    assert answer.startswith("Error: Could not fetch ")


@pytest.mark.parametrize(
    "bad",
    [
        {"url": ""},
        {"url": "not a url"},
        {"url": "ftp://example.com/"},
        {"url": 42},
        {"url": "https://example.com/", "extract": "pdf"},
        {"url": "https://example.com/", "max_length": "lots"},
        {"url": "https://example.com/", "start_index": -1},
    ],
)
def test_bad_arguments_are_error_strings(bad):
    answer = Tools(Config(allowed_domains=("nothing.invalid",))).fetch_page(**bad)
    assert answer.startswith("Error:")


def test_credentials_never_echoed():
    answer = Tools(loopback_config()).fetch_page("http://alice:s3cret@127.0.0.1:8080/x")
    assert answer.startswith("Error: Refused http://127.0.0.1:8080/x — ")
    assert "s3cret" not in answer and "alice" not in answer


def test_structured_fetch_page_fields(tools, httpserver):
    url = serve(httpserver, "/cheese", ARTICLE, "text/html")
    with WebClient(tools.config) as client:
        page = client.fetch(url)
    assert page.title == "Cheese Guide" and page.status == 200
    assert page.metadata["description"] == "All about cheese"
    assert page.main_content is True and page.extract == "markdown"
    d = page.to_dict()
    assert d["length"] == len(page.content) and json.dumps(d)


def test_error_answers_cut_a_huge_url(tmp_path):
    tools = Tools(loopback_config(tmp_path))
    huge = "http://10.0.0.1/" + "a" * 1_000_000
    for answer in (
        tools.fetch_page(huge),
        tools.download_file(huge),
        tools.fetch_page("http://[::1/" + "z" * 1_000_000),
    ):
        assert answer.startswith("Error:")
        assert len(answer) < 800, answer[:1000]
        assert "…" in answer


def test_detail_is_found_after_a_cut_url():
    """The core quotes a cut URL; the tool still drops that prefix instead of repeating it."""
    from webgrip import BlockedURLError
    from webgrip.messages import error_message

    url = "http://10.0.0.1/" + "a" * 5000
    exc = BlockedURLError(
        f"Refused {url[:199]}…: 10.0.0.1 is a private address", url=url, reason="private-address"
    )
    answer = error_message(exc)
    assert answer.count("http://10.0.0.1/") == 1, answer
    assert "10.0.0.1 is a private address" in answer
