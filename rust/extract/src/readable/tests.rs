//! Whole-selection tests on small pages.

use super::*;

fn readable(html: &str) -> String {
    let doc = crate::document::parse(html);
    let scope = select(&doc, None);
    crate::text::render(&doc, &scope)
}

const PROSE: &str = "The committee met on Tuesday to discuss the budget for the coming year, \
    and after a long debate it agreed to fund the new library, the park renovation and the \
    repair of the old bridge, which had been closed since the spring floods.";

#[test]
fn article_drops_chrome() {
    let html = format!(
        r#"<html><body>
        <header><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></header>
        <nav><ul><li><a href="/a">Politics</a></li><li><a href="/b">Business</a></li></ul></nav>
        <div class="cookie-banner">We use cookies to improve your experience. Accept all?</div>
        <main><article><h1>Budget approved</h1><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p></article></main>
        <aside class="sidebar"><h3>Most read</h3><a href="/x">Something else entirely</a></aside>
        <footer>Copyright 2025 Example News. All rights reserved.</footer>
        </body></html>"#
    );
    let out = readable(&html);
    assert!(out.contains("committee met"), "{out}");
    assert!(out.contains("Budget approved"), "{out}");
    for junk in [
        "Politics",
        "cookies",
        "Copyright",
        "Something else",
        "Sport",
    ] {
        assert!(!out.contains(junk), "{junk} leaked: {out}");
    }
}

#[test]
fn forum_replies_are_content() {
    let reply = "I had the same problem with my router last week; updating the firmware \
        and resetting the DNS settings fixed it for me, so try that first.";
    let html = format!(
        r#"<html><body><nav><a href="/">Forum index</a> <a href="/new">New posts</a></nav>
        <div class="thread"><h1>Router keeps dropping the connection</h1>
        <div class="post"><p>My router drops the connection every hour, and I have no idea why.
        It started after the last update. Any ideas?</p></div>
        <div class="comment reply"><p>{reply}</p></div>
        <div class="comment reply"><p>Second reply: {reply}</p></div>
        <div class="comment reply"><p>Third reply: {reply}</p></div></div>
        <footer>Powered by forum software</footer></body></html>"#
    );
    let out = readable(&html);
    assert!(out.contains("drops the connection every hour"), "{out}");
    assert!(out.contains("Third reply"), "{out}");
    assert!(!out.contains("Powered by"), "{out}");
}

#[test]
fn article_comments_are_dropped() {
    let html = format!(
        r#"<html><body><article><h1>Title</h1><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p>
        <p>{PROSE}</p></article>
        <section id="comments" class="comments-area"><h2>3 Comments</h2>
        <div class="comment">Great article, thanks for sharing this with us all!</div></section>
        </body></html>"#
    );
    let out = readable(&html);
    assert!(out.contains("committee met"));
    assert!(!out.contains("Great article"), "{out}");
}

#[test]
fn product_description_from_json_ld() {
    let html = r#"<html><head><script type="application/ld+json">
        {"@context":"https://schema.org","@type":"Product","name":"Trail Pack 25",
         "description":"A light, weatherproof 25-litre pack with a padded hip belt, \
         two side pockets and a hydration sleeve, made from recycled nylon."}
        </script></head><body><nav><a href="/">Shop</a></nav>
        <div class="product"><h1>Trail Pack 25</h1><span class="price">$99</span>
        <button>Add to cart</button></div></body></html>"#;
    let out = readable(html);
    assert!(out.contains("weatherproof 25-litre pack"), "{out}");
    assert!(out.contains("Trail Pack 25"), "{out}");
}

#[test]
fn json_ld_not_repeated_when_visible() {
    let html = format!(
        r#"<html><head><script type="application/ld+json">
        {{"@type":"NewsArticle","articleBody":"{PROSE}"}}</script></head>
        <body><article><p>{PROSE}</p><p>Work starts in May.</p></article></body></html>"#
    );
    let out = readable(&html);
    assert_eq!(out.matches("committee met").count(), 1, "{out}");
    assert!(out.contains("Work starts in May."), "{out}");
}

#[test]
fn repeated_responsive_copy_is_dropped() {
    let html = format!(
        r#"<html><body><main><div class="desktop"><p>{PROSE}</p></div>
        <div class="mobile"><p>{PROSE}</p></div><p>Work starts in May.</p></main></body></html>"#
    );
    let out = readable(&html);
    assert_eq!(out.matches("committee met").count(), 1, "{out}");
}

#[test]
fn docs_keep_code_drop_sidebar() {
    let html = format!(
        r#"<html><body>
        <div class="sidebar"><ul><li><a href="/a">Install</a></li><li><a href="/b">Configure</a></li>
        <li><a href="/c">Deploy</a></li></ul></div>
        <div class="version-select"><a href="/v1">v1.0</a><a href="/v2">v2.0</a></div>
        <div class="content"><h1>Configure</h1><p>{PROSE}</p>
        <pre><code>let config = Config::load("app.toml")?;
server.run(config);</code></pre><p>{PROSE}</p></div></body></html>"#
    );
    let out = readable(&html);
    assert!(out.contains("Config::load"), "{out}");
    assert!(!out.contains("Deploy"), "{out}");
    assert!(!out.contains("v2.0"), "{out}");
}

#[test]
fn listing_keeps_items_drops_pagination() {
    let mut items = String::new();
    for i in 1..=8 {
        items.push_str(&format!(
            r#"<div class="card"><h3><a href="/p/{i}">Walking boot model {i}</a></h3>
            <p>Waterproof leather upper, grippy sole, size range 36 to 47, item {i}.</p></div>"#
        ));
    }
    let html = format!(
        r#"<html><body><nav><a href="/">Home</a><a href="/shoes">Shoes</a></nav>
        <div class="filters"><h4>Filter by</h4><a href="?c=red">Red</a><a href="?c=blue">Blue</a></div>
        <div class="results">{items}</div>
        <div class="pagination"><a href="?p=1">1</a><a href="?p=2">2</a><a href="?p=3">Next page</a></div>
        </body></html>"#
    );
    let out = readable(&html);
    assert!(out.contains("Walking boot model 1"), "{out}");
    assert!(out.contains("Walking boot model 8"), "{out}");
    assert!(out.contains("grippy sole"), "{out}");
    assert!(!out.contains("Next page"), "{out}");
    assert!(!out.contains("Filter by"), "{out}");
}

#[test]
fn fallback_is_never_empty() {
    let html = r#"<html><body><div><span>Opening hours</span></div>
        <div><span>Mon-Fri 9-17</span></div><div><a href="/c">Contact</a></div></body></html>"#;
    let out = readable(html);
    assert!(out.contains("Opening hours"), "{out}");
    assert!(out.contains("Mon-Fri"), "{out}");
}

#[test]
fn title_is_not_duplicated() {
    let html = format!(
        r#"<html><head><title>Budget approved</title></head><body>
        <article><h1>Budget approved</h1><p>{PROSE}</p><p>{PROSE}</p></article></body></html>"#
    );
    let out = readable(&html);
    assert_eq!(out.matches("Budget approved").count(), 1, "{out}");
}

#[test]
fn content_inside_noscript_and_hidden_wrappers() {
    let html = format!(
        r#"<html><body><div id="app"></div><noscript><div id="main-outlet">
        <h1>Thread</h1><div class="post"><p>{PROSE}</p></div></div></noscript></body></html>"#
    );
    assert!(readable(&html).contains("committee met"));
    let html = format!(
        r#"<html><body><div style="display:none"><main><p>{PROSE}</p><p>{PROSE}</p></main>
        </div></body></html>"#
    );
    assert!(readable(&html).contains("committee met"));
}

#[test]
fn deep_nesting_does_not_overflow() {
    let depth = 100_000;
    let mut html = String::with_capacity(depth * 11 + 100);
    html.push_str("<html><body>");
    for _ in 0..depth {
        html.push_str("<div>");
    }
    html.push_str("deep text");
    for _ in 0..depth {
        html.push_str("</div>");
    }
    html.push_str("</body></html>");
    let doc = crate::document::parse(&html);
    let scope = select(&doc, None);
    assert!(!scope.roots.is_empty() || scope.skip.is_empty());
}

#[test]
fn boilerplate_heading_must_lead_or_be_short() {
    let html = format!(
        r#"<html><body><article><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p>
        <h2>What this means for newsletter writers</h2><p>Writers adapt. {PROSE}</p>
        <h2>Sign up for our newsletter</h2><p>Get the best stories every morning.</p>
        </article></body></html>"#
    );
    let out = readable(&html);
    assert!(out.contains("Writers adapt."), "{out}");
    assert!(!out.contains("best stories every morning"), "{out}");
}

#[test]
fn blocks_partition_the_text_and_carry_the_verdict() {
    let html = format!(
        r#"<html><body>
        <nav><ul><li><a href="/a">Politics</a></li><li><a href="/b">Business</a></li></ul></nav>
        <main><article><h1>Budget approved</h1><p>{PROSE}</p>
        <p>Second paragraph: <a href="/more">a link</a> inside. {PROSE}</p>
        <div>Loose text <p>nested paragraph</p> after</div></article></main>
        <footer>Copyright 2025 Example News.</footer>
        </body></html>"#
    );
    let doc = crate::document::parse(&html);
    let blocks = blocks(&doc, Some("https://example.com/news/budget"));
    let find = |needle: &str| {
        blocks
            .iter()
            .find(|b| b.text.contains(needle))
            .unwrap_or_else(|| panic!("no block holds {needle:?}: {blocks:#?}"))
    };
    let chrome = (F_CHROME_TAG | F_CHROME_CLASS | F_NAVLIKE | F_ROLE_CHROME).bits();
    let nav = find("Politics");
    assert_eq!(nav.tag, "li");
    assert!((nav.flags | nav.ancestor_flags) & chrome != 0, "{nav:?}");
    assert_eq!(nav.link_chars, nav.chars, "{nav:?}");
    assert!(!nav.in_scope, "{nav:?}");
    assert!(!find("Copyright").in_scope);
    let heading = find("Budget approved");
    assert_eq!((heading.tag.as_str(), heading.level), ("h1", 1));
    assert!(heading.in_scope);
    let second = find("Second paragraph");
    assert!(second.in_scope && second.tag == "p", "{second:?}");
    assert_eq!(second.link_chars, "alink".len() as u32);
    assert!(second
        .text
        .starts_with("Second paragraph: a link inside. The committee"));
    // The div's own text is what its nested paragraph does not hold, and the words either
    // side of the paragraph stay apart.
    assert_eq!(find("Loose text").text, "Loose text after");
    assert_eq!(find("nested paragraph").text, "nested paragraph");
    // A partition: no text twice, and the blocks' text is the page's visible text.
    let body_text: u32 = blocks.iter().map(|b| b.chars).sum();
    let table = Table::build(&doc, None);
    assert_eq!(body_text, table.items[table.body() as usize].text);
    let mut texts: Vec<&str> = blocks.iter().map(|b| b.text.as_str()).collect();
    texts.sort_unstable();
    texts.dedup();
    assert_eq!(texts.len(), blocks.len(), "{blocks:#?}");
    // Document order, positions and the page-level facts.
    assert!(blocks.windows(2).all(|w| w[0].position < w[1].position));
    assert!(blocks
        .windows(2)
        .all(|w| w[0].text_before <= w[1].text_before));
    assert_eq!(blocks[0].position, 0.0);
    assert!(blocks.iter().all(|b| !b.forum));
}

#[test]
fn blocks_agree_with_the_selection_text() {
    // What `in_scope` keeps is what the text view of the same selection shows.
    let html = format!(
        r#"<html><body><div class="sidebar"><p>Subscribe to our newsletter today</p></div>
        <div class="content"><h2>Budget approved</h2><p>{PROSE}</p><p>{PROSE}</p></div>
        <div class="comments"><p>Great article, thanks for writing it!</p></div></body></html>"#
    );
    let doc = crate::document::parse(&html);
    let shown = readable(&html);
    for b in blocks(&doc, None) {
        assert_eq!(shown.contains(&b.text), b.in_scope, "{b:?} vs {shown}");
    }
}

#[test]
fn good_text_is_what_accumulate_good_leaves_everywhere() {
    // Chrome, hidden text, a control, comment threads nested in and beside the content: every
    // entry's `good` as `accumulate_good` writes it is what `good_text` reads, either way.
    let html = format!(
        r#"<html><body><nav><a href="/">Home</a> <a href="/a">About</a></nav>
        <main><article><h1>Budget approved</h1><p>{PROSE}</p>
        <div hidden><p>Folded text that nobody sees</p></div><button>Show more</button>
        <section class="comments"><div class="comment"><p>First: {PROSE}</p>
        <div class="sidebar"><p>Chrome inside a comment</p></div></div>
        <div class="comment"><p>Second comment with <a href="/u">a link</a></p></div></section>
        </article></main><footer>Copyright notice</footer></body></html>"#
    );
    let doc = crate::document::parse(&html);
    let mut table = Table::build(&doc, None);
    let body = table.body();
    table.decide_chrome(body);
    for exclude_comments in [true, false] {
        table.accumulate_good(exclude_comments);
        for i in 0..table.items.len() as u32 {
            assert_eq!(
                table.good_text(i, exclude_comments),
                table.items[i as usize].good,
                "entry {i}, exclude_comments {exclude_comments}"
            );
        }
        assert!(table.items[body as usize].good > 0);
    }
    let with = table.good_text(body, false);
    assert!(with > table.good_text(body, true), "the comments hold text");
}
