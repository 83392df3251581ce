"""Golden tests for webgrip.extract: every mode on hand-made pages covering each element."""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from helpers import pysource
from markdown_it import MarkdownIt
from webgrip import _core, extract

URL = "https://docs.example.org/guide/page"
ROOT = Path(__file__).resolve().parents[2]

GOLDEN = """<!doctype html>
<html lang="en"><head><title>Golden page | Site</title>
<base href="https://docs.example.org/guide/">
<meta name="description" content="Every element once.">
<meta property="og:site_name" content="Example Docs">
<meta name="author" content="Ada Lovelace">
<meta property="article:published_time" content="2024-03-01T09:00:00Z">
<link rel="canonical" href="/guide/golden">
<script>var SECRET = "do not show";</script><style>p{color:red}</style>
</head><body>
<nav hidden><a href="/hidden-nav">Hidden</a></nav>
<h1>Golden <em>page</em></h1>
<p>Intro with <strong>bold</strong>, <em>italic</em>, <code>x = `y`</code>, a
<a href="install">relative link</a>, a
<a href="https://other.example/abs?q=1&amp;r=2" rel="nofollow">second link</a>
and <a href="javascript:alert(1)">a script link</a>.<br>New line &amp; entity: 5 &lt; 6.</p>
<h2>Lists</h2>
<ul><li>One</li><li>Two<ol start="3"><li>Three</li><li>Four</li></ol></li></ul>
<blockquote><p>Quoted text.</p><blockquote><p>Nested quote.</p></blockquote></blockquote>
<pre><code class="language-python">def f():
    return "&lt;b&gt;"
</code></pre>
<h2>Table</h2>
<table><caption>Scores</caption><thead><tr><th>Name</th><th>Score | pts</th></tr></thead>
<tbody><tr><td>Ada</td><td>10</td></tr><tr><td colspan="2">Tied</td></tr></tbody></table>
<hr>
<p><img src="img/logo.png" alt="Logo"> <span style="display:none">invisible</span
><span aria-hidden="true">also</span></p>
<noscript>no script</noscript><template><p>tmpl</p></template>
<h3>Final</h3><p>The end. <a href="install">Install again</a></p>
</body></html>
"""

GOLDEN_MD = """# Golden *page*

Intro with **bold**, *italic*, `` x = `y` ``, \
a [relative link](https://docs.example.org/guide/install), \
a [second link](https://other.example/abs?q=1&r=2) and a script link.\x20\x20
New line & entity: 5 < 6.

## Lists

- One
- Two
  3. Three
  4. Four

> Quoted text.
>
> > Nested quote.

```python
def f():
    return "<b>"
```

## Table

Scores

| Name | Score \\| pts |
| --- | --- |
| Ada | 10 |
| Tied | Tied |

---

![Logo](https://docs.example.org/guide/img/logo.png)

### Final

The end. [Install again](https://docs.example.org/guide/install)
"""

GOLDEN_TEXT = """Golden page

Intro with bold, italic, x = `y`, a relative link, a second link and a script link.
New line & entity: 5 < 6.

Lists

- One
- Two
  3. Three
  4. Four

  Quoted text.

    Nested quote.

def f():
    return "<b>"

Table

Scores

Name | Score | pts
Ada | 10
Tied

Final

The end. Install again
"""


def test_markdown_golden():
    assert extract(GOLDEN, url=URL) == GOLDEN_MD


def test_text_golden():
    assert extract(GOLDEN, url=URL, mode="text") == GOLDEN_TEXT


def test_links_golden():
    assert extract(GOLDEN, url=URL, mode="links") == [
        {"url": "https://docs.example.org/hidden-nav", "text": "Hidden", "rel": None},
        {"url": "https://docs.example.org/guide/install", "text": "relative link", "rel": None},
        {"url": "https://other.example/abs?q=1&r=2", "text": "second link", "rel": "nofollow"},
    ]


def test_tables_golden():
    assert extract(GOLDEN, url=URL, mode="tables") == [
        {
            "caption": "Scores",
            "headers": ["Name", "Score | pts"],
            "rows": [{"Name": "Ada", "Score | pts": "10"}, {"Name": "Tied", "Score | pts": "Tied"}],
            "markdown": "| Name | Score \\| pts |\n| --- | --- |\n| Ada | 10 |\n| Tied | Tied |\n",
        }
    ]


def test_metadata_golden():
    assert extract(GOLDEN, url=URL, mode="metadata") == {
        "title": "Golden page | Site",
        "description": "Every element once.",
        "canonical_url": "https://docs.example.org/guide/golden",
        "language": "en",
        "author": "Ada Lovelace",
        "published": "2024-03-01T09:00:00Z",
        "site_name": "Example Docs",
    }


TABLES_PAGE = """<table><tr><th>Name</th><th></th><th>Name</th></tr>
<tr><td rowspan="2">a</td><td>b</td><td>c</td></tr><tr><td>d</td><td>e</td></tr></table>
<table><tr><td>only one row</td><td>x</td></tr></table>
<table role="presentation"><tr><td>l</td><td>m</td></tr><tr><td>n</td><td>o</td></tr></table>"""


def test_tables_spans_and_unique_headers():
    (table,) = extract(TABLES_PAGE, mode="tables")
    assert table["caption"] is None
    assert table["headers"] == ["Name", "col_2", "Name_2"]
    assert table["rows"] == [
        {"Name": "a", "col_2": "b", "Name_2": "c"},
        {"Name": "a", "col_2": "d", "Name_2": "e"},
    ]


def test_json_ld_metadata_and_og_title():
    page = """<head><title>Long title - Site</title><meta property="og:title" content="Short">
    <script type="application/ld+json">[{"@type":"Article","datePublished":"2022-01-02",
    "author":{"@type":"Person","name":"Grace"},"publisher":{"name":"Pub"}}]</script></head>"""
    meta = extract(page, mode="metadata")
    assert meta["title"] == "Short"
    assert meta["author"] == "Grace"
    assert meta["published"] == "2022-01-02"
    assert meta["site_name"] == "Pub"


def test_extract_document_builds_the_views_asked_for_from_one_call():
    all_views = ("markdown", "text", "links", "tables", "metadata")
    doc = _core.extract_document(GOLDEN, url=URL, modes=all_views)
    assert set(doc) == set(all_views)
    assert doc["markdown"] == GOLDEN_MD and doc["text"] == GOLDEN_TEXT
    assert doc["metadata"] == extract(GOLDEN, url=URL, mode="metadata")
    assert set(_core.extract_document(GOLDEN, modes=("text",))) == {"text"}
    assert _core.extract_document(GOLDEN, modes=()) == {}


def test_bytes_are_decoded():
    latin1 = "<p>Le café est très bon, déjà servi à la française.</p>".encode("latin-1")
    assert extract(latin1, mode="text") == "Le café est très bon, déjà servi à la française.\n"
    sjis = b'<meta charset="shift_jis"><p>' + "日本語のテキスト".encode("shift_jis")
    assert extract(sjis, mode="text") == "日本語のテキスト\n"


def test_decode_body():
    assert _core.decode_body(b"caf\xe9", "text/html; charset=ISO-8859-1") == (
        "café",
        "windows-1252",
    )
    text, enc = _core.decode_body(b"ok \xff\xfe end", "text/html; charset=utf-8")
    assert enc == "UTF-8" and "\ufffd" in text
    assert _core.decode_body(b"\xef\xbb\xbfhi") == ("hi", "UTF-8")


def test_bad_mode_and_type():
    with pytest.raises(ValueError, match="unknown mode 'html'"):
        extract("<p>x</p>", mode="html")
    with pytest.raises(TypeError):
        extract(42)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        _core.extract_document("<p>x</p>", modes=("markdown", "pdf"))


def test_main_content_flag_accepted():
    out = extract("<main><p>Body text here.</p></main>", main_content=True, mode="text")
    assert "Body text here." in out


# --- Markdown round trip: a Markdown parser must see what the page meant ---------------

EXTRA_PAGES = [
    GOLDEN,
    TABLES_PAGE,
    """<h2>API <code>get()</code></h2><p>See <a href="/a_(b)">paren link</a> and
    <a href="/x y">spaced</a>; literal *stars*, [brackets](x) and # hash.</p>
    <h4>Table two</h4><table><thead><tr><th>k</th><th>v</th></tr></thead>
    <tr><td><a href="/k">key</a></td><td>a|b</td></tr>
    <tr><td>2</td><td>line<br>break</td></tr></table>""",
]


def _markdown_facts(md: str):
    """Headings, link hrefs and tables (header cells, body rows) as markdown-it sees them."""
    tokens = MarkdownIt("commonmark").enable("table").parse(md)
    headings, hrefs, tables = [], [], []
    row: list[str] = []
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open":
            headings.append(_inline_text(tokens[i + 1]))
        elif tok.type == "table_open":
            tables.append(([], []))
        elif tok.type == "tr_open":
            row = []
        elif tok.type in ("th_open", "td_open"):
            row.append(_inline_text(tokens[i + 1]))
        elif tok.type == "tr_close":
            header, body = tables[-1]
            if not header and not body:
                header.extend(row)
            else:
                body.append(row)
        if tok.type == "inline":
            for child in tok.children or []:
                if child.type == "link_open":
                    hrefs.append(child.attrGet("href"))
    return headings, hrefs, tables


def _inline_text(tok) -> str:
    parts = []
    for c in tok.children or []:
        if c.type in ("text", "code_inline"):
            parts.append(c.content)
        elif c.type in ("softbreak", "hardbreak") or (
            c.type == "html_inline" and c.content.lower().startswith("<br")
        ):
            parts.append(" ")
    return " ".join("".join(parts).split())


class _HeadingCollector(HTMLParser):
    """The text of every h1-h6, with the standard library only (bs4 is a bench extra)."""

    _TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.headings: list[str] = []
        self._parts: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag in self._TAGS and self._parts is None:
            self._parts = []

    def handle_endtag(self, tag):
        if tag in self._TAGS and self._parts is not None:
            self.headings.append(" ".join(" ".join(self._parts).split()))
            self._parts = None

    def handle_data(self, data):
        if self._parts is not None:
            self._parts.append(data)


def _html_headings(html: str) -> list[str]:
    collector = _HeadingCollector()
    collector.feed(html)
    collector.close()
    return collector.headings


@pytest.mark.parametrize("page", EXTRA_PAGES)
def test_markdown_reparses_to_same_structure(page):
    md = extract(page, url=URL)
    headings, hrefs, tables = _markdown_facts(md)
    assert headings == _html_headings(page)
    # Every rendered link is an absolute URL the links view also found, in the same order.
    links = [link["url"] for link in extract(page, url=URL, mode="links")]
    assert all(h.startswith("https://") for h in hrefs)
    assert list(dict.fromkeys(hrefs)) == [u for u in links if u in set(hrefs)]
    # Tables: same width and the same body cells as the tables view.
    expected = extract(page, url=URL, mode="tables")
    assert len(tables) == len(expected)
    for (header, body), table in zip(tables, expected, strict=True):
        assert len(header) == len(table["headers"])
        assert body == [list(r.values()) for r in table["rows"]]


def test_markdown_round_trip_details():
    md = extract(EXTRA_PAGES[2], url=URL)
    headings, hrefs, tables = _markdown_facts(md)
    assert headings == ["API get()", "Table two"]
    assert hrefs == [
        "https://docs.example.org/a_(b)",
        "https://docs.example.org/x%20y",
        "https://docs.example.org/k",
    ]
    assert tables == [(["k", "v"], [["key", "a|b"], ["2", "line break"]])]
    assert "*stars*" not in md.replace("\\*", "")


# -- the suite's own dependencies ------------------------------------------------------------
# `pip install '.[test]' && python -m pytest` must pass on a clean machine: every package a
# test imports must come with the `test` extra (or what it depends on), unless the test skips
# itself without it (`pytest.importorskip`). bs4, trafilatura, requests... are bench extras.


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _test_extra_closure() -> set[str]:
    """Canonical names of the distributions ``pip install '.[test]'`` installs."""
    import importlib.metadata as md

    from packaging.requirements import Requirement

    tomllib = pytest.importorskip("tomllib" if sys.version_info >= (3, 11) else "tomli")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    todo = [(Requirement(r), ("",)) for r in project["dependencies"]]
    todo += [(Requirement(r), ("",)) for r in project["optional-dependencies"]["test"]]
    seen: set[str] = set()
    while todo:
        req, extras = todo.pop()
        if req.marker is not None and not any(req.marker.evaluate({"extra": e}) for e in extras):
            continue
        name = _canonical(req.name)
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = md.distribution(req.name).requires or []
        except md.PackageNotFoundError:
            continue
        todo += [(Requirement(r), ("", *req.extras)) for r in requires]
    return seen


def _imports_outside_test_extra() -> list[str]:
    import ast
    import importlib.metadata as md

    closure = _test_extra_closure()
    provided = {
        module
        for module, dists in md.packages_distributions().items()
        if any(_canonical(d) in closure for d in dists)
    }
    tests = ROOT / "tests"
    packages = {p.parent.name for p in tests.rglob("__init__.py")}  # tests/helpers
    local = {p.stem for p in tests.rglob("*.py")} | packages | {"webgrip", "__future__"}
    bad = []
    fixtures = tests / "fixtures"
    for path in sorted(tests.rglob("*.py")):
        if fixtures in path.parents:
            # Fixture generators (run by hand, their requirements in their headers), not tests.
            continue
        tree = pysource.parse(path.read_text("utf-8"), filename=str(path))
        skipped = {
            node.args[0].value.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and getattr(node.func, "attr", "") == "importorskip"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for top in {n.split(".")[0] for n in names}:
                if top in sys.stdlib_module_names or top in local or top in skipped:
                    continue
                if top not in provided:
                    bad.append(f"{path.name}: {top}")
    return sorted(set(bad))


def test_tests_import_only_what_the_test_extra_installs():
    assert _imports_outside_test_extra() == []


def test_short_selection_gives_way_to_the_whole_page_on_one_parse():
    # A real shop page (tests/fixtures/extract/README.md) whose text selection is under
    # MIN_MAIN_CONTENT_CHARS while the whole page says far more: the core returns the whole
    # page, flagged, from the same parse; its Markdown selection is long enough and stays.
    import gzip
    from pathlib import Path

    page = Path(__file__).resolve().parents[1] / "fixtures/extract/shop-short-selection.html.gz"
    html = gzip.decompress(page.read_bytes())
    doc = _core.extract_document(html, modes=("text",), main_content=True)
    whole = _core.extract_document(html, modes=("text",))
    assert doc["main_content"] is False and doc["text"] == whole["text"]
    assert "main_content" not in whole
    md = _core.extract_document(html, modes=("markdown",), main_content=True)
    assert md["main_content"] is True
    assert len(md["markdown"].strip()) >= _core.MIN_MAIN_CONTENT_CHARS
    assert len(md["markdown"]) < len(_core.extract_document(html)["markdown"])
