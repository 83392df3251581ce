"""Readable mode (``main_content=True``) on small hand-made pages, one per page type."""

from __future__ import annotations

import pytest
from webgrip import _core

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


# --------------------------------------------------------------------------- tuning (issue 4)


def test_screen_reader_captions_are_content():
    # Screen-reader text ("4.5 out of 5 stars") is what the accessibility tree reads out; it
    # describes the item and belongs to it.
    cards = "".join(
        f'<li class="tile"><h3>Climbing shoe {i}</h3><p>Neutral last, slip-lasted, sizes 36-47.</p>'
        f'<span class="sr-only">Rated {i} out of 5 stars by 12 reviewers</span></li>'
        for i in range(1, 6)
    )
    html = f"""<html><body><nav><a href="/">Home</a> <a href="/c">Climbing</a></nav>
    <main><h1>Climbing shoes</h1><ul class="results">{cards}</ul></main></body></html>"""
    out = readable(html)
    assert "Climbing shoe 5" in out
    assert "Rated 3 out of 5 stars" in out


def test_product_page_drops_customer_reviews():
    review = (
        "I bought this pack for a week in the hills and it was comfortable all the way; the hip "
        "belt is great, though the side pockets are a little small for big bottles."
    )
    reviews = "".join(
        f'<div class="review-card"><p>Review {n}: {review}</p></div>' for n in range(4)
    )
    page = """<html><head>{meta}</head><body><nav><a href="/">Shop</a></nav><main>
    <div class="product-info"><h1>Trail Pack 25</h1><p>$99</p>
    <p>A light, weatherproof 25-litre pack with a padded hip belt, two side pockets and a
    hydration sleeve, made from recycled nylon. Fits torsos from 40 to 52 cm.</p></div>
    <section id="customer-reviews"><h2>What customers say</h2>{reviews}</section></main>
    </body></html>"""
    product = readable(
        page.format(meta='<meta property="og:type" content="product">', reviews=reviews)
    )
    assert "weatherproof 25-litre pack" in product
    assert "Review 2:" not in product
    # The same layout on a page that is not a product page keeps them.
    other = readable(page.format(meta="", reviews=reviews))
    assert "Review 2:" in other


def test_product_reviews_kept_when_page_is_an_article():
    # A buying guide declares itself an article; its Product JSON-LD does not make it a shop,
    # and its per-product review sections are the article.
    sections = "".join(
        f'<section class="product-review"><h2>Pack {n}</h2><p>Pack {n}: {PROSE}</p></section>'
        for n in range(1, 4)
    )
    html = f"""<html><head><meta property="og:type" content="article">
    <script type="application/ld+json">{{"@type":"Product","name":"Pack"}}</script></head>
    <body><main><h1>The best packs</h1><p>{PROSE}</p><p>{PROSE}</p>{sections}</main>
    </body></html>"""
    out = readable(html)
    assert "Pack 1: The committee" in out
    assert "Pack 3: The committee" in out


def test_compound_hidden_and_search_classes_are_not_chrome():
    # "overflow-hidden" is a layout utility and "search-results" the content of a results page;
    # a bare "hidden" class, or a utility variant hiding it on desktop, is hidden.
    items = "".join(
        f'<div class="overflow-hidden rounded"><h3>Result {i}</h3>'
        f"<p>Short summary of result {i}, about the budget.</p></div>"
        for i in range(1, 6)
    )
    html = f"""<html><body><main><h1>Results</h1><div class="search-results">{items}</div>
    <div class="hidden">Mobile menu copy that is never shown on screen at all.</div>
    <div class="md:hidden">Another mobile-only block that a desktop never shows.</div>
    </main></body></html>"""
    out = readable(html)
    assert "Result 1" in out and "Result 5" in out
    assert "Mobile menu copy" not in out
    assert "mobile-only block" not in out


def test_consent_dialog_is_chrome_even_when_it_is_most_of_the_text():
    legal = " ".join(
        f"These cookies are set by partner {n} to measure traffic and personalise advertising, "
        "and you may withdraw your consent at any time from the preferences centre."
        for n in range(3)
    )
    html = f"""<html><body>
    <div id="consent-sdk"><div role="dialog"><h3>Manage Consent Preferences</h3>
    <p>{legal}</p></div></div>
    <div class="topic"><h1>Router keeps dropping</h1><div class="post"><p>My router drops the
    connection every hour since the last update. Any ideas what to check first? I have already
    reset it twice and replaced the cable, and the lights look normal when it drops.</p></div></div>
    </body></html>"""
    out = readable(html)
    assert "drops the" in out
    assert "Manage Consent" not in out
    assert "partner 2" not in out


def test_tab_widget_panels_are_content():
    panel = (
        "The building department reviews permits for new homes, additions and decks, and "
        "inspects the work at each stage of construction."
    )
    html = f"""<html><body><nav><a href="/">Town</a> <a href="/gov">Government</a></nav>
    <main><h1>Building Department</h1><p>{PROSE}</p><p>{PROSE}</p>
    <div class="widget tabs" role="tablist">
    <div class="panel"><h2>Permits</h2><p>{panel}</p><p><a href="/f1">Permit form</a></p></div>
    <div class="panel"><h2>Inspections</h2><p>Inspections: {panel}</p></div></div></main>
    </body></html>"""
    out = readable(html)
    assert "reviews permits for new homes" in out
    assert "Inspections:" in out


def test_landing_page_keeps_sibling_blocks_of_short_lines():
    # On a page that is not an article, feature blurbs and a spec list beside the biggest
    # block are more of the same content, not furniture.
    feats = "".join(f"<li>Feature {i}: keeps drinks cold for a whole day</li>" for i in range(9))
    specs = "".join(f"<li>Spec {i}: stainless steel</li>" for i in range(3))
    html = f"""<html><body><nav><a href="/">Shop</a></nav><main><div class="wrap">
    <div class="features"><ul>{feats}</ul></div><div class="specs"><ul>{specs}</ul></div>
    </div></main></body></html>"""
    out = readable(html)
    assert "Feature 8" in out
    assert "Spec 2" in out


def test_card_headers_keep_item_titles():
    # A "header" class inside a card names the card's title row, not the site header.
    cards = "".join(
        f'<li class="item-card"><div class="item-card__header"><h3><a href="/i/{i}">'
        f'Vintage art print number {i}</a></h3></div><div class="item-card__body">'
        f"<span>$1{i}.95</span> <span>Free shipping</span></div></li>"
        for i in range(1, 7)
    )
    html = f"""<html><body><header class="site-header"><a href="/">Home</a>
    <a href="/deals">Deals</a></header><main><h1>Art prints</h1><ul class="results">{cards}</ul>
    </main></body></html>"""
    out = readable(html)
    assert "Vintage art print number 1" in out
    assert "Vintage art print number 6" in out
    assert "Deals" not in out


def test_heading_mentioning_a_boilerplate_word_is_content():
    html = f"""<html><body><article><h1>Who reads your newsletter?</h1>{f"<p>{PROSE}</p>" * 3}
    <h2>What this means for newsletter writers</h2><p>Writers should expect AI readers. {PROSE}</p>
    <h2>Related articles</h2><ul><li><a href="/a">Another story about budgets</a></li>
    <li><a href="/b">Yet another story</a></li></ul></article></body></html>"""
    out = readable(html)
    assert "Writers should expect AI readers" in out
    assert "Another story about budgets" not in out


def test_store_page_without_product_markup_drops_reviews():
    # No og:type or JSON-LD, but a price: a shop page, whose customer reviews are not content.
    review = (
        "Great earbuds, the sound is clear with strong bass and the noise cancellation blocks "
        "most of the background noise on my commute; battery life is solid too."
    )
    reviews = "".join(f'<li class="review"><p>Review {n}: {review}</p></li>' for n in range(4))
    html = f"""<html><body><main><div id="centerCol"><h1>Wireless earbuds, 50h playtime</h1>
    <span class="a-price">$29.99</span><ul><li>Deep bass with 12 mm drivers</li>
    <li>50 hours of playtime with the charging case</li><li>IPX7 waterproof for workouts</li>
    <li>Touch controls and a built-in microphone for calls</li></ul></div>
    <div class="reviews-section"><h2>Top reviews</h2><ul>{reviews}</ul></div></main>
    </body></html>"""
    out = readable(html)
    assert "50 hours of playtime" in out
    assert "Review 1:" not in out


def test_listing_of_link_teasers_keeps_its_items():
    # Every item is a link (title and summary inside the anchor): link density alone does not
    # make a listing's items a menu, while its pagination still goes.
    items = "".join(
        f'<div class="teaser-{i % 3}"><a href="/story/{i}"><span>Story {i}: budget '
        f"approved</span><p>Summary {i} of the long debate over the new library, the park "
        f"renovation and the repair of the old bridge closed since the floods.</p></a></div>"
        for i in range(1, 9)
    )
    html = f"""<html><body><nav><a href="/">Home</a> <a href="/news">News</a></nav>
    <main><h1>Local news</h1><div class="stream">{items}</div>
    <div class="pagination"><a href="?p=2">Next page</a></div></main></body></html>"""
    out = readable(html)
    assert "Story 1:" in out and "Story 8:" in out
    assert "Summary 5 of the long debate" in out
    assert "Next page" not in out


def test_declared_article_keeps_long_comment_thread_out():
    comment = (
        "Great write-up, thanks. I disagree about the bridge though: the repairs were delayed "
        "for years and the council should have acted long before the spring floods."
    )
    thread = "".join(f'<div class="comment"><p>Comment {n}: {comment}</p></div>' for n in range(8))
    html = f"""<html><head><meta property="og:type" content="article"></head><body>
    <article><h1>Budget approved</h1><p>{PROSE}</p><p>{PROSE}</p></article>
    <section class="comments">{thread}</section></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "Comment 3:" not in out


def test_collapsed_faq_answers_are_content():
    faq = "".join(
        f'<div class="faq-item"><h3>Question {n}?</h3><div class="faq-answer" style="display:none">'
        f"<p>Answer {n}: the permit office is open on weekdays and inspections are booked "
        f"online two days ahead.</p></div></div>"
        for n in range(1, 5)
    )
    html = f"""<html><body><nav><a href="/">Town</a></nav><main><h1>Building permits</h1>
    <p>{PROSE}</p><div class="faq">{faq}</div>
    <div class="menu-panel" style="display:none"><a href="/x">Hidden menu entry</a></div>
    </main></body></html>"""
    for mode in ("text", "markdown"):
        out = readable(html, mode)
        assert "Answer 1: the permit office" in out, (mode, out)
        assert "Answer 4:" in out, (mode, out)
        assert "Hidden menu entry" not in out


def test_inactive_tab_panels_are_content():
    html = f"""<html><body><main><h1>Trail Pack 25</h1><p>{PROSE}</p>
    <div role="tablist"><button>Details</button><button>Care</button></div>
    <div role="tabpanel"><p>Details: recycled nylon, 25 litres, padded hip belt.</p></div>
    <div role="tabpanel" hidden><p>Care: hand wash cold, dry in the shade, never bleach.</p></div>
    </main></body></html>"""
    out = readable(html)
    assert "Details: recycled nylon" in out
    assert "Care: hand wash cold" in out


def test_fallback_drops_skip_links():
    # Nothing but link lists on a page calling itself an article: the selection falls back to
    # the whole body, which still leaves out a skip link.
    blocks = "".join(
        f'<div class="{name}">'
        + " ".join(
            f'<a href="/{name}/{i}">{name.title()} destination number {i}</a>' for i in range(9)
        )
        + "</div>"
        for name in ("alpha", "bravo", "charlie", "delta", "echo")
    )
    html = f"""<html><head><meta property="og:type" content="article"></head><body>
    <a class="skip-link" href="#main">Skip to main content</a>{blocks}</body></html>"""
    out = readable(html)
    assert "Alpha destination number 1" in out
    assert "Echo destination number 5" in out
    assert "Skip to main content" not in out


def test_cross_sell_sections_are_dropped():
    recent = "".join(
        f'<li><a href="/p/{i}">Another pack model {i}</a><p>A roomy pack with many pockets '
        f"for long trips and a rain cover, model {i}.</p></li>"
        for i in range(4)
    )
    html = f"""<html><body><main><div class="pdp"><h1>Trail Pack 25</h1>
    <p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p>
    <h2>Recently viewed</h2><ul class="grid">{recent}</ul></div></main></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "Another pack model 3" not in out


def test_article_body_split_by_ads_is_kept_whole():
    # The article body comes in chunks with ad rails between them; every chunk is the article.
    first = f"<p>Opening chunk: {PROSE}</p>"
    rest = "".join(f"<p>Later chunk {n}: {PROSE}</p>" for n in range(6))
    html = f"""<html><body><nav><a href="/">Home</a></nav><main><article>
    <div class="grid"><div class="article__body">{first}</div>
    <div class="ad-rail"><a href="/ad">Advertisement</a></div></div>
    <div class="grid"><div class="article__body">{rest}</div>
    <div class="ad-rail"><a href="/ad">Advertisement</a></div></div>
    </article></main></body></html>"""
    out = readable(html)
    assert "Opening chunk:" in out
    assert "Later chunk 5:" in out
    assert "Advertisement" not in out


def test_embedded_social_posts_are_content():
    html = f"""<html><body><article><h1>Campaign backfires</h1><p>{PROSE}</p>
    <div class="social-media-embed"><blockquote class="twitter-tweet"><p>Yes this is real and
    the state spent half a million dollars on it.</p>&mdash; A reader (@reader)</blockquote></div>
    <p>{PROSE}</p><div class="social-share"><a href="/s">Share on X</a>
    <a href="/f">Share on Facebook</a></div></article></body></html>"""
    out = readable(html)
    assert "Yes this is real" in out
    assert "Share on Facebook" not in out


def test_paragraph_label_before_teaser_links_is_dropped():
    html = f"""<html><body><article><h1>Band reunites</h1><p>{PROSE}</p><p>{PROSE}</p>
    <p>You may also like...</p><p><a href="/a">Who will make the Hall of Fame this year</a></p>
    <p><a href="/b">Fans vote for their favourite band</a></p>
    <p>Tickets go on sale Friday at the box office and online.</p></article></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "Tickets go on sale Friday" in out
    assert "Who will make the Hall of Fame" not in out
    assert "You may also like" not in out


def test_footer_of_names_is_chrome_even_when_it_is_most_of_the_text():
    cities = " ".join(f"Springfield{n} Riverside{n} Fairview{n} Georgetown{n}" for n in range(12))
    html = f"""<html><body><main><h1>Treadmill rentals</h1><p>{PROSE}</p></main>
    <footer><p>We serve the following cities:</p><div class="zipcodes">{cities}</div></footer>
    </body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "Riverside7" not in out


def test_figure_captions_are_left_out():
    # Annotated main content leaves photo captions and credits out (WCXB dev set: 859
    # captions out of the ground truth, 111 in).
    html = f"""<html><body><article><h1>Budget approved</h1><p>{PROSE}</p>
    <figure><img src="a.jpg" alt=""><figcaption>The old bridge seen from the river bank,
    photographed by a staff reporter</figcaption></figure><p>{PROSE}</p></article></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "river bank" not in out, out


def test_caption_classes_are_chrome_on_declared_articles_only():
    caption = '<p class="wp-caption-text">The old bridge seen from the river bank at dusk</p>'
    body = f"<h1>Budget approved</h1><p>{PROSE}</p>{caption}<p>{PROSE}</p>"
    article = f"""<html><head><meta property="og:type" content="article"></head>
    <body><article>{body}</article></body></html>"""
    other = f"<html><body><article>{body}</article></body></html>"
    assert "river bank" not in readable(article)
    # Elsewhere (shops, listings) a "caption" is often an item's own text.
    assert "river bank" in readable(other)


def _story_cards(prefix: str) -> str:
    return "".join(
        f'<div class="card"><h3><a href="{prefix}/story-{n}">Another story number {n} '
        f"about the town</a></h3><p>A short excerpt of story {n} to tempt the reader into "
        "clicking through to it.</p></div>"
        for n in range(1, 5)
    )


def test_related_story_cards_after_an_article_are_dropped():
    head = '<html><head><meta property="og:type" content="article"></head><body>'
    # Paragraphs straight in the wrapper: the root is the wrapper, cards included.
    body = f"<h1>Budget approved</h1>{f'<p>{PROSE}</p>' * 10}"

    def page(prefix: str) -> str:
        cards = f'<div class="more">{_story_cards(prefix)}</div>'
        return f"{head}<div class='wrap'>{body}{cards}</div></body></html>"

    out = _core.extract_document(
        page("https://news.example.com"),
        url="https://www.news.example.com/budget",
        modes=["text"],
        main_content=True,
    )["text"]
    assert "committee met" in out
    assert "Another story" not in out, out
    # The same cards linking to another site are a roundup's items, kept.
    out = _core.extract_document(
        page("https://shop.example.org"),
        url="https://www.news.example.com/budget",
        modes=["text"],
        main_content=True,
    )["text"]
    assert "Another story" in out, out


def test_script_rendered_shell_reports_its_own_description():
    # A forum or shop front-end saved without running its scripts: the body shows nothing,
    # but the markup still says what the page holds. That beats an empty answer.
    about = "I'm new to astronomy and would love advice on a first telescope."
    html = f"""<html><head><title>Best first telescope?</title>
    <meta name="description" content="{about}">
    </head><body><section id="main"></section>
    <form style="display:none"><input name="user"></form></body></html>"""
    for mode in ("text", "markdown"):
        out = readable(html, mode)
        assert "new to astronomy" in out, (mode, out)
    # JSON-LD main text wins over the short meta description.
    body = "The thread opens with a question about refractors. " * 4
    ld = f'{{"@type": "DiscussionForumPosting", "articleBody": "{body}"}}'
    with_ld = html.replace(
        "</head>", f'<script type="application/ld+json">{ld}</script></head>'
    )
    assert "question about refractors" in readable(with_ld)
    # A shell with a line of furniture where the posts would render: the same.
    furniture = html.replace(
        '<section id="main"></section>', '<header><a href="/">Stargazers</a> Donate</header>'
    )
    assert "new to astronomy" in readable(furniture)
    # A page with visible text is not given its description on top.
    shown = html.replace('<section id="main"></section>', f"<main><p>{PROSE}</p></main>")
    assert "new to astronomy" not in readable(shown)


def test_boilerplate_heading_section_ends_at_a_nested_peer_heading():
    # "Recommended courses" labels the boxes after it, each opening with the course's own
    # higher-ranked heading: those headings start sections of their own, which stay.
    box = (
        '<div class="box"><h3><a href="/c{n}">Course {n}</a></h3><p>{prose}</p>'
        "<ul><li>Typography fundamentals {n}</li><li>Layout design {n}</li></ul></div>"
    )
    boxes = "".join(box.format(n=n, prose=PROSE) for n in range(3))
    intro = f"<p>{PROSE}</p>" * 4
    html = f"""<html><body><main><article><h1>Design courses</h1>{intro}
    <h2>The school</h2>{intro}<h5>Recommended courses:</h5>{boxes}
    <h2>Related posts</h2><ul><li><a href="/x">Another story</a></li>
    <li><a href="/y">Yet another story</a></li></ul>
    </article></main></body></html>"""
    out = readable(html)
    for n in range(3):
        assert f"Layout design {n}" in out, out
    assert "Another story" not in out


def test_table_cells_of_links_are_not_pruned():
    # A column of linked names is link-dense cell by cell; dropping those cells would shift
    # every later column left under the wrong header.
    rows = "".join(
        f'<tr><td><a href="/quote/{t}">{t.upper()} Corp</a></td><td>${n}.5 billion</td>'
        f"<td>Software</td></tr>"
        for n, t in enumerate(("abc", "def", "ghi", "jkl"), start=10)
    )
    html = f"""<html><body><main><article><h1>Cloud stocks</h1><p>{PROSE}</p>
    <table><tr><th>Name</th><th>Market cap</th><th>Industry</th></tr>{rows}</table>
    <p>{PROSE}</p></article></main></body></html>"""
    out = readable(html, "markdown")
    assert "| [ABC Corp](/quote/abc) | $10.5 billion | Software |" in out, out


def test_popover_elements_are_hidden():
    # `popover` elements stay hidden until opened: app-install prompts, notification help.
    steps = "".join(f"<li>Tap the share icon and choose option number {n}.</li>" for n in range(9))
    html = f"""<html><body><div class="thread"><h1>Roadmap question</h1><p>{PROSE}</p>
    <div popover id="install"><p>Install this app on your home screen.</p><ol>{steps}</ol></div>
    <p>{PROSE}</p></div></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "home screen" not in out and "option number" not in out, out


def test_post_text_inside_an_edit_form_is_kept():
    # Comment software wraps each comment's text in a form (for in-place editing) that has
    # no control a reader sees; a search form stays chrome.
    comments = "".join(
        f"""<div class="thing"><p class="tagline">user{n} 5 points</p>
        <form class="usertext" action="#"><input type="hidden" name="thing_id" value="t{n}">
        <div class="md"><p>Comment {n}: I think the study is promising, but it was done in mice
        and human trials are still years away.</p></div></form></div>"""
        for n in range(1, 5)
    )
    html = f"""<html><body><form role="search"><input name="q"> Search this site</form>
    <div class="content"><h1>Hair follicles grown in the lab</h1>{comments}</div></body></html>"""
    out = readable(html)
    assert "Comment 1:" in out and "Comment 4:" in out, out
    assert "Search this site" not in out


def test_widen_reaches_post_rows_above_the_post_body():
    # The opening post's body (a main-content hint) sits four wrappers below its post row;
    # the replies are rows of the same kind.
    def row(n: int, hint: str) -> str:
        return f"""<div class="post postrow"><div class="postprofile">user{n}</div>
        <div class="postbody"><div class="post_content"><div class="pb2">
        <div class="content" {hint}><p>Post {n}: {PROSE}</p></div></div></div></div></div>"""

    rows = row(1, 'itemprop="articleBody"').replace(PROSE, PROSE * 3)
    rows += "".join(row(n, "") for n in range(2, 6))
    html = f"""<html><body><nav><a href="/">Forums</a> <a href="/new">New</a></nav>
    <div class="topic">{rows}</div></body></html>"""
    out = readable(html)
    assert "Post 1:" in out and "Post 5:" in out, out


def test_answer_form_with_instructions_is_chrome():
    # A big form with a box to write in (answer, comment, contact) is furniture, however
    # long its instructions.
    rules = " ".join(
        f"Rule {n}: please be sure to answer the question and provide details." for n in range(12)
    )
    html = f"""<html><body><div class="question"><h1>How does residential power work?</h1>
    {f"<p>{PROSE}</p>" * 5}</div>
    <form class="post-form" action="/answer"><h2>Your answer</h2><p>{rules}</p>
    <textarea name="body"></textarea><button>Post your answer</button></form></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "Rule 3:" not in out, out


def test_short_story_under_a_long_comment_thread_is_not_a_fallback():
    # The thread is left out (not a forum): it must not make the story look implausibly
    # small and trigger the whole-page fallback.
    comment = "<li class='comment'><p>Flipping burgers, probably, like everybody else.</p></li>"
    html = f"""<html><head><meta property="og:type" content="article"></head><body>
    <nav><a href="/">Home</a></nav>
    <article><h1>Computer science grads struggle</h1><p>{PROSE}</p><p>{PROSE}</p></article>
    <ul id="comments">{comment * 150}</ul></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "Flipping burgers" not in out, out


def test_declared_discussion_keeps_a_thread_under_a_long_opening_post():
    answer = (
        "<div class='comment'><p>Answer {n}: consulting is worth it if you accept long hours; "
        "the exit options and the learning curve make up for it, in my experience.</p></div>"
    )
    answers = "".join(answer.format(n=n) for n in range(1, 27))
    html = f"""<html><head><script type="application/ld+json">
    {{"@context":"https://schema.org","@type":"QAPage","mainEntity":{{"@type":"Question"}}}}
    </script></head><body><div class="question"><h1>Is consulting worth it?</h1>
    {f"<p>{PROSE}</p>" * 9}</div><div class="comments">{answers}</div></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "Answer 1:" in out and "Answer 26:" in out, out


def test_root_is_kept_when_the_fallback_would_add_little_but_furniture():
    # A huge menu makes the article look tiny beside the page, but the whole-page fallback
    # would only add a promo box to it: the article is the content.
    menu = " ".join(f'<a href="/c/{i}">Department number {i} and more</a>' for i in range(150))
    html = f"""<html><body><nav>{menu}</nav><nav class="mobile">{menu}</nav>
    <main><h1>Budget approved</h1><p>{PROSE}</p><p>{PROSE}</p></main>
    <div class="promo-box"><p>Save twenty percent on your first order with the code WELCOME,
    valid until the end of the month on all items in the store.</p></div></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "Save twenty percent" not in out
    assert "Department number" not in out


def test_product_page_keeps_its_description_beside_a_mega_menu():
    # A shop's mega-menu (classed, not a nav element) dwarfs the product's description; a
    # declared product page still keeps the description rather than falling back to the page.
    menu = "".join(
        f'<li><a href="/c/{i}">Category number {i} of the store</a></li>' for i in range(150)
    )
    html = f"""<html><head><meta property="og:type" content="product"></head><body>
    <div class="mega-menu"><ul>{menu}</ul></div><div class="mega-menu"><ul>{menu}</ul></div>
    <main><h1>Wool runner</h1><p>{PROSE}</p></main>
    <footer>Shipping, returns and contact</footer></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "Category number 7" not in out


def test_shop_platform_product_body_class_makes_a_product_page():
    # WordPress SEO plugins declare every page og:type article, WooCommerce products included;
    # the platform's `single-product` body class says it is a product page (reviews out).
    review = (
        "Comfortable straps and plenty of room for a week in the mountains; the rain cover "
        "kept everything dry during two days of storms, highly recommended to everyone."
    )
    html = f"""<html><head><meta property="og:type" content="article"></head>
    <body class="single-product woocommerce"><main><h1>Trekking backpack 65 l</h1>
    <p>{PROSE}</p><p>{PROSE}</p>
    <div class="reviews"><h2>Reviews</h2><p>Review one: {review}</p><p>Review two: {review}</p>
    </div></main></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "Review one" not in out


def test_sidebar_of_a_product_page_stays_chrome():
    # On a shop page a sidebar holds store widgets (review feeds, promos), even when it is a
    # good share of the page's text.
    quote = (
        "An amazing place to rent gear, they have just about everything you could need for "
        "an outdoor trip at great prices, and the staff were friendly."
    )
    html = f"""<html><head><meta property="og:type" content="product"></head><body>
    <div id="content-area"><div class="product"><h1>Backpack rental</h1><p>{PROSE}</p>
    <p>{PROSE}</p></div>
    <div id="sidebar"><h3>Google reviews</h3><p>Tyler: {quote}</p><p>Eric: {quote}</p></div>
    </div></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "Tyler:" not in out


def test_customer_review_in_product_json_ld_is_not_the_supplement():
    review = " ".join(["This mic is just what I needed for my podcast studio."] * 6)
    html = f"""<html><head><script type="application/ld+json">
    {{"@type":"Product","name":"Microphone","review":[{{"@type":"Review",
    "reviewBody":"{review}"}}]}}</script></head><body>
    <main><h1>Dynamic microphone</h1><p>A dynamic microphone.</p></main></body></html>"""
    out = readable(html)
    assert "Dynamic microphone" in out
    assert "just what I needed" not in out


def test_cloned_blocks_are_kept_once():
    # Slide decks clone their slides and responsive layouts ship a block twice; each line is
    # short (too short for the repeated-line rule), the block as a whole is the same.
    slide = (
        "<div class='slide'><h3>Soft wool</h3><p>Superfine fibers feel luxurious.</p>"
        "<h3>Odor minimizing</h3><p>Wool locks away moisture.</p>"
        "<h3>Supportive</h3><p>A sturdy and soft midsole.</p></div>"
    )
    html = f"""<html><body><main><h1>Wool runner</h1><p>{PROSE}</p>
    <div class="deck">{slide}</div><p>{PROSE.replace("committee", "council")}</p>
    <div class="deck-clone">{slide}</div></main></body></html>"""
    out = readable(html)
    assert out.count("Superfine fibers") == 1, out
    assert "council met" in out


def test_repeated_code_examples_are_kept():
    # API references repeat the same example object on purpose.
    example = (
        '<div class="example">'
        + "".join(f'<div class="line"><code>"field_{i}": null,</code></div>' for i in range(12))
        + "</div>"
    )
    html = f"""<html><body><main><h1>Charges</h1><p>{PROSE}</p><h2>Create a charge</h2>
    {example}<h2>Retrieve a charge</h2><p>Returns the charge object.</p>{example}</main>
    </body></html>"""
    out = readable(html)
    assert out.count("field_11") == 2, out


def test_people_who_viewed_shelf_is_dropped():
    shelf = "".join(
        f'<li><a href="/itm/{i}">Clutch kit number {i}</a> <span>New, business seller, '
        f"$2{i}9.00 plus delivery, seller with 99 percent positive feedback</span></li>"
        for i in range(5)
    )
    html = f"""<html><body><main><h1>Clutch kit</h1><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p>
    <div><h2>People who viewed this item also viewed</h2><ul>{shelf}</ul></div>
    <p>{PROSE.replace("committee", "council")}</p></main></body></html>"""
    out = readable(html)
    assert "council met" in out
    assert "Clutch kit number 3" not in out


def test_repeated_items_with_a_furniture_token_in_their_class_are_content():
    # "meta" / "hide-..." on every search result names a part of each item, not a box of
    # furniture: the items are the page.
    entries = "".join(
        f'<dt><a href="/abs/{n}">[{n}] Entry {n}</a></dt><dd><div class="meta">'
        f"<div>Title: Result number {n} on the structure of repeated items in listings</div>"
        f"<div>Authors: Ada Lovelace, Alan Turing and Grace Hopper wrote paper {n}.</div>"
        "</div></dd>"
        for n in range(1, 7)
    )
    html = f"""<html><body><nav><a href="/">Home</a> <a href="/list">Lists</a></nav>
    <main><h1>Recent submissions</h1><p>{PROSE}</p><p>{PROSE}</p><dl>{entries}</dl></main>
    <footer>About us. Contact. Privacy policy and terms of use.</footer></body></html>"""
    out = readable(html)
    assert "Result number 1" in out and "Result number 6" in out, out
    assert "Privacy policy" not in out


def test_utility_variant_prefixes_and_phone_only_hiding_are_not_chrome():
    # "print:break-inside-avoid" is a block that prints well; "hide-mobile" hides a block on
    # phones only: a desktop reader sees both.
    html = f"""<html><body><nav><a href="/">Home</a></nav><main><h1>Guide</h1>
    <p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p>
    <p class="print:break-inside-avoid">In print as on screen: the bridge reopens in May.</p>
    <p class="summary hide-mobile">The short version: the library opens next spring,
    funded in full by the new budget.</p><p>{PROSE}</p></main></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "the bridge reopens in May" in out, out
    assert "The short version" in out, out


def test_product_grid_before_a_category_blurb_is_kept():
    # A shop category page: a grid of short linked tiles (name, price) weighs little beside
    # the category's block of prose further down, which would otherwise be the root alone.
    tiles = "".join(
        f'<li class="tile"><a href="/p/{n}">Trail running shoe model {n}</a>'
        f'<span class="price">${90 + n}.00</span></li>'
        for n in range(1, 9)
    )
    html = f"""<html><body><header><a href="/">Shop</a> <a href="/cart">Cart</a></header>
    <div class="page"><h1>Running shoes</h1><ul class="grid">{tiles}</ul>
    <div class="seo-text"><p>{PROSE}</p><p>{PROSE}</p></div></div>
    <footer>Shipping. Returns. Contact us.</footer></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "Trail running shoe model 1" in out and "model 8" in out, out
    assert "Returns" not in out


def test_cells_of_linked_names_stay_in_their_table():
    # A data table whose cells are links (a list of laureates, a standings table): the rows
    # are the content; pruning link-dense cells one by one would garble every row.
    rows = "".join(
        f'<tr><td>{1900 + n}</td><td><a href="/w/a{n}">Physicist Number{n}</a></td>'
        f'<td><a href="/w/b{n}">Chemist Number{n}</a></td></tr>'
        for n in range(1, 13)
    )
    html = f"""<html><body><nav><a href="/">Home</a></nav><main><h1>List of laureates</h1>
    <p>{PROSE}</p><table><tr><th>Year</th><th>Physics</th><th>Chemistry</th></tr>{rows}
    </table><p>{PROSE}</p></main></body></html>"""
    out = readable(html)
    assert "Physicist Number1" in out and "Chemist Number12" in out, out
    assert "1903" in out


def test_grid_container_with_a_furniture_token_is_content():
    # "hide-compare" on a product grid names a state of its compare checkboxes, not furniture:
    # the grid (before the category blurb) is the listing.
    tiles = "".join(
        f'<li class="tile"><a href="/p/{n}">Silver earring design {n}</a>'
        f'<span class="price">${150 + n}.00</span></li>'
        for n in range(1, 9)
    )
    html = f"""<html><body><header><a href="/">Shop</a> <a href="/cart">Cart</a></header>
    <div class="page"><h1>Silver earrings</h1>
    <ul class="tiles-container hide-compare">{tiles}</ul>
    <article><p>{PROSE}</p><p>{PROSE}</p></article></div>
    <footer>Shipping. Returns. Contact us.</footer></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "Silver earring design 1" in out and "design 8" in out, out


def test_linked_terms_of_a_description_list_stay():
    # A list of entries as dt/dd pairs (search results, paper listings): the linked term is
    # the entry's identifier, not a menu.
    entries = "".join(
        f'<dt><a href="/abs/{n}">arXiv:2603.{n:05d}</a> [<a href="/pdf/{n}">pdf</a>]</dt>'
        f"<dd>Title: Paper number {n} on learning from repeated structure in web pages</dd>"
        for n in range(1, 9)
    )
    html = f"""<html><body><nav><a href="/">Home</a></nav><main><h1>Recent submissions</h1>
    <dl>{entries}</dl></main></body></html>"""
    out = readable(html)
    assert "Paper number 1" in out
    assert "arXiv:2603.00001" in out and "arXiv:2603.00008" in out, out


def test_landing_page_sections_are_kept_together():
    # A landing page spreads its content over sibling sections of one kind, each with a
    # heading: the longest must not pull the selection into itself.
    long = " ".join([PROSE] * 6)
    html = f"""<html><body><nav><a href="/">Home</a></nav><main>
    <section class="band"><h2>Serverless compute</h2>
    <p>Run code without thinking about servers, and pay only for what you use. Scale from a
    few requests a day to thousands a second, with no capacity to plan and no patches.</p>
    </section>
    <section class="band"><h2>Use cases</h2><p>{long}</p></section>
    </main><footer>Copyright</footer></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "without thinking about servers" in out, out


def test_promoted_node_is_not_a_promo_box():
    # Drupal marks a node promoted to the front page "node--promoted": a publishing state of
    # the page's own node, not a promotion box.
    html = f"""<html><body><main>
    <h1>Building permits</h1><p>{PROSE}</p><p>{PROSE.upper()}</p>
    <div class="node node--type-service node--promoted">
    <p>Apply for a building permit before you start work on a shed, a pool or a fence.</p></div>
    </main></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "Apply for a building permit" in out, out


def test_panel_named_by_aria_controls_is_content():
    # A hidden panel that a disclosure button names in aria-controls is collapsed content
    # (an FAQ answer, a "read more"), whatever its class.
    html = f"""<html><body><main><h1>Pet insurance</h1><p>{PROSE}</p>
    <div class="qa"><button aria-controls="a1" aria-expanded="false">Is my dog covered?</button>
    <div id="a1" class="panel" aria-hidden="true"><p>Dogs and cats of any age are covered from
    the first day of the policy, including accidents and illnesses.</p></div></div>
    </main></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "Dogs and cats of any age" in out, out


def test_hidden_answer_after_a_question_is_content():
    # An FAQ whose answers are folded away by an inline style, with no class or ARIA hint:
    # the hidden block right after a question is its answer.
    html = f"""<html><body><main><h1>Pet insurance</h1><p>{PROSE}</p>
    <div class="sc-a1"><div class="sc-b2">What is pet insurance?</div>
    <div class="sc-c3" style="visibility:hidden"><p>Pet insurance pays back part of the vet
    bills for your pet's treatment, for a monthly premium.</p></div></div>
    <div class="sc-a1"><div class="sc-b2">Contact</div>
    <div class="sc-c3" style="display:none"><p>A hidden contact form would be here.</p></div></div>
    </main></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "pays back part of the vet" in out, out
    assert "hidden contact form" not in out, out


def test_marker_hidden_summary_is_kept():
    # Tailwind's "marker:hidden" hides a <summary>'s bullet, not the summary (the question).
    html = f"""<html><body><main><h1>CDN</h1><p>{PROSE}</p>
    <details><summary class="list-none marker:hidden"><h4>What is a CDN?</h4></summary>
    <div><p>A content delivery network serves pages from servers close to the reader.</p></div>
    </details></main></body></html>"""
    out = readable(html)
    assert "What is a CDN?" in out, out


def test_react_streamed_segments_are_content():
    # React's streaming renderer sends late parts of the page (here the article body, in
    # several pieces) as hidden segments at the end of <body> that a script moves into their
    # placeholders: shown content.
    body = PROSE.replace("committee", "board")
    segments = "".join(
        f'<div hidden id="S:{n:x}"><div><h2>Part {n}</h2><p>{body}</p><p>{body}</p></div></div>'
        for n in range(10, 14)
    )
    html = f"""<html><body><div class="top"><h1>Index funds</h1><p>{PROSE}</p><p>{PROSE}</p>
    {"".join(f'<template id="B:{n:x}"></template>' for n in range(10, 14))}</div>
    <footer><p>Example Media is a publisher of guides, news and reviews for readers who want
    to make sense of money, with offices in three cities.</p></footer>{segments}</body></html>"""
    out = readable(html)
    assert "board met" in out, out
    assert "Part 12" in out, out


def test_descent_keeps_paragraphs_beside_a_heavy_block():
    # An article body split around an editor's wrapped block: the intro and closing
    # paragraphs stand beside the heavy wrapper and belong to the article.
    intro = PROSE.replace("committee", "council")
    outro = PROSE.replace("committee", "board")
    html = f"""<html><body><nav><a href="/">Home</a></nav><div class="entry-content">
    <p>{intro}</p><div class="wp-block-group"><div class="inner">
    {f"<p>{PROSE}</p>" * 8}</div></div><p>{outro}</p></div></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "council met" in out and "board met" in out, out


def test_comments_in_the_article_wrapper_stay_out_of_a_long_declared_article():
    # A blog post whose comment thread sits in the same wrapper and outweighs it: the post
    # has a body of its own, so the thread is not what the page is about.
    comment = (
        "Great write-up, thanks. I disagree about the bridge though: the repairs were delayed "
        "for years and the council should have acted long before the spring floods."
    )
    thread = "".join(
        f'<li class="comment"><p>Comment {n}: {comment}</p></li>' for n in range(60)
    )
    html = f"""<html><head><meta property="og:type" content="article"></head><body>
    <div class="postarea"><h1>Budget approved</h1>{f"<p>{PROSE}</p>" * 10}
    <div class="comments-wrapper"><ol class="commentlist">{thread}</ol></div></div>
    </body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "Comment 3:" not in out


def test_title_blocks_of_repeated_items_stay():
    # Each item's title is a linked heading in a wrapper of its own (`<div class=title><a>
    # <h3>`): the wrapper is the title, not a menu, though it is all link.
    items = "".join(
        f'<li class="item"><div class="title"><a href="/t/{n}"><h3>Film title {n}</h3></a></div>'
        f"<p>A drama about a family that moves to the coast in the year {1990 + n}, and "
        f"what the sea does to each of them over one long and stormy summer.</p></li>"
        for n in range(1, 7)
    )
    html = f"""<html><body><nav><a href="/">Home</a> <a href="/charts">Charts</a></nav>
    <main><h1>Most popular films</h1><ul class="chart">{items}</ul></main>
    <footer>Copyright. Terms.</footer></body></html>"""
    out = readable(html)
    assert "stormy summer" in out
    assert "Film title 1" in out and "Film title 6" in out, out


def test_blog_archive_is_a_listing_whatever_its_json_ld_says():
    # An SEO plugin declares every page an Article; a WordPress archive page ("archive" on
    # body) lists posts, whose cards (one link each) are the page, and the post grid under
    # the category's description joins it, its cards one kind whatever their categories.
    kinds = ["dinner", "lunch", "snacks", "sides", "vegan", "chicken", "fish", "baking"]
    cards = "".join(
        f'<article class="post-{n} post type-post category-{kinds[n - 1]} tag-{kinds[-n]}">'
        f'<a href="/recipe-{n}"><span>{n} reviews</span><h3>Crispy air fryer recipe number {n}'
        f"</h3></a></article>"
        for n in range(1, 9)
    )
    html = f"""<html><head><script type="application/ld+json">
    {{"@context": "https://schema.org", "@type": "Article", "headline": "Air fryer"}}
    </script></head><body class="archive category category-air-fryer">
    <nav><a href="/">Home</a> <a href="/recipes">Recipes</a></nav>
    <div class="wrap"><div class="archive-description"><h1>Air fryer recipes</h1><p>{PROSE}</p>
    </div><div class="posts">{cards}</div></div>
    <footer>Copyright. Privacy.</footer></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "recipe number 1" in out and "recipe number 8" in out, out


def test_hide_classed_block_of_a_product_page_stays_out():
    # Shop themes park the raw product record in a block their stylesheet hides ("hide"):
    # on a product page it stays out even when it outweighs the visible description.
    fields = "".join(
        f"<dt>field_{k}:</dt><dd>{PROSE} Tier {k}, $1{k}.00 per unit.</dd>" for k in range(3)
    )
    html = f"""<html><head><meta property="og:type" content="product"></head><body>
    <div class="page"><div class="product"><h1>Staple tee</h1><p>{PROSE}</p>
    <span class="price">$20.00</span></div>
    <dl class="productView-info hide">{fields}</dl></div></body></html>"""
    out = readable(html)
    assert "Staple tee" in out
    assert "field_1" not in out


def test_disclaimer_of_a_declared_product_is_chrome():
    # Articles and product pages end on boilerplate disclaimers (affiliate, medical, "results
    # may vary"); a service page's disclaimer is part of its offer, so only declared pages.
    note = (
        "These statements have not been evaluated by the Food and Drug Administration, and "
        "this product is not intended to diagnose, treat, cure or prevent any disease."
    )
    prose = f"<p>{PROSE}</p>" * 3
    body = f"""<body><div class="product"><h1>Relax gummies</h1>{prose}
    <div class="product-disclaimer"><p>{note}</p></div></div></body></html>"""
    declared = '<html><head><meta property="og:type" content="product"></head>' + body
    assert "committee met" in readable(declared)
    assert "Drug Administration" not in readable(declared)
    assert "Drug Administration" in readable("<html><head></head>" + body)


def test_priced_page_without_product_markup_gets_the_shop_rules():
    # A store without product markup still shows prices: the shop-page rules (here the
    # hidden product record) apply to it as to a declared product page.
    fields = "".join(
        f"<dt>field_{k}:</dt><dd>{PROSE} Tier {k}, $1{k}.00 per unit.</dd>" for k in range(3)
    )
    html = f"""<html><body>
    <div class="page"><div class="item"><h1>Staple tee</h1><p>{PROSE}</p>
    <span class="price">$20.00</span></div>
    <dl class="info hide">{fields}</dl></div></body></html>"""
    out = readable(html)
    assert "Staple tee" in out
    assert "field_1" not in out


def test_webflow_form_state_messages_stay_out():
    # Webflow's stylesheet keeps a form's success and failure messages hidden until the form
    # is submitted; they are not content of the page they sit in.
    html = f"""<html><body><main>
    <h1>Identity protection</h1><p>{PROSE}</p><p>{PROSE.upper()}</p>
    <div class="w-form"><form><p>Get a quote for your family plan today.</p></form>
    <div class="w-form-done"><div>Thank you! Your submission has been received!</div></div>
    <div class="w-form-fail"><div>Oops! Something went wrong while submitting the form.</div></div>
    </div></main></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "submission has been received" not in out, out
    assert "Something went wrong" not in out, out


def test_forum_poster_panel_keeps_the_posters_name():
    # A forum post's poster panel (avatar, rank, join date, post count) is furniture, but
    # the poster's name in it says who wrote the post.
    reply = (
        "I had the same problem with my router last week; updating the firmware and resetting "
        "the DNS settings fixed it for me, so try that first."
    )
    posts = "".join(
        f"""<div class="message"><div class="message-userDetails">
        <h4 class="message-name"><a href="/members/{n}" class="username">poster{n}x</a></h4>
        <h5 class="userTitle">Senior Member</h5><dl><dt>Joined</dt><dd>Mar 3, 2019</dd>
        <dt>Messages</dt><dd>1,234</dd></dl></div>
        <div class="message-content"><p>Reply {n}: {reply}</p></div></div>"""
        for n in range(1, 5)
    )
    html = f"""<html><body><nav><a href="/">Forum index</a> <a href="/new">New posts</a></nav>
    <div class="thread"><h1>Router keeps dropping the connection</h1>{posts}</div>
    <footer>Powered by forum software</footer></body></html>"""
    out = readable(html)
    assert "Reply 1:" in out and "Reply 4:" in out
    assert "poster1x" in out and "poster4x" in out, out
    for junk in ("Senior Member", "Joined", "1,234"):
        assert junk not in out, (junk, out)


def test_highlighted_code_comments_are_kept():
    # A syntax highlighter classes a code comment "hljs-comment" / "token comment": part of
    # the code, not a comment thread under the article.
    code = "".join(
        f'git {cmd} <span class="hljs-comment"># {note}</span>\n'
        for cmd, note in (("branch", "see available branches"), ("stash pop", "reapply stash"))
    )
    html = f"""<html><body><article><h1>A brief intro to git</h1><p>{PROSE}</p>
    <pre><code class="hljs language-bash">{code}</code></pre><p>{PROSE.upper()}</p>
    </article></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "git branch" in out
    assert "see available branches" in out, out


def test_link_list_under_its_own_heading_is_the_sections_body():
    # Docs and wikis list related pages under a heading of their own ("Data types",
    # "Resources"): the list is what the section says, however link-dense.
    types = "".join(
        f'<li><a href="/docs/data-types/{t.lower()}">{t}</a></li>'
        for t in ("Strings", "Hashes", "Sorted sets", "Bitfields")
    )
    toc = '<li><a href="#intro">Introduction</a></li><li><a href="#use">Usage</a></li>'
    html = f"""<html><body><nav><a href="/">Docs home</a> <a href="/blog">Blog</a></nav>
    <main><h1>Understand data types</h1><h2>Contents</h2><ul>{toc}</ul>
    <p>{PROSE}</p><p>{PROSE.upper()}</p><p>{PROSE}</p>
    <h2>Core data types</h2><ul>{types}</ul><p>{PROSE.upper()}</p></main>
    <footer>Copyright 2025 Example</footer></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "Sorted sets" in out and "Bitfields" in out, out
    assert "Usage" not in out, out
    assert "Docs home" not in out


def test_landing_page_cards_that_are_one_link_each_are_kept():
    # A landing page's feature grid: each tile is one link around a heading and a sentence.
    # Link-dense, but the tiles are the page's content, not a menu.
    feats = ["Advanced ticketing", "Collaboration", "Automation", "Reporting"]
    cards = "".join(
        f'<a class="card" href="/features/{k}"><h3>{name}</h3>'
        f"<p>Resolve issues that need deeper work with {name.lower()} built for teams.</p></a>"
        for k, name in enumerate(feats)
    )
    html = f"""<html><body><main>
    <h1>Customer service that puts people first</h1><p>{PROSE}</p>
    <div class="grid">{cards}</div></main></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "Advanced ticketing" in out, out
    assert "with collaboration built for teams" in out, out


def test_display_none_utility_block_stays_out():
    # Bootstrap's `d-none` hides an element outright (shop tiles park screen-reader copies of
    # their data there); `d-none d-md-block` shows it again from tablets up.
    tiles = "".join(
        f'<div class="tile"><a href="/p/{k}">Carry-on case model {k}</a><p>{PROSE}</p>'
        f'<dl class="d-none"><dt>Product Details</dt><dd>Model {k} is available in six '
        f"different options, and the selected one is priced at 139.99 USD.</dd></dl>"
        f'<div class="d-none d-md-block">Ships free in two days, model {k}.</div></div>'
        for k in range(4)
    )
    html = f"<html><body><main><h1>Carry-on luggage</h1>{tiles}</main></body></html>"
    out = readable(html)
    assert "Carry-on case model 2" in out
    assert "Product Details" not in out, out
    assert "Ships free in two days" in out, out


def test_shelf_of_priced_tiles_after_a_declared_products_title_stays_out():
    # A product page's shelf of other products (linked tiles with a price) under no heading
    # the vocabulary knows: not the product's content. The same shelf without the product
    # declaration (a category page's grid) stays.
    sentence = "This hand-built guitar has an alder body and a maple neck with a rosewood board. "
    desc = "<p>" + sentence * 5 + "</p>"
    tiles = "".join(
        f'<li><a href="/p/{i}">Other guitar model {i}</a><span>${i}99.00</span>'
        "<span>Pre-owned, ships from the seller within two days.</span></li>"
        for i in range(1, 6)
    )
    body = f"""<body><main><h1>Player Strat</h1>{desc}
        <div><h2>Show variations</h2><ul>{tiles}</ul></div></main></body></html>"""
    declared = '<html><head><meta property="og:type" content="product"></head>' + body
    out = readable(declared)
    assert "alder body" in out
    assert "Other guitar model" not in out
    # A group of products (og:type product.group, a shop's collection page) keeps its tiles.
    group = '<html><head><meta property="og:type" content="product.group"></head>' + body
    assert "Other guitar model" in readable(group)


def test_product_group_is_not_a_product_page():
    # og:type product.group declares a shop's collection page, not a product: the shop rules
    # (here: a "hide"-classed block stays out however much it holds) do not apply.
    fields = "".join(
        f"<dt>field_{k}:</dt><dd>{PROSE} Tier {k}, $1{k}.00 per unit.</dd>" for k in range(3)
    )
    body = f"""<body>
    <div class="page"><div class="product"><h1>Staple tee</h1><p>{PROSE}</p></div>
    <dl class="productView-info hide">{fields}</dl></div></body></html>"""
    head = '<html><head><meta property="og:type" content="{}"></head>'
    assert "field_1" not in readable(head.format("product") + body)
    assert "field_1" in readable(head.format("product.group") + body)


def test_utility_css_viewport_overlay_is_chrome():
    # Tailwind's "fixed inset-0" pins a box over the whole viewport: a modal or takeover
    # (sign-up form with its success and error states), not the page's content.
    overlay = (
        '<div class="fixed inset-0 z-50 overflow-y-auto"><div class="flex flex-col">'
        "<h3>Notify me when back in stock</h3><p>Once limited colors sell out they are gone for "
        "good, but new colors are never far behind. Sign up and we will tell you first.</p>"
        "<h3>It's official</h3><p>We got your info and we will keep you in the loop about new "
        "colors, restocks and everything else that is new in our store this season.</p></div></div>"
    )
    prose = f"<p>{PROSE}</p>" * 4
    html = f"""<html><body><main><h1>Wool Runner</h1>{prose}
    {overlay}</main></body></html>"""
    out = readable(html)
    assert "Wool Runner" in out
    assert "back in stock" not in out


def test_live_status_and_error_messages_are_chrome():
    # role="alert" / role="status" regions carry the interface's state ("Unable to add item to
    # List. Please try again.", "Loading...", "Added to cart"), not the page's text.
    prose = f"<p>{PROSE}</p>" * 3
    html = f"""<html><body><main><h1>Budget vote</h1>{prose}
    <div role="alert"><span>Unable to add the item to your list. Please try again.</span></div>
    <p role="status">Loading saved stories from your reading history</p>
    </main></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "Please try again" not in out
    assert "reading history" not in out


def test_documentation_callout_with_role_alert_is_kept():
    # Documentation themes mark their note and warning boxes role="alert": the text's own
    # callout, not an interface message, whatever its length.
    steps = (
        "To install the package run the installer, then configure the service in the settings "
        "file and restart it so that the new options take effect."
    )
    html = f"""<html><body><nav><a href="/">Docs</a></nav><main><h1>Installing</h1>
    <p>{steps}</p><div class="alert alert-warning" role="alert"><strong>Warning:</strong> Back
    up your database first.</div><pre><code>pip install thing</code></pre>
    <div role="status">Copied!</div></main></body></html>"""
    out = readable(html)
    assert "Back up your database first" in out, out
    assert "pip install thing" in out
    assert "Copied" not in out


def test_shipping_and_returns_panel_of_a_product_page_is_dropped():
    # The shop's shipping/returns terms sit under every product as an accordion item or a
    # headed block: the shop's boilerplate, not the product's description.
    terms = (
        "We ship worldwide within two business days. Returns are free within 30 days of "
        "delivery as long as the item is unworn and in its original packaging."
    )
    accordion = f"""<div class="accordion">
    <details class="accordion-item"><summary>Details</summary><p>{PROSE}</p></details>
    <details class="accordion-item"><summary>Shipping &amp; Returns</summary>
    <p>{terms}</p></details></div>"""
    flow = f"""<h3>Fit and care</h3><p>{PROSE}</p>
    <h3>Delivery and returns</h3><p>{terms}</p><p>Ask us anything: hello@example.com.</p>"""
    head = '<html><head><meta property="og:type" content="product"></head>'
    for panels in (accordion, flow):
        html = f"""{head}<body><main><div class="product"><h1>Loke jacket</h1>
        <span class="price">$98.00</span><p>{PROSE}</p>{panels}</div></main></body></html>"""
        out = readable(html)
        assert "Loke jacket" in out
        assert "committee met" in out
        assert "original packaging" not in out
        assert "Ask us anything" not in out
    # A page that is no shop keeps such a section (a blog post about a shop's policy).
    other = f"""<html><body><main><h1>Our year</h1><p>{PROSE}</p>{flow}</main></body></html>"""
    assert "original packaging" in readable(other)


def test_loading_placeholders_are_dropped():
    # A widget a script has not rendered yet shows "Loading..." in its place: no content.
    prose = f"<p>{PROSE}</p>" * 3
    html = f"""<html><body><main><h1>Budget vote</h1>{prose}
    <div class="price-history"><h2>Price history</h2><div class="spinner">LOADING...</div></div>
    <p>Loading</p></main></body></html>"""
    out = readable(html)
    assert "committee met" in out
    assert "Price history" in out
    assert "loading" not in out.lower()


def test_shop_shelf_headings_drop_their_section_on_product_pages():
    # "Guests also viewed", "Others like you also bought", "Get the look": shelves of other
    # products under a shop's product, however the tiles are marked up.
    tiles = "".join(
        f"<div><p>Lounge chair {n} in oiled oak with a woven paper cord seat.</p></div>"
        for n in range(3)
    )
    prose = f"<p>{PROSE}</p>" * 3
    body = f"""<body><main><h1>Kallax shelf</h1>{prose}
    <section><h2>Guests also viewed</h2>{tiles}</section></main></body></html>"""
    product = '<html><head><meta property="og:type" content="product"></head>' + body
    out = readable(product)
    assert "committee met" in out
    assert "Lounge chair 1" not in out
    # Elsewhere the phrase is no label of furniture.
    assert "Lounge chair 1" in readable("<html><head></head>" + body)


def shop_category(name: str, blurb: str, base_price: int, main: str) -> str:
    """A shop's category page: 24 priced tiles (``{grid}`` in ``main``) between a header and
    a footer."""
    tiles = "".join(
        f'<li class="tile"><a href="/p/{n}">{name} number {n}</a>'
        f"<p>{blurb}</p>"
        f'<span class="price">${base_price + n}.00</span></li>'
        for n in range(1, 25)
    )
    return f"""<html><body><header><a href="/">Shop</a> <a href="/cart">Cart</a></header>
    <main>{main.format(grid=f'<ul class="grid">{tiles}</ul>')}</main>
    <footer>Shipping. Returns. Contact us.</footer></body></html>"""


def test_category_prose_beside_a_product_grid_is_kept():
    # A shop's category page whose root is the product grid: the buying advice under the
    # tiles (a sibling block of sentences) is the category's own text, not furniture.
    blurb = "Soft combed cotton with a cushioned sole and a seamless toe for long days"
    main = """<div class="wrap"><div class="results">{grid}</div>
    <div class="seo"><h2>How to choose socks</h2><p>Pick the fabric first: cotton breathes,
    wool warms even when wet. Then pick the height that suits your shoes.</p></div></div>"""
    out = readable(shop_category("Crew sock", blurb, 10, main))
    assert "Crew sock number 1" in out and "number 24" in out, out
    assert "wool warms even when wet" in out, out


def test_prose_under_a_related_heading_stays_on_a_shop_category_page():
    # "Related ..." heads a rail of teasers under articles and products; a shop category
    # page puts its buying advice there, in sentences, which is the category's own text.
    blurb = "Two burners, push-button ignition and a lid that shields the flame"
    main = """<h1>Camp stoves</h1>{grid}
    <section><h2>Related expert advice</h2><p>Canister stoves are easy to use and need
    little care. Liquid fuel stoves burn well in the cold. Wood stoves are light, but fire
    bans may stop you from using them. Integrated systems boil water fastest of all, but
    they tip over more easily on uneven ground, so pick a flat spot.</p></section>"""
    out = readable(shop_category("Camp stove", blurb, 100, main))
    assert "Camp stove number 1" in out and "number 24" in out, out
    assert "Liquid fuel stoves burn well" in out, out


def test_category_title_above_a_product_grid_is_kept():
    # The category's h1 sits in its own banner wrapper above the grid the root descends
    # into: the page's title, not furniture.
    blurb = "Seasoned with vegetable oil and ready to use on any stovetop or campfire"
    main = """<div class="banner"><div class="inner"><h1>Lodge cast iron</h1></div></div>
    <div class="results">{grid}</div>"""
    out = readable(shop_category("Cast iron skillet", blurb, 20, main))
    assert "Cast iron skillet number 1" in out and "number 24" in out, out
    assert "Lodge cast iron" in out, out
