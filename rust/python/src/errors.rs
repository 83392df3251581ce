//! Raising `webgrip.errors` exceptions from Rust.
//!
//! The classes are resolved once, when `_core` is imported ([`load`]), into [`ErrorClasses`],
//! one field per class: which class a failure becomes is then a field chosen in a `match` the
//! compiler checks, and a class renamed or removed in Python fails `import webgrip._core`
//! instead of the first error raised. `webgrip.errors` imports nothing from webgrip, so
//! importing it while `_core` initialises makes no cycle.
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyType};

/// The `webgrip.errors` classes the core raises, each checked to derive from `WebgripError`.
pub struct ErrorClasses {
    pub invalid_url: Py<PyType>,
    pub blocked_url: Py<PyType>,
    pub fetch_timeout: Py<PyType>,
    pub response_too_large: Py<PyType>,
    pub connect: Py<PyType>,
    pub proxy: Py<PyType>,
    pub http_status: Py<PyType>,
    pub download: Py<PyType>,
    pub unsupported_content: Py<PyType>,
}

static CLASSES: PyOnceLock<ErrorClasses> = PyOnceLock::new();

impl ErrorClasses {
    fn import(py: Python<'_>) -> PyResult<ErrorClasses> {
        let module = py.import("webgrip.errors")?;
        let base = module.getattr("WebgripError")?.cast_into::<PyType>()?;
        let class = |name: &str| -> PyResult<Py<PyType>> {
            let cls = module.getattr(name)?.cast_into::<PyType>()?;
            if !cls.is_subclass(&base)? {
                return Err(PyTypeError::new_err(format!(
                    "webgrip.errors.{name} must derive from WebgripError"
                )));
            }
            Ok(cls.unbind())
        };
        Ok(ErrorClasses {
            invalid_url: class("InvalidURLError")?,
            blocked_url: class("BlockedURLError")?,
            fetch_timeout: class("FetchTimeoutError")?,
            response_too_large: class("ResponseTooLargeError")?,
            connect: class("ConnectError")?,
            proxy: class("ProxyError")?,
            http_status: class("HTTPStatusError")?,
            download: class("DownloadError")?,
            unsupported_content: class("UnsupportedContentError")?,
        })
    }
}

/// Resolve the classes; called by the module's init, so a missing one fails the import.
pub fn load(py: Python<'_>) -> PyResult<&ErrorClasses> {
    CLASSES.get_or_try_init(py, || ErrorClasses::import(py))
}

/// Build `class(message, url=..., reason=..., **extra)` as a `PyErr`, `class` being one of
/// the [`ErrorClasses`].
pub fn webgrip_error(
    py: Python<'_>,
    class: &Py<PyType>,
    message: &str,
    url: Option<&str>,
    reason: Option<&str>,
    extra: &[(&str, Py<PyAny>)],
) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let kwargs = PyDict::new(py);
        kwargs.set_item("url", url)?;
        kwargs.set_item("reason", reason)?;
        for (k, v) in extra {
            kwargs.set_item(*k, v)?;
        }
        let exc = class.bind(py).call((message,), Some(&kwargs))?;
        Ok(PyErr::from_value(exc))
    };
    build().unwrap_or_else(|e| e)
}
