//! `webgrip._core`: the native half of webgrip.
//!
//! Each submodule registers its own functions and classes; errors are raised as the Python
//! classes of `webgrip.errors`, resolved once on import (see `errors.rs`).
use pyo3::prelude::*;

mod errors;
mod extract;
mod net;
mod pdf;

/// Only Rust's own allocations go through it; Python objects still use Python's allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[pymodule(gil_used = false)]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // Before anything can raise: a `webgrip.errors` class missing fails this import.
    errors::load(m.py())?;
    net::register(m)?;
    extract::register(m)?;
    pdf::register(m)?;
    Ok(())
}
