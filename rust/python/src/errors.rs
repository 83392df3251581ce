//! Raising `webgrip.errors` exceptions from Rust.
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyType};

static ERRORS_MODULE: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

/// Build a `webgrip.errors.<class_name>(message, url=..., reason=..., **extra)` as a `PyErr`.
pub fn webgrip_error(
    py: Python<'_>,
    class_name: &str,
    message: &str,
    url: Option<&str>,
    reason: Option<&str>,
    extra: &[(&str, Py<PyAny>)],
) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let module = ERRORS_MODULE
            .get_or_try_init(py, || py.import("webgrip.errors").map(|m| m.unbind()))?
            .bind(py);
        let cls = module.getattr(class_name)?.cast_into::<PyType>()?;
        let kwargs = PyDict::new(py);
        kwargs.set_item("url", url)?;
        kwargs.set_item("reason", reason)?;
        for (k, v) in extra {
            kwargs.set_item(*k, v)?;
        }
        let exc = cls.call((message,), Some(&kwargs))?;
        Ok(PyErr::from_value(exc))
    };
    build().unwrap_or_else(|e| e)
}
