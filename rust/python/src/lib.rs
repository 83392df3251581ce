//! `webgrip._core`: the native half of webgrip.
//!
//! Each submodule registers its own functions and classes; errors are raised as the Python
//! classes of `webgrip.errors`, resolved once on import (see `errors.rs`).
use pyo3::prelude::*;

mod alloc;
mod errors;
mod extract;
mod html_tree;
mod net;
mod pdf;

#[pymodule(gil_used = false)]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    alloc::keep_arenas_off_huge_pages();
    webgrip_net::on_idle(alloc::collect_idle_worker);
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // Before anything can raise: a `webgrip.errors` class missing fails this import.
    errors::load(m.py())?;
    net::register(m)?;
    extract::register(m)?;
    html_tree::register(m)?;
    pdf::register(m)?;
    Ok(())
}
