"""React streaming server rendering through the public ``extract``: every view reads a
streamed segment where the page's own instruction puts it (``rust/extract/src/streamed.rs``),
not in the hidden ``<div>`` it arrived in, and the fallback it replaces is gone."""

from __future__ import annotations

from webgrip import extract

PAGE = (
    "<!DOCTYPE html><html><head><title>Plans</title></head><body><h1>Plans</h1>"
    '<!--$?--><template id="B:0"></template><p>Loading plans...</p><!--/$-->'
    '<p>Questions? <a href="/contact">Contact sales</a></p>'
    '<div hidden id="S:0"><table><tr><th>Plan</th><th>Price</th></tr>'
    "<tr><td>Basic</td><td>5</td></tr><tr><td>Pro</td><td>9</td></tr></table>"
    '<p><a href="/compare">Compare plans</a></p></div>'
    '<script>$RC("B:0","S:0")</script></body></html>'
)


def test_the_whole_page_reads_the_segment_in_place_of_the_fallback():
    for mode in ("text", "markdown"):
        out = extract(PAGE, mode=mode)
        assert "Loading plans" not in out, mode
        assert out.index("Basic") < out.index("Compare plans") < out.index("Contact sales"), mode


def test_links_and_tables_read_the_segment_in_place():
    links = extract(PAGE, url="https://ex.com/", mode="links")
    assert [link["text"] for link in links] == ["Compare plans", "Contact sales"]
    (table,) = extract(PAGE, mode="tables")
    assert table["rows"] == [{"Plan": "Basic", "Price": "5"}, {"Plan": "Pro", "Price": "9"}]


def test_a_segment_no_instruction_places_stays_hidden():
    page = PAGE.replace('$RC("B:0","S:0")', '$RC("B:1","S:0")')
    text = extract(page, mode="text")
    assert "Loading plans" in text
    assert "Basic" not in text
    assert extract(page, mode="tables") == []
