//! Bindings for PDF reading (`webgrip_pdf`): `extract_pdf`, run with the GIL released.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use webgrip_pdf::{Interrupted, Limits, Mode, PdfDocumentText, PdfError};

use crate::errors::{self, webgrip_error};
use crate::extract::{self, CancelToken};

/// Read a PDF into text or Markdown plus its metadata, within `timeout` seconds.
#[pyfunction]
#[pyo3(signature = (data, *, mode="text", password=None, url=None, timeout=None, cancel=None, max_pages=None))]
#[allow(clippy::too_many_arguments)]
fn extract_pdf<'py>(
    py: Python<'py>,
    data: &[u8],
    mode: &str,
    password: Option<&str>,
    url: Option<&str>,
    timeout: Option<f64>,
    cancel: Option<&CancelToken>,
    max_pages: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let mode = match mode {
        "text" => Mode::Text,
        "markdown" => Mode::Markdown,
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown mode {other:?}: expected 'text' or 'markdown'"
            )))
        }
    };
    let budget = extract::budget(timeout, cancel)?;
    let mut limits = Limits::default();
    if let Some(n) = max_pages {
        limits.max_pages = n.max(1);
    }
    match py.detach(|| webgrip_pdf::extract(data, mode, password, &limits, &budget)) {
        Ok(doc) => to_dict(py, doc),
        Err(err) => Err(to_pyerr(py, &err, url, timeout)),
    }
}

fn to_pyerr(py: Python<'_>, err: &PdfError, url: Option<&str>, timeout: Option<f64>) -> PyErr {
    let classes = match errors::load(py) {
        Ok(c) => c,
        Err(e) => return e,
    };
    let pdf_type = || -> Vec<(&str, Py<PyAny>)> {
        match "application/pdf".into_pyobject(py) {
            Ok(s) => vec![("content_type", s.into_any().unbind())],
            Err(_) => vec![],
        }
    };
    match err {
        PdfError::TooLarge { limit } => {
            let extra: Vec<(&str, Py<PyAny>)> = match limit.into_pyobject(py) {
                Ok(n) => vec![("limit", n.into_any().unbind())],
                Err(_) => vec![],
            };
            webgrip_error(
                py,
                &classes.response_too_large,
                &err.to_string(),
                url,
                Some("too-large"),
                &extra,
            )
        }
        PdfError::PasswordProtected { .. } => webgrip_error(
            py,
            &classes.unsupported_content,
            &err.to_string(),
            url,
            Some("password-protected"),
            &pdf_type(),
        ),
        PdfError::Malformed(_) => webgrip_error(
            py,
            &classes.unsupported_content,
            &err.to_string(),
            url,
            Some("malformed-pdf"),
            &pdf_type(),
        ),
        PdfError::Interrupted(why) => {
            let (message, reason) = match why {
                Interrupted::Deadline => (
                    format!(
                        "reading the page (a PDF) took longer than the {:.1} s left of the \
                         call's deadline (the document is unusually large or malformed)",
                        timeout.unwrap_or(0.0).max(0.0)
                    ),
                    "timeout",
                ),
                Interrupted::Cancelled => {
                    ("reading the page was cancelled".to_string(), "cancelled")
                }
            };
            webgrip_error(py, &classes.fetch_timeout, &message, url, Some(reason), &[])
        }
    }
}

fn to_dict(py: Python<'_>, doc: PdfDocumentText) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("content", doc.content)?;
    let m = PyDict::new(py);
    let meta = doc.metadata;
    m.set_item("title", meta.title)?;
    m.set_item("author", meta.author)?;
    m.set_item("subject", meta.subject)?;
    m.set_item("keywords", meta.keywords)?;
    m.set_item("creator", meta.creator)?;
    m.set_item("producer", meta.producer)?;
    m.set_item("created", meta.created)?;
    m.set_item("modified", meta.modified)?;
    m.set_item("pages", meta.pages)?;
    d.set_item("metadata", m)?;
    d.set_item("pages_read", doc.pages_read)?;
    d.set_item("no_text", doc.no_text)?;
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(extract_pdf, m)?)?;
    Ok(())
}
