//! Documentation sites: the furniture of the generators most docs pages are built with.
//!
//! Most documentation is rendered by a handful of generators (Sphinx, MkDocs/Material,
//! Docusaurus, VitePress, Starlight, rustdoc, Javadoc, mdBook, Hugo's docs themes, ReadMe,
//! Google's DevSite, DocFX), each with its own fixed class names for the parts around the text: the
//! sidebar, the "on this page" outline, breadcrumbs, version badges, prev/next links, "edit
//! this page" and "last updated" rows, the "Source" and "Expand description" controls of an
//! API reference. The general class vocabulary catches the ones named like furniture
//! ("sidebar", "toc"); these names (`rightside`, `hideme`, `md-content__button`,
//! `theme-last-updated`) say nothing to it.
//!
//! A generator is recognised from the page's own evidence only, never from its address:
//! its `<meta name="generator">`, or a class name only it writes (its content container,
//! its page wrapper). Only then are its furniture names marked as chrome, so a shop that
//! happens to call a block `rightside` or `pager` keeps it. The generator's content
//! container becomes a main-content hint, where the root's descent starts; a pane that
//! holds the title panel beside the text (Starlight's) is where the root stays
//! (`Table::docs_pane`), or the descent would leave the title behind. The general
//! rules decide the rest (a furniture mark on a block holding most of the page's text is
//! lifted there, as for every chrome mark; pruning inside the root goes on as everywhere).
//! On a Sphinx page a section's id is its heading's slug ("respond-to-review-comments"), so
//! the words in it say nothing of the section's kind; likewise a DevSite landing page's row
//! of cards, whatever else the site calls it ("android-promo"). On every page, a figure's
//! caption beside a code block is the listing's title, not a photo caption.

use crate::tree::{Element, Html};

use super::flags::*;
use super::furniture::visible_texts;
use super::outline::Table;
use super::NONE;

/// A documentation generator, as a bit of [`Seen`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u16)]
enum Generator {
    Sphinx = 1 << 0,
    MkDocs = 1 << 1,
    Docusaurus = 1 << 2,
    VitePress = 1 << 3,
    Rustdoc = 1 << 4,
    Javadoc = 1 << 5,
    MdBook = 1 << 6,
    Docsy = 1 << 7,
    HugoBook = 1 << 8,
    ReadMe = 1 << 9,
    Starlight = 1 << 10,
    DevSite = 1 << 11,
    DocFx = 1 << 12,
}

use Generator::*;

/// The generators recognised on a page, as a bit set.
type Seen = u16;

/// What a class name or id tells about a generator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Only this generator writes it: the page was built by it.
    Mark,
    /// Its page furniture (chrome when the generator is recognised).
    Furniture,
    /// Its content container: a mark too, and a main-content hint (`F_MAIN_HINT`) once the
    /// generator is recognised, where the root's descent starts unless it holds too little
    /// of the page's text.
    Container,
    /// Its content container under a name other sites use too (`#main-content`): a
    /// main-content hint once the generator is recognised, and no evidence of it.
    SharedContainer,
    /// The pane holding both the page's title panel and its text (a mark too): the root
    /// starts there and stays (`Table::docs_pane`), since the descent that finds the
    /// content of an unknown page would leave the title panel beside the text behind.
    Pane,
    /// A row of a landing page the generator lays out (a mark too): its other class names
    /// are the site's own ("android-promo" on a row of course cards) and say nothing of
    /// the row's kind, so what they would mark is cleared once the generator is known.
    Row,
    /// A heading's own class whose words say where it scrolls to, not what it is (a mark
    /// too): Docusaurus writes `anchorWithStickyNavbar_LWe7` on every heading of a page, and
    /// "navbar" in it would make the heading navigation. Cleared like a [`Role::Row`]'s names
    /// once the generator is known.
    Anchor,
    /// One of a set of alternative panels the reader picks between (a mark too): DocFX's
    /// pivot zones, one per programming language, interleaved through the article. A tab
    /// panel (`F_COLLAPSIBLE`) once the generator is known, so each keeps the lines it
    /// repeats from its siblings (each language's copy of a note) and its links.
    Panel,
}

/// The generator an element id belongs to and what it is there (exact names).
fn id_role(id: &str) -> Option<(Seen, Role)> {
    let (g, role) = match id {
        "main-content" => (Rustdoc, Role::SharedContainer),
        "toggle-all-docs" => (Rustdoc, Role::Furniture),
        "mdbook-help-container" => (MdBook, Role::Mark),
        _ => return None,
    };
    Some((g as Seen, role))
}

/// Whether [`class_role`] knows the class name (see `ClassFacts::docs`).
pub(super) fn has_class_role(name: &str) -> bool {
    class_role(name).is_some()
}

/// The generator a class name belongs to and what it is there. Exact, case-sensitive names,
/// as the generators write them.
fn class_role(name: &str) -> Option<(Seen, Role)> {
    use Role::*;
    // A heading's permalink ("¶", or "#" in the PyData theme): Sphinx writes it, and so does
    // the Python-Markdown outline behind MkDocs.
    if name == "headerlink" {
        return Some((Sphinx as Seen | MkDocs as Seen, Furniture));
    }
    if is_docusaurus_anchor(name) {
        return Some((Docusaurus as Seen, Anchor));
    }
    let (g, role) = match name {
        // Sphinx: the basic theme, Read the Docs, PyData, Furo.
        "sphinxsidebar"
        | "sphinxsidebarwrapper"
        | "rst-content"
        | "wy-nav-content"
        | "bd-article-container" => (Sphinx, Mark),
        "rst-footer-buttons"
        | "wy-breadcrumbs"
        | "wy-nav-side"
        | "prev-next-area"
        | "prev-next-footer"
        | "bd-sidebar-primary"
        | "bd-sidebar-secondary"
        | "bd-header-article"
        | "edit-this-page"
        | "view-this-page"
        | "related-pages"
        | "toc-drawer"
        | "sidebar-drawer" => (Sphinx, Furniture),
        // MkDocs (Material).
        "md-content" | "md-main__inner" => (MkDocs, Mark),
        "md-content__inner" => (MkDocs, Container),
        "md-sidebar" | "md-content__button" | "md-source-file" | "md-footer" | "md-header"
        | "md-tabs" | "md-feedback" | "md-path" => (MkDocs, Furniture),
        // Docusaurus.
        "docs-doc-page" | "plugin-docs" => (Docusaurus, Mark),
        "theme-doc-markdown" => (Docusaurus, Container),
        "theme-doc-sidebar-container"
        | "theme-doc-toc-desktop"
        | "theme-doc-toc-mobile"
        | "theme-doc-breadcrumbs"
        | "theme-doc-footer"
        | "pagination-nav"
        | "theme-doc-version-badge"
        | "theme-doc-version-banner"
        | "theme-edit-this-page"
        | "theme-last-updated" => (Docusaurus, Furniture),
        // VitePress.
        "VPDoc" => (VitePress, Mark),
        "vp-doc" => (VitePress, Container),
        "VPDocFooter" | "VPDocAside" | "VPDocAsideOutline" | "VPSidebar" | "VPLocalNav"
        | "VPLastUpdated" | "edit-link" | "prev-next" => (VitePress, Furniture),
        // rustdoc: a method's "Source" link and version, its "§" anchor, "Expand description".
        "rustdoc" => (Rustdoc, Mark),
        "rightside"
        | "anchor"
        | "hideme"
        | "out-of-band"
        | "rustdoc-breadcrumbs"
        | "rustdoc-toolbar" => (Rustdoc, Furniture),
        // Javadoc.
        "contentContainer" | "flex-content" => (Javadoc, Mark),
        "top-nav" | "sub-nav" | "bottom-nav" | "flex-header" | "legal-copy" | "skip-nav" => {
            (Javadoc, Furniture)
        }
        // mdBook.
        "sidebar-scrollbox" => (MdBook, Mark),
        "nav-chapters" | "mobile-nav-chapters" | "nav-wrapper" | "menu-bar" => (MdBook, Furniture),
        // A code block's hidden lines (`# use std::io;` in the source): the book shows the
        // block without them, and an eye button would bring them in.
        "boring" => (MdBook, Furniture),
        // Hugo: Docsy and Book.
        "td-main" => (Docsy, Mark),
        "td-content" => (Docsy, Container),
        "td-sidebar"
        | "td-sidebar-toc"
        | "td-page-meta"
        | "td-breadcrumbs"
        | "feedback--title"
        | "td-page-meta__lastmod" => (Docsy, Furniture),
        "book-page" => (HugoBook, Mark),
        "book-menu" | "book-toc" | "book-header" | "book-footer" => (HugoBook, Furniture),
        // Starlight (Astro): the pane holding the title panel and the Markdown, and the
        // footer rows under it.
        "sl-markdown-content" => (Starlight, Mark),
        "main-pane" => (Starlight, Pane),
        "pagination-links" | "kudos" | "meta" => (Starlight, Furniture),
        // Google's DevSite (developer.android.com, cloud.google.com, ai.google.dev): its
        // article body, and the rows of cards its landing pages are built of.
        "devsite-article-body" => (DevSite, Mark),
        "devsite-landing-row" => (DevSite, Row),
        // Its buttons: calls to action ("Get it on Kaggle", "Get started for free").
        "button" => (DevSite, Furniture),
        // DocFX (Microsoft Learn): the zones of a page's language pivot.
        "has-pivot" => (DocFx, Panel),
        // ReadMe.
        "rm-Article" => (ReadMe, Container),
        "rm-Sidebar" | "rm-Pagination" | "rm-Header" | "UpdatedAt" => (ReadMe, Furniture),
        _ => return None,
    };
    Some((g as Seen, role))
}

/// A Docusaurus heading's CSS-module class: "anchorWith" or "anchorTarget", how the heading
/// sits under the navbar when a link scrolls to it, and the module's hash
/// (`anchorWithStickyNavbar_LWe7`, `anchorTargetHideOnScrollNavbar_qJOx`).
fn is_docusaurus_anchor(name: &str) -> bool {
    (name.starts_with("anchorWith") || name.starts_with("anchorTarget")) && name.contains("Navbar_")
}

/// The generator a `<meta name="generator">` names (its first word, any case: "Sphinx 7.2",
/// "Docutils 0.19", "mkdocs-1.6.1, mkdocs-material-9.5", "Docusaurus v3", "VitePress v1",
/// "rustdoc", "javadoc/ClassWriter").
fn meta_generator(content: &str) -> Option<Generator> {
    let word: String = content
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    Some(match word.as_str() {
        "sphinx" | "docutils" => Sphinx,
        "mkdocs" => MkDocs,
        "docusaurus" => Docusaurus,
        "vitepress" => VitePress,
        "rustdoc" => Rustdoc,
        "javadoc" => Javadoc,
        "mdbook" => MdBook,
        "starlight" => Starlight,
        _ => return None,
    })
}

/// What the outline's walk (`Table::build`) notes for [`Table::mark_docs_furniture`], so that
/// the pass reads no attribute again: the generators seen, and the elements a generator's
/// classes or ids name, with the flag each gets once that generator is known to be there.
#[derive(Default)]
pub(super) struct DocsNotes {
    seen: Seen,
    /// Element, generator, flag to add, and whether it is the generator's pane.
    candidates: Vec<(u32, Seen, Flags, bool)>,
    /// The page's `<figcaption>` elements (see [`Table::mark_docs_furniture`]).
    captions: Vec<u32>,
    /// Sections named by an id alone (`<section id="respond-to-review-comments">`, or
    /// docutils' older `<div class="section" id=...>`): on a Sphinx page the id is the slug
    /// of the section's heading, which says what the section is about, not what kind of
    /// block it is.
    slugged: Vec<u32>,
    /// Headings with an id and no class (see [`Table::mark_docs_furniture`]).
    headings: Vec<u32>,
    /// A generator's landing-page rows and headings' anchor classes, with their generator
    /// (see [`Role::Row`] and [`Role::Anchor`]): their class names are cleared.
    rows: Vec<(u32, Seen)>,
}

/// What a class name or id says of a block's kind: cleared from a Sphinx section whose id
/// is its heading's slug.
fn name_flags() -> Flags {
    F_COMMENTS
        | F_COLLAPSIBLE
        | F_SIDEBAR
        | F_POSTER
        | F_USERNAME
        | F_DISCLAIMER
        | F_HIDE_CLASS
        | F_CAPTION
        | F_REVIEW
        | F_CHROME_CLASS
        | F_NAVLIKE
        | F_TOKEN_NEG
        | F_POSITIVE
}

impl DocsNotes {
    /// Note element `i` of the table (`el`, named `name`, with its `class` and `id`
    /// attributes as `Attrs` read them: the first of each name in no namespace;
    /// `class_roles`: a class name has a [`class_role`], known from the class memo).
    pub(super) fn note(
        &mut self,
        i: u32,
        el: Element<'_>,
        name: &str,
        class: Option<&str>,
        id: Option<&str>,
        class_roles: bool,
    ) {
        if name == "figcaption" {
            self.captions.push(i);
        }
        let sectioned = match class {
            None => name == "section",
            Some(c) => name == "div" && c == "section",
        };
        if sectioned && id.is_some() {
            self.slugged.push(i);
        }
        if class.is_none()
            && id.is_some_and(|v| !v.is_empty())
            && matches!(name, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
        {
            self.headings.push(i);
        }
        if name == "meta" {
            if el
                .attr("name")
                .is_some_and(|n| n.eq_ignore_ascii_case("generator"))
            {
                if let Some(g) = el.attr("content").and_then(meta_generator) {
                    self.seen |= g as Seen;
                }
            }
            return;
        }
        let roles = class
            .filter(|_| class_roles)
            .into_iter()
            .flat_map(str::split_ascii_whitespace)
            .filter_map(class_role)
            .chain(id.and_then(id_role));
        for role in roles {
            match role {
                (g, Role::Mark) => self.seen |= g,
                (g, Role::Furniture) => self.candidates.push((i, g, F_CHROME_CLASS, false)),
                (g, Role::Container) => {
                    self.seen |= g;
                    self.candidates.push((i, g, F_MAIN_HINT, false));
                }
                (g, Role::SharedContainer) => self.candidates.push((i, g, F_MAIN_HINT, false)),
                (g, Role::Pane) => {
                    self.seen |= g;
                    self.candidates.push((i, g, F_MAIN_HINT, true));
                }
                (g, Role::Panel) => {
                    self.seen |= g;
                    self.candidates.push((i, g, F_COLLAPSIBLE, false));
                }
                (g, Role::Row | Role::Anchor) => {
                    self.seen |= g;
                    self.rows.push((i, g));
                }
            }
        }
    }
}

impl Table {
    /// Mark the furniture of every documentation generator the page shows evidence of as
    /// chrome, and its content container as a main-content hint (see the module
    /// documentation). One pass over the table; furniture is marked
    /// only once its generator is known, so the pass keeps the candidates it met.
    ///
    /// On every page, a figure's caption beside a code block (a book's "Listing 10-12: A
    /// trait with one method") is the listing's title, part of the text as a heading is:
    /// captions are chrome by tag only because photo captions are (see `classify`).
    ///
    /// On every page, a heading whose id spells its own text (`<h3 id="Login_shell">Login
    /// shell</h3>`, `id="resource-sharing-and-communication"`) is named by what it says, not
    /// by what kind of block it is, as a Sphinx section's slug is: "login", "sharing",
    /// "filtering", "discussion" in it say nothing of furniture. Only headings without a
    /// class are asked, so a class naming a widget's title still counts.
    pub(super) fn mark_docs_furniture(&mut self, doc: &Html) {
        let DocsNotes {
            seen,
            candidates,
            captions,
            slugged,
            headings,
            rows,
        } = std::mem::take(&mut self.docs_notes);
        self.docs_generators = seen;
        if seen & Sphinx as Seen != 0 {
            for i in slugged {
                self.items[i as usize].flags &= !name_flags();
            }
        }
        for (i, g) in rows {
            if seen & g != 0 {
                self.items[i as usize].flags &= !name_flags();
            }
        }
        for h in headings {
            if self.spells_its_id(doc, h) {
                self.items[h as usize].flags &= !name_flags();
            }
        }
        for c in captions {
            if self.captions_code(c) {
                self.items[c as usize].flags &= !F_CHROME_TAG;
            }
        }
        for (i, g, flag, pane) in candidates {
            if seen & g != 0 {
                self.items[i as usize].flags |= flag;
                if pane && self.docs_pane == NONE {
                    self.docs_pane = i;
                }
            }
        }
    }

    /// Whether heading `h`'s visible text and its id hold the same letters and digits, case
    /// aside (the id is the text's slug). Both are short: the text is read only up to the
    /// id's length.
    fn spells_its_id(&self, doc: &Html, h: u32) -> bool {
        let Some(node) = doc.tree.get(self.items[h as usize].id) else {
            return false;
        };
        let Some(id) = node.value().as_element().and_then(|el| el.attr("id")) else {
            return false;
        };
        let fold = |c: char| c.to_lowercase();
        let mut want = id.chars().filter(|c| c.is_alphanumeric()).flat_map(fold);
        let mut any = false;
        for t in visible_texts(node) {
            for c in t.chars().filter(|c| c.is_alphanumeric()).flat_map(fold) {
                if want.next() != Some(c) {
                    return false;
                }
                any = true;
            }
        }
        any && want.next().is_none()
    }

    /// Whether caption `c`'s figure holds a code block (`<pre>`) outside the caption.
    fn captions_code(&self, c: u32) -> bool {
        let figure = self.items[c as usize].parent;
        if figure == NONE {
            return false;
        }
        let caption = c..self.items[c as usize].end;
        (figure + 1..self.items[figure as usize].end)
            .filter(|j| !caption.contains(j))
            .any(|j| self.items[j as usize].flags & (F_CODE | F_PARA) == F_CODE | F_PARA)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flags of the element titled `t` of `html` before and after the pass.
    fn pass(html: &str, t: &str) -> (Flags, Flags) {
        let doc = crate::document::parse(html);
        let mut table = Table::build(&doc, None);
        let at = table
            .items
            .iter()
            .position(|it| {
                doc.tree
                    .get(it.id)
                    .and_then(|n| n.value().as_element())
                    .is_some_and(|el| el.attr("title") == Some(t))
            })
            .expect("the page holds the element");
        let before = table.items[at].flags;
        table.mark_docs_furniture(&doc);
        (before, table.items[at].flags)
    }

    /// Whether the element titled `t` is chrome by class after the pass.
    fn chrome(html: &str, t: &str) -> bool {
        pass(html, t).1.has_any(F_CHROME_CLASS)
    }

    /// Whether the pass left the element titled `t` as it found it.
    fn untouched(html: &str, t: &str) -> bool {
        let (before, after) = pass(html, t);
        before == after
    }

    fn page(evidence: &str, element: &str) -> String {
        format!(
            "<html><head><title>T</title>{evidence}</head><body>{element}\
             <p>Every page of the manual says what a setting does before it says how.</p>\
             </body></html>"
        )
    }

    /// Each generator's evidence (a generator meta or a class only it writes) and its
    /// furniture, as class names or `#id`.
    const CASES: &[(&str, &[&str])] = &[
        (
            r#"<meta name="generator" content="Sphinx 7.2.6">"#,
            &[
                "rst-footer-buttons",
                "wy-breadcrumbs",
                "wy-nav-side",
                "prev-next-area",
                "prev-next-footer",
                "bd-sidebar-primary",
                "bd-sidebar-secondary",
                "bd-header-article",
                "edit-this-page",
                "view-this-page",
                "related-pages",
                "toc-drawer",
                "sidebar-drawer",
            ],
        ),
        (
            r#"<meta name="generator" content="mkdocs-1.6.1, mkdocs-material-9.5.40">"#,
            &[
                "md-sidebar",
                "md-content__button",
                "md-source-file",
                "md-footer",
                "md-header",
                "md-tabs",
                "md-feedback",
                "md-path",
            ],
        ),
        (
            r#"<meta name="generator" content="Docusaurus v3.5.2">"#,
            &[
                "theme-doc-sidebar-container",
                "theme-doc-toc-desktop",
                "theme-doc-toc-mobile",
                "theme-doc-breadcrumbs",
                "theme-doc-footer",
                "pagination-nav",
                "theme-doc-version-badge",
                "theme-doc-version-banner",
                "theme-edit-this-page",
                "theme-last-updated",
            ],
        ),
        (
            r#"<meta name="generator" content="VitePress v1.5.0">"#,
            &[
                "VPDocFooter",
                "VPDocAside",
                "VPDocAsideOutline",
                "VPSidebar",
                "VPLocalNav",
                "VPLastUpdated",
                "edit-link",
                "prev-next",
            ],
        ),
        (
            r#"<meta name="generator" content="rustdoc">"#,
            &[
                "rightside",
                "anchor",
                "hideme",
                "out-of-band",
                "rustdoc-breadcrumbs",
                "rustdoc-toolbar",
                "#toggle-all-docs",
            ],
        ),
        (
            r#"<meta name="generator" content="javadoc/ClassWriter">"#,
            &[
                "top-nav",
                "sub-nav",
                "bottom-nav",
                "flex-header",
                "legal-copy",
                "skip-nav",
            ],
        ),
        (
            r#"<meta name="generator" content="mdBook 0.4.40">"#,
            &[
                "nav-chapters",
                "mobile-nav-chapters",
                "nav-wrapper",
                "menu-bar",
                "boring",
            ],
        ),
        (
            r#"<link rel="x"></head><body><div class="td-main"></div>"#,
            &[
                "td-sidebar",
                "td-sidebar-toc",
                "td-page-meta",
                "td-breadcrumbs",
                "feedback--title",
                "td-page-meta__lastmod",
            ],
        ),
        (
            r#"<link rel="x"></head><body><div class="book-page"></div>"#,
            &["book-menu", "book-toc", "book-header", "book-footer"],
        ),
        (
            r#"<link rel="x"></head><body><div class="rm-Article"></div>"#,
            &["rm-Sidebar", "rm-Pagination", "rm-Header", "UpdatedAt"],
        ),
        (
            r#"<meta name="generator" content="Starlight v0.28.2">"#,
            &["pagination-links", "kudos", "meta"],
        ),
        (
            r#"<link rel="x"></head><body><div class="devsite-article-body"></div>"#,
            &["button"],
        ),
    ];

    fn furniture(name: &str) -> String {
        match name.strip_prefix('#') {
            Some(id) => format!(r#"<div id="{id}" title="f">Furniture</div>"#),
            None => format!(r#"<div class="x {name}" title="f">Furniture</div>"#),
        }
    }

    #[test]
    fn each_generators_furniture_is_chrome_on_its_own_pages_only() {
        for (n, (evidence, names)) in CASES.iter().enumerate() {
            // Another generator's page: its evidence says nothing about these names.
            let (other, _) = CASES[(n + 1) % CASES.len()];
            for name in names.iter() {
                assert!(
                    chrome(&page(evidence, &furniture(name)), "f"),
                    "{name} on {evidence}"
                );
                for elsewhere in [other, ""] {
                    let html = page(elsewhere, &furniture(name));
                    assert!(untouched(&html, "f"), "{name} marked on {elsewhere:?}");
                }
            }
        }
    }

    #[test]
    fn a_generator_class_is_evidence_too() {
        // One furniture name of each generator, titled by the class that marks its pages.
        let furniture = [
            ("sphinxsidebar", "rst-footer-buttons"),
            ("md-content", "md-content__button"),
            ("plugin-docs", "theme-last-updated"),
            ("VPDoc", "VPLastUpdated"),
            ("rustdoc", "rightside"),
            ("contentContainer", "legal-copy"),
            ("sidebar-scrollbox", "nav-chapters"),
            ("td-main", "td-page-meta"),
            ("book-page", "book-toc"),
            ("rm-Article", "UpdatedAt"),
            ("sl-markdown-content", "kudos"),
        ];
        let body: String = furniture
            .iter()
            .map(|(mark, name)| format!(r#"<span class="{name}" title="{mark}">F</span>"#))
            .collect();
        for (mark, _) in furniture {
            let html = page(
                &format!(r#"</head><body><div class="{mark}"></div>"#),
                &body,
            );
            for (other, _) in furniture {
                if other == mark {
                    assert!(chrome(&html, other), "{mark}: its own furniture");
                } else {
                    assert!(untouched(&html, other), "{mark}: {other}'s furniture");
                }
            }
        }
    }

    #[test]
    fn a_shared_container_name_is_no_evidence() {
        let html = page(
            "",
            r#"<div id="main-content" title="c"><p>Body.</p><span class="rightside" title="f">S</span></div>"#,
        );
        assert!(untouched(&html, "c"));
        assert!(untouched(&html, "f"));
    }

    #[test]
    fn permalinks_are_furniture_on_sphinx_and_mkdocs_pages() {
        let link = r##"<h2>Setup<a class="headerlink" href="#setup" title="f">¶</a></h2>"##;
        for g in ["Sphinx 7.2", "Docutils 0.21", "mkdocs-1.6.1"] {
            let evidence = format!(r#"<meta name="generator" content="{g}">"#);
            assert!(chrome(&page(&evidence, link), "f"), "{g}");
        }
        let docusaurus = r#"<meta name="generator" content="Docusaurus v3">"#;
        assert!(untouched(&page(docusaurus, link), "f"));
    }

    #[test]
    fn a_sphinx_sections_id_is_its_headings_slug() {
        let sections = [
            r#"<section id="comments" title="c"><h2>Comments</h2><p>Text.</p></section>"#,
            r#"<div class="section" id="sidebar" title="c"><h2>Sidebar</h2></div>"#,
        ];
        for section in sections {
            let sphinx = page(r#"<meta name="generator" content="Sphinx 7.2">"#, section);
            let (before, after) = pass(&sphinx, "c");
            assert!(before.has_any(F_COMMENTS | F_SIDEBAR), "{section}");
            assert!(after.has_none(F_COMMENTS | F_SIDEBAR), "{section}");
            assert!(untouched(&page("", section), "c"), "{section}");
        }
        // A class says what kind of block it is, on Sphinx pages too.
        let classed = r#"<section class="comments" id="c1" title="c"><p>Text.</p></section>"#;
        let sphinx = page(r#"<meta name="generator" content="Sphinx 7.2">"#, classed);
        assert!(untouched(&sphinx, "c"));
    }

    #[test]
    fn a_code_listings_caption_is_not_chrome_a_photos_is() {
        let listing = r#"<figure><pre><code>fn main() {}</code></pre><figcaption title="c">Listing 1-1: <code>main</code></figcaption></figure>"#;
        let (before, after) = pass(&page("", listing), "c");
        assert!(before.has_any(F_CHROME_TAG));
        assert!(after.has_none(F_CHROME_TAG));
        // Code in the caption alone is no listing.
        let photo = r#"<figure><img src="a.jpg" alt=""><figcaption title="c">The <code>main</code> hall</figcaption></figure>"#;
        assert!(untouched(&page("", photo), "c"));
    }

    #[test]
    fn a_recognised_generators_container_is_a_main_hint() {
        for (evidence, container) in [
            (
                "",
                r#"<div class="md-content__inner md-typeset" title="c">"#,
            ),
            ("", r#"<div class="theme-doc-markdown markdown" title="c">"#),
            ("", r#"<div class="vp-doc _guide" title="c">"#),
            (
                r#"<meta name="generator" content="rustdoc">"#,
                r#"<div id="main-content" class="content" title="c">"#,
            ),
            ("", r#"<div class="td-content" title="c">"#),
            ("", r#"<div class="rm-Article" title="c">"#),
        ] {
            let html = page(evidence, &format!("{container}<p>Body text.</p></div>"));
            let (before, after) = pass(&html, "c");
            assert!(before.has_none(F_MAIN_HINT), "{container}");
            assert!(after.has_any(F_MAIN_HINT), "{container}");
        }
    }
}
