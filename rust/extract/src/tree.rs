//! The parsed document every view reads: webgrip-dom's arena tree (see `document::parse`),
//! and the handles the views walk it with.

pub use webgrip_dom::{Dom, Edge, Element, Node, NodeId, NodeRef, Ns, QuirksMode};

/// A parsed document.
#[derive(Debug)]
pub struct Html {
    /// The tree; node 0 is the document.
    pub tree: Dom,
    /// What the DOCTYPE (or its absence) set.
    pub quirks_mode: QuirksMode,
}

impl Html {
    /// A document with nothing in it but the document node.
    pub fn new_document() -> Html {
        Html {
            tree: Dom::new(),
            quirks_mode: QuirksMode::NoQuirks,
        }
    }

    /// The finished tree of `builder` (which a tokenizer has fed to the end).
    pub fn built(builder: webgrip_dom::TreeBuilder) -> Html {
        let quirks_mode = builder.quirks_mode();
        Html {
            tree: builder.into_dom(),
            quirks_mode,
        }
    }
}
