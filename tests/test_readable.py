"""Readable mode (``main_content=True``) on small hand-made pages, one per page type."""

from __future__ import annotations

import pytest
from webgrip import _core

if not hasattr(_core, "extract_document"):  # pragma: no cover - only before the binding lands
    pytest.skip("extract_document not built", allow_module_level=True)

PROSE = (
    "The committee met on Tuesday to discuss the budget for the coming year, and after a long "
    "debate it agreed to fund the new library, the park renovation and the repair of the old "
    "bridge, which had been closed since the spring floods."
)


def readable(html: str, mode: str = "text") -> str:
    out = _core.extract_document(html, modes=[mode], main_content=True)
    return out[mode]


def test_article_drops_nav_header_footer_and_cookie_banner():
    html = f"""<html><body>
    <header><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></header>
    <nav><ul><li><a href="/a">Politics</a></li><li><a href="/b">Business</a></li></ul></nav>
    <div id="cookie-consent">We use cookies to improve your experience. Accept all?</div>
    <main><article><h1>Budget approved</h1><p>{PROSE}</p><p>{PROSE}</p></article></main>
    <aside class="sidebar"><h3>Most read</h3><a href="/x">Something else entirely</a></aside>
    <footer>Copyright 2025 Example News. All rights reserved.</footer>
    </body></html>"""
    for mode in ("text", "markdown"):
        out = readable(html, mode)
        assert "committee met" in out
        for junk in ("Politics", "cookies", "Copyright", "Something else", "Sport"):
            assert junk not in out, (mode, junk, out)


def test_forum_replies_are_kept():
    reply = (
        "I had the same problem with my router last week; updating the firmware and resetting "
        "the DNS settings fixed it for me, so try that first."
    )
    replies = "".join(
        f'<div class="comment reply"><p>Reply {n}: {reply}</p></div>' for n in range(1, 5)
    )
    html = f"""<html><body><nav><a href="/">Forum index</a> <a href="/new">New posts</a></nav>
    <div class="thread"><h1>Router keeps dropping the connection</h1>
    <div class="post"><p>My router drops the connection every hour since the last update.
    Any ideas?</p></div>{replies}</div>
    <footer>Powered by forum software</footer></body></html>"""
    out = readable(html)
    assert "drops the connection every hour" in out
    assert "Reply 1:" in out and "Reply 4:" in out
    assert "Powered by" not in out
    assert "New posts" not in out


def test_article_comment_thread_is_dropped():
    html = f"""<html><body><article><h1>Title</h1>{f"<p>{PROSE}</p>" * 4}</article>
    <section id="comments" class="comments-area"><h2>3 Comments</h2>
    <div class="comment">Great article, thanks for sharing this with us all!</div></section>
    </body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "Great article" not in out


def test_product_description_from_json_ld_when_dom_is_thin():
    html = """<html><head><script type="application/ld+json">
    {"@context": "https://schema.org", "@type": "Product", "name": "Trail Pack 25",
     "description": "A light, weatherproof 25-litre pack with a padded hip belt, two side
     pockets and a hydration sleeve, made from recycled nylon."}
    </script></head><body><nav><a href="/">Shop</a> <a href="/packs">Packs</a></nav>
    <div class="product"><h1>Trail Pack 25</h1><span class="price">$99</span>
    <button>Add to cart</button></div></body></html>"""
    out = readable(html)
    assert "weatherproof 25-litre pack" in out
    assert "Trail Pack 25" in out
    assert "Add to cart" not in out


def test_docs_keep_code_blocks_and_drop_sidebar():
    html = f"""<html><body>
    <div class="sidebar"><ul><li><a href="/a">Install</a></li><li><a href="/b">Configure</a></li>
    <li><a href="/c">Deploy</a></li></ul></div>
    <div class="version-select"><a href="/v1">v1.0</a> <a href="/v2">v2.0</a></div>
    <div class="content"><h1>Configure</h1><p>{PROSE}</p>
    <pre><code>let config = Config::load("app.toml")?;
server.run(config);</code></pre><p>{PROSE}</p></div></body></html>"""
    md = readable(html, "markdown")
    assert "```" in md
    assert 'Config::load("app.toml")' in md
    assert "Deploy" not in md
    assert "v2.0" not in md


def test_listing_keeps_item_titles_and_drops_pagination():
    cards = "".join(
        f'<div class="card"><h3><a href="/p/{i}">Walking boot model {i}</a></h3>'
        f"<p>Waterproof leather upper, grippy sole, sizes 36 to 47, item {i}.</p></div>"
        for i in range(1, 9)
    )
    html = f"""<html><body><nav><a href="/">Home</a> <a href="/shoes">Shoes</a></nav>
    <div class="filters"><h4>Filter by</h4><a href="?c=red">Red</a> <a href="?c=blue">Blue</a></div>
    <div class="results">{cards}</div>
    <div class="pagination"><a href="?p=1">1</a> <a href="?p=2">2</a> <a href="?p=3">Next page</a>
    </div></body></html>"""
    out = readable(html)
    for i in (1, 8):
        assert f"Walking boot model {i}" in out
    assert "grippy sole" in out
    assert "Next page" not in out
    assert "Filter by" not in out


def test_fallback_without_clear_main_block_is_not_empty():
    html = """<html><body><div><span>Opening hours</span></div>
    <div><span>Mon-Fri 9-17</span></div><div><a href="/c">Contact</a></div></body></html>"""
    out = readable(html)
    assert "Opening hours" in out
    assert "Mon-Fri" in out


@pytest.mark.parametrize(
    "html",
    [
        "<html><body><p>Just one short line.</p></body></html>",
        "<html><body><nav><a href='/'>Only a menu</a></nav></body></html>",
        "<html><body><footer>Only a footer with some words in it</footer></body></html>",
    ],
)
def test_never_empty_for_visible_text(html):
    assert readable(html).strip()


def test_title_is_not_duplicated():
    html = f"""<html><head><title>Budget approved</title></head><body>
    <article><h1>Budget approved</h1><p>{PROSE}</p><p>{PROSE}</p></article></body></html>"""
    for mode in ("text", "markdown"):
        assert readable(html, mode).count("Budget approved") == 1


def test_metadata_is_beside_content_not_inlined():
    html = f"""<html><head><title>Budget approved</title>
    <meta name="author" content="Jane Reporter"></head><body>
    <article><p>{PROSE}</p><p>{PROSE}</p></article></body></html>"""
    out = _core.extract_document(html, modes=["text", "metadata"], main_content=True)
    assert "Budget approved" not in out["text"]
    assert "Jane Reporter" not in out["text"]
    assert out["metadata"]["title"] == "Budget approved"


def test_content_served_in_noscript_is_found():
    html = f"""<html><body><div id="app"></div><noscript><div id="main-outlet">
    <h1>Thread</h1><div class="post"><p>{PROSE}</p></div></div></noscript></body></html>"""
    assert "committee met" in readable(html)


def test_main_content_false_keeps_everything():
    html = f"""<html><body><nav><a href="/a">Politics</a></nav>
    <article><p>{PROSE}</p></article></body></html>"""
    out = _core.extract_document(html, modes=["text"], main_content=False)["text"]
    assert "Politics" in out
