//! The tokenizer: HTML text to the tokens the tree builder consumes, read once with byte
//! scans (`lexer.rs`, the WHATWG tokenizer states), with a `<!DOCTYPE ...>` read by its own
//! state machine (`doctype.rs`), named character references looked up in the WHATWG table
//! (`entities.rs`, the data in `entities.txt` turned into the table by the crate's
//! `build.rs`), and the guard's caps and stripping applied while it reads (`guard/`, whose
//! string form, [`guard::defuse`], is the reference the identity tests compare with).

mod doctype;
mod entities;
pub(crate) mod guard;
mod lexer;

pub use guard::{MAX_ATTRS, MAX_DEPTH};
pub use lexer::{
    char_ref, tokenize, tokenize_fragment, tokenize_unstripped, CharRef, Outcome, Pressure,
    MAX_INPUT, MAX_OPEN,
};
