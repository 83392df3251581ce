//! The parsed document every view reads and the handles the views walk it with, named here
//! once for the whole crate: webgrip-html's tree (its `parse` builds it).

pub use webgrip_html::{tag, Edge, Element, Html, Kind, Node, NodeId, NodeRef, Ns};
