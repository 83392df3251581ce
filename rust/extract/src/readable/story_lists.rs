//! Lists of the site's stories that hold the story itself: a "Breaking News" ticker, a
//! "Latest" column, a list of the day's headlines with their first lines. On a declared
//! article such a list is furniture whatever its markup says, and one of its items gives it
//! away: it links to the very page it stands on. The story's own text never links to
//! itself that way (a table of contents links into the page, by fragment), so the evidence
//! is the page's own, and nothing about the list's classes or wording is needed.
//!
//! Marked as chrome before the furniture is decided (`select`), so the root's descent
//! weighs the story without the list, as it does without a list classed `related`.

use crate::tree::Html;

use super::flags::*;
use super::outline::Table;

/// Fewest linked items such a list has (a ticker, not a link in a sentence's list of two).
const STORY_LIST_ITEMS: u32 = 3;

/// A page's address as the links in it are compared with it: its host without `www.`,
/// lower-cased, and its path without a trailing `/`, query or fragment.
#[derive(Debug, PartialEq)]
struct PageKey<'a> {
    host: String,
    path: &'a str,
}

/// `url` as a [`PageKey`]; `None` for an address without a host or with an empty path (a
/// site's home page, which every list of stories may link to).
fn page_key(url: &str) -> Option<PageKey<'_>> {
    let rest = url.trim().split_once("://").map_or(url, |(_, r)| r);
    let rest = rest.strip_prefix("//").unwrap_or(rest);
    let (host, path) = rest.split_at(rest.find(['/', '?', '#']).unwrap_or(rest.len()));
    let host = host.to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host).to_string();
    let path = path_of(path)?;
    (!host.is_empty()).then_some(PageKey { host, path })
}

/// The path of `rest` (a URL's part after the host), without query, fragment or trailing
/// `/`; `None` when nothing is left.
fn path_of(rest: &str) -> Option<&str> {
    let path = &rest[..rest.find(['?', '#']).unwrap_or(rest.len())];
    let path = path.trim_end_matches('/');
    (!path.is_empty()).then_some(path)
}

/// Whether link target `href` is the page `page`: an absolute or scheme-relative address of
/// the same host and path, or a root-relative path equal to the page's. A link with a
/// fragment points into a page (a table of contents, a list of a reference's arguments),
/// not at it, and other relative forms are not counted.
fn is_page(href: &str, page: &PageKey<'_>) -> bool {
    let href = href.trim();
    if href.contains('#') {
        return false;
    }
    if href.contains("://") || href.starts_with("//") {
        return page_key(href).is_some_and(|k| k == *page);
    }
    href.starts_with('/') && path_of(href) == Some(page.path)
}

impl Table {
    /// On a declared article at `url`, mark as chrome every list (`ul`, `ol`) of at least
    /// [`STORY_LIST_ITEMS`] items, each with a link, one of which links to the page itself
    /// (see the module documentation). One pass over the table, linear: a marked list's
    /// subtree is not read again, nor the links of a list inside one already found to hold
    /// no link to the page.
    pub(super) fn mark_story_lists(&mut self, doc: &Html, url: Option<&str>) {
        let Some(page) = url.and_then(page_key) else {
            return;
        };
        // End of the last list whose links were read and hold none to the page.
        let mut clean_end = 0u32;
        let mut i = 0u32;
        while (i as usize) < self.items.len() {
            let it = &self.items[i as usize];
            let end = it.end;
            if it.flags.has_none(F_LIST) || it.flags.has_any(F_CHROME_TAG | F_CHROME_CLASS) {
                i += 1;
                continue;
            }
            let (mut items, mut linked) = (0u32, 0u32);
            for c in self.children(i) {
                let c = &self.items[c as usize];
                if c.text > 0 {
                    items += 1;
                    linked += u32::from(c.links > 0);
                }
            }
            if items >= STORY_LIST_ITEMS && linked == items && i >= clean_end {
                if self.links_to(doc, i, &page) {
                    self.items[i as usize].flags |= F_CHROME_CLASS | F_STRONG;
                    i = end;
                    continue;
                }
                clean_end = end;
            }
            i += 1;
        }
    }

    /// Whether a link in `i`'s subtree targets the page `page`.
    fn links_to(&self, doc: &Html, i: u32, page: &PageKey<'_>) -> bool {
        (i..self.items[i as usize].end).any(|j| {
            let it = &self.items[j as usize];
            it.flags.has_any(F_LINK)
                && doc
                    .tree
                    .get(it.id)
                    .and_then(|n| n.value().as_element())
                    .and_then(|el| el.attr("href"))
                    .is_some_and(|href| is_page(href, page))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_to_the_page_itself_are_told_from_others() {
        let page = page_key("https://www.news.example/world/story-123/?utm=x#top").unwrap();
        for same in [
            "https://www.news.example/world/story-123/",
            "http://news.example/world/story-123",
            "//NEWS.example/world/story-123?ref=ticker",
            "/world/story-123/",
        ] {
            assert!(is_page(same, &page), "{same}");
        }
        for other in [
            "https://www.news.example/world/story-124/",
            "https://elsewhere.example/world/story-123/",
            "/world/",
            "#top",
            "/world/story-123#comments",
            "https://news.example/world/story-123/#section-2",
            "story-123",
            "",
        ] {
            assert!(!is_page(other, &page), "{other}");
        }
        // A home page has no path to compare: every list may link to it.
        assert_eq!(page_key("https://news.example/"), None);
        assert_eq!(page_key("news.example/a/b").map(|k| k.path), Some("/a/b"));
    }
}
