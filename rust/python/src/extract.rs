//! Bindings for HTML extraction (`webgrip_extract`): `decode_body`, `extract_document`,
//! `scan_challenge`, `script_shell_reason`, and the development hook
//! `readable_blocks`.
//!
//! Decoding, parsing and every view run with the GIL released; only the conversion of the
//! owned results into Python objects happens attached.
use std::borrow::Cow;
use std::net::IpAddr;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyFrozenSet, PyList, PyString, PyTuple};

use webgrip_extract::{
    decode_body_borrowed, reduce_images, shell_reason, Budget, Extracted, Frame, Interrupted, Link,
    Metadata, Modes, ReadableBlock, ReadableScorer, Table, CHALLENGE_MAX_TEXT_CHARS,
    DOMAIN_TRACKING_PARAMS, READABLE_FLAG_NAMES, SHELL_MAX_TEXT_CHARS, TRACKING_PARAMS,
    VOID_ELEMENTS,
};
use webgrip_net::{url_host, Policy, PolicyConfig};

use crate::errors::{self, webgrip_error};

/// Decode a body to text: BOM, Content-Type charset, `<meta>` prescan, detection.
#[pyfunction]
#[pyo3(signature = (content, content_type=None))]
fn decode_body(
    py: Python<'_>,
    content: &[u8],
    content_type: Option<&str>,
) -> (String, &'static str) {
    py.detach(|| webgrip_extract::decode_body(content, content_type))
}

/// Whether a fetched HTML page is a bot check (see rust/extract/src/challenge.rs): `None` for
/// a page with more readable text than a challenge page has (most pages), else a dict with
/// `text_chars`, `forms`, `password_inputs`, and `kind`/`vendor` (`None` when no marker of
/// a bot check decided it).
#[pyfunction]
fn scan_challenge<'py>(
    py: Python<'py>,
    content: &[u8],
    status: u16,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let Some(scan) = py.detach(|| webgrip_extract::scan_challenge(content, status)) else {
        return Ok(None);
    };
    let d = PyDict::new(py);
    d.set_item("text_chars", scan.text_chars)?;
    d.set_item("forms", scan.forms)?;
    d.set_item("password_inputs", scan.password_inputs)?;
    d.set_item("kind", scan.verdict.map(|v| v.kind.as_str()))?;
    d.set_item("vendor", scan.verdict.and_then(|v| v.vendor))?;
    Ok(Some(d))
}

/// Why a fetched HTML page looks like an app shell its scripts build (see
/// rust/extract/src/shell.rs: one linear pass, run by `render="auto"` on every HTML page), or
/// `None`. A panic in the scan (a bug) answers `None`: the static page is then used, as for
/// any page that is no shell.
#[pyfunction]
fn script_shell_reason(py: Python<'_>, html: &[u8]) -> Option<String> {
    py.detach(|| {
        catch_unwind(|| shell_reason(html).map(|r| r.to_string()))
            .ok()
            .flatten()
    })
}

/// The readable selection's text blocks with their features, one dict per block in document
/// order (development tooling for `training/readable.py`, issue 33; see
/// `webgrip_extract::readable::features`). Bytes are decoded as `extract_document` decodes
/// them. Parse and selection run without the GIL; a panic (a bug) is the same typed error
/// `extract_document` raises.
#[pyfunction]
#[pyo3(signature = (html, url=None))]
fn readable_blocks<'py>(
    py: Python<'py>,
    html: &Bound<'py, PyAny>,
    url: Option<&str>,
) -> PyResult<Bound<'py, PyList>> {
    let (blocks, scores) =
        with_blocks(
            py,
            html,
            url,
            |blocks| match webgrip_extract::readable_builtin_model() {
                Some(model) => model.scores(blocks),
                None => vec![f32::NAN; blocks.len()],
            },
        )?;
    let list = PyList::empty(py);
    for (b, score) in blocks.into_iter().zip(scores) {
        let d = block_dict(py, b)?;
        d.set_item(intern!(py, "score"), score)?;
        list.append(d)?;
    }
    Ok(list)
}

/// The block scorer's feature rows of `readable_blocks(html, url)`'s blocks, as little-endian
/// `float32`, `READABLE_FEATURE_NAMES` columns per row, then with `context` the
/// `READABLE_CONTEXT_NAMES` columns (development tooling for `training/readable.py`: the
/// model is trained on the very numbers the core scores).
#[pyfunction]
#[pyo3(signature = (html, url=None, context=false))]
fn readable_features<'py>(
    py: Python<'py>,
    html: &Bound<'py, PyAny>,
    url: Option<&str>,
    context: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let (_, bytes) = with_blocks(py, html, url, |blocks| {
        let mut out = Vec::new();
        let extra = if context {
            webgrip_extract::readable_context_rows(blocks)
        } else {
            Vec::new()
        };
        for (i, row) in webgrip_extract::readable_feature_rows(blocks)
            .into_iter()
            .enumerate()
        {
            for v in row.iter().chain(extra.get(i).into_iter().flatten()) {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        out
    })?;
    Ok(PyBytes::new(py, &bytes))
}

/// Decode `html` (str, or bytes as `extract_document` decodes them), parse it and read its
/// readable blocks, then `then` of them, all without the GIL; a panic (a bug) is the same
/// typed error `extract_document` raises.
fn with_blocks<T: Send>(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    url: Option<&str>,
    then: impl Fn(&[ReadableBlock]) -> T + Sync,
) -> PyResult<(Vec<ReadableBlock>, T)> {
    let run = |text: &str| {
        catch_unwind(AssertUnwindSafe(|| {
            let doc = webgrip_extract::parse(text);
            let blocks = webgrip_extract::readable_blocks(&doc, url);
            let derived = then(&blocks);
            (blocks, derived)
        }))
    };
    let out = if let Ok(s) = html.cast::<PyString>() {
        let text = s.to_cow()?;
        py.detach(|| run(&text))
    } else if let Ok(b) = html.cast::<PyBytes>() {
        let bytes = b.as_bytes();
        py.detach(|| run(&decode_body_borrowed(bytes, None).0))
    } else {
        return Err(PyTypeError::new_err("html must be str or bytes"));
    };
    out.map_err(|_| parser_failed(py, url))
}

fn block_dict(py: Python<'_>, b: ReadableBlock) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(intern!(py, "text"), b.text)?;
    d.set_item(intern!(py, "tag"), b.tag)?;
    d.set_item(intern!(py, "chars"), b.chars)?;
    d.set_item(intern!(py, "link_chars"), b.link_chars)?;
    d.set_item(intern!(py, "words"), b.words)?;
    d.set_item(intern!(py, "punct"), b.punct)?;
    d.set_item(intern!(py, "depth"), b.depth)?;
    d.set_item(intern!(py, "flags"), b.flags)?;
    d.set_item(intern!(py, "ancestor_flags"), b.ancestor_flags)?;
    d.set_item(intern!(py, "subtree_chars"), b.subtree_chars)?;
    d.set_item(intern!(py, "subtree_link_chars"), b.subtree_link_chars)?;
    d.set_item(intern!(py, "subtree_links"), b.subtree_links)?;
    d.set_item(intern!(py, "subtree_good"), b.subtree_good)?;
    d.set_item(intern!(py, "parent_chars"), b.parent_chars)?;
    d.set_item(intern!(py, "level"), b.level)?;
    d.set_item(intern!(py, "same_kind_siblings"), b.same_kind_siblings)?;
    d.set_item(intern!(py, "position"), b.position)?;
    d.set_item(intern!(py, "text_before"), b.text_before)?;
    d.set_item(intern!(py, "article"), b.article)?;
    d.set_item(intern!(py, "product"), b.product)?;
    d.set_item(intern!(py, "forum"), b.forum)?;
    d.set_item(intern!(py, "in_scope"), b.in_scope)?;
    Ok(d)
}

/// A flag another thread raises to stop an extraction (an asyncio task that was cancelled
/// while its worker thread parses).
#[pyclass(module = "webgrip._core", frozen)]
#[derive(Default)]
pub struct CancelToken(Arc<AtomicBool>);

/// The budget of one extraction: a deadline `timeout` seconds from now (none without one) and
/// the caller's cancel flag. Shared by the HTML and PDF entry points.
pub fn budget(timeout: Option<f64>, cancel: Option<&CancelToken>) -> PyResult<Budget> {
    let deadline = match timeout {
        None => None,
        Some(t) if t.is_nan() => {
            return Err(PyValueError::new_err("timeout must be a number of seconds"))
        }
        // Already spent (a caller's remaining time can reach zero): stop at once.
        Some(t) if t <= 0.0 => Some(Instant::now()),
        Some(t) => Duration::try_from_secs_f64(t)
            .ok()
            .and_then(|d| Instant::now().checked_add(d)),
    };
    Ok(Budget {
        deadline,
        cancel: cancel.map(CancelToken::flag),
    })
}

impl CancelToken {
    /// The shared flag, for other extractors' budgets (PDF).
    pub fn flag(&self) -> Arc<AtomicBool> {
        self.0.clone()
    }
}

#[pymethods]
impl CancelToken {
    #[new]
    fn new() -> Self {
        CancelToken::default()
    }

    /// Stop every extraction given this token, within a few milliseconds.
    fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    #[getter]
    fn cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// The tracking-parameter rules (built-in lists plus a client's extra rules), compiled once
/// and handed to every extraction.
#[pyclass(module = "webgrip._core", frozen)]
struct TrackingRules(Arc<webgrip_extract::TrackingRules>);

#[pymethods]
impl TrackingRules {
    #[new]
    #[pyo3(signature = (extra=Vec::new()))]
    fn new(extra: Vec<String>) -> Self {
        TrackingRules(Arc::new(webgrip_extract::TrackingRules::new(&extra)))
    }

    /// `url` without its tracking query parameters, every other byte kept.
    fn strip<'py>(
        slf: &Bound<'py, Self>,
        url: &Bound<'py, PyString>,
    ) -> PyResult<Bound<'py, PyString>> {
        let text = url.to_cow()?;
        Ok(match slf.get().0.strip(&text) {
            std::borrow::Cow::Borrowed(_) => url.clone(),
            std::borrow::Cow::Owned(stripped) => PyString::new(slf.py(), &stripped),
        })
    }

    /// Whether the query parameter `name` (decoded) is tracking on `host`.
    #[pyo3(signature = (name, host=""))]
    fn is_tracking_param(&self, name: &str, host: &str) -> bool {
        self.0.is_tracking_param(name, host)
    }
}

/// Parse once and build the requested views plus metadata, within `timeout` seconds.
#[pyfunction]
#[pyo3(signature = (html, *, url=None, modes=vec!["markdown".to_string()], main_content=false, content_type=None, timeout=None, cancel=None, tracking=None, refuse_internal_images=false, frame_marker=None, readable_model=true, readable_scores=None))]
#[allow(clippy::too_many_arguments)]
fn extract_document<'py>(
    py: Python<'py>,
    html: &Bound<'py, PyAny>,
    url: Option<&str>,
    modes: Vec<String>,
    main_content: bool,
    content_type: Option<&str>,
    timeout: Option<f64>,
    cancel: Option<&CancelToken>,
    tracking: Option<&Bound<'py, TrackingRules>>,
    refuse_internal_images: bool,
    frame_marker: Option<&str>,
    readable_model: bool,
    readable_scores: Option<(Vec<f32>, f32)>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut wanted = Modes::default();
    for m in &modes {
        if wanted.add(m).is_none() {
            return Err(PyValueError::new_err(format!(
                "unknown mode {m:?}: expected any of 'markdown', 'text', 'links', 'tables', 'metadata'"
            )));
        }
    }
    let budget = budget(timeout, cancel)?;
    let rules = tracking.map(|t| t.get().0.clone());
    let options = webgrip_extract::Options {
        main_content,
        tracking: rules.as_deref(),
        frame_marker: frame_marker.filter(|m| !m.is_empty()),
        readable: match (&readable_scores, readable_model) {
            (Some((scores, low)), _) => ReadableScorer::Given { scores, low: *low },
            (None, true) => ReadableScorer::Model,
            (None, false) => ReadableScorer::Rules,
        },
    };
    let run = |text: &str| {
        let mut turn = crate::alloc::Extraction::begin(&budget)?;
        let mut out = webgrip_extract::extract(text, url, wanted, options, &budget)?;
        if python_objects(&out) >= crate::alloc::RELEASE_BEFORE_OBJECTS {
            turn.release_all();
        }
        if refuse_internal_images {
            if let Some(md) = out.markdown.as_mut() {
                if let Cow::Owned(reduced) = reduce_images(md, refused_image_target) {
                    *md = reduced;
                }
            }
        }
        Ok(out)
    };
    // A panic in a parser is a bug, but one a hostile page must not turn into an exception
    // outside the library's hierarchy (`PanicException` is not an `Exception`): it becomes a
    // typed error about this page.
    let guarded = |text: &str| catch_unwind(AssertUnwindSafe(|| run(text)));
    let out = if let Ok(s) = html.cast::<PyString>() {
        let text = s.to_cow()?;
        py.detach(|| guarded(&text))
    } else if let Ok(b) = html.cast::<PyBytes>() {
        let bytes = b.as_bytes();
        py.detach(|| guarded(&decode_body_borrowed(bytes, content_type).0))
    } else {
        return Err(PyTypeError::new_err("html must be str or bytes"));
    };
    // A large page may have made mimalloc reserve a new arena: advise it too.
    crate::alloc::keep_arenas_off_huge_pages();
    match out {
        Ok(Ok(out)) => to_dict(py, out),
        Ok(Err(why)) => Err(interrupted(py, why, url, timeout)),
        Err(_) => Err(parser_failed(py, url)),
    }
}

/// About how many Python objects `to_dict` will build for `out`'s links and tables.
fn python_objects(out: &Extracted) -> usize {
    let links = out.links.as_ref().map_or(0, Vec::len);
    let cells = out.tables.as_ref().map_or(0, |tables| {
        tables.iter().map(|t| t.cell_count() + t.row_count()).sum()
    });
    links + cells
}

/// The error for a page whose parsing panicked.
fn parser_failed(py: Python<'_>, url: Option<&str>) -> PyErr {
    match errors::load(py) {
        Ok(classes) => webgrip_error(
            py,
            &classes.unsupported_content,
            "the page could not be read: its HTML made the parser fail (a webgrip bug worth \
             reporting, with the URL)",
            url,
            Some("parser"),
            &[],
        ),
        Err(err) => err,
    }
}

/// Whether an image target names a host the default policy refuses, judged without DNS:
/// `localhost` names, and loopback, private, link-local and other special addresses in any
/// spelling (`0x7f.1`, `2130706433`, `[::ffff:10.0.0.1]`). A chat UI rendering the Markdown
/// would otherwise make the user's browser request internal hosts. `data:` and other
/// inline images make no request and are kept; a web URL that does not parse is refused (a
/// browser might read it differently). The client's own `allow_networks` do not apply:
/// they open hosts to webgrip, not to whoever renders its answer.
fn refused_image_target(url: &str) -> bool {
    let starts = |prefix: &str| {
        url.as_bytes()
            .get(..prefix.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(prefix.as_bytes()))
    };
    let after_scheme = if url.starts_with("//") {
        2
    } else if starts("http://") {
        7
    } else if starts("https://") {
        8
    } else {
        return false;
    };
    if let Some(name) = url.get(after_scheme..).and_then(plain_dns_host) {
        return is_localhost(name);
    }
    let host = if after_scheme == 2 {
        url_host(&format!("http:{url}"))
    } else {
        url_host(url)
    };
    let Some(host) = host else {
        return true;
    };
    if host == "localhost" || host.ends_with(".localhost") {
        return true;
    }
    // Trimmed as `check_ip` trims what it is given.
    let literal = host.trim().trim_start_matches('[').trim_end_matches(']');
    match literal.parse::<IpAddr>() {
        // The default policy: no allowed or denied networks of the user's, only the table.
        Ok(ip) => static_default_policy().is_none_or(|p| p.check_ip(ip).is_err()),
        Err(_) => false, // a DNS name: judged only when fetched
    }
}

/// The host of a web URL whose authority (`rest`: what follows `http://`, `https://` or
/// `//`) is a plain DNS name, as written: ASCII letters, digits and hyphens in non-empty
/// labels, none an IDNA `xn--` label, the last one starting with a letter (so never an IPv4
/// number in any spelling), and no user, port, percent-escape, bracket or whitespace. The
/// URL parser would accept it and give it back lower-cased, so it is judged without parsing
/// the URL (about 3,500 instructions an image on a corpus page); anything else is `None`,
/// and the parser decides.
fn plain_dns_host(rest: &str) -> Option<&str> {
    let end = rest
        .bytes()
        .position(|b| matches!(b, b'/' | b'?' | b'#' | b'\\'))
        .unwrap_or(rest.len());
    let host = rest.get(..end)?;
    let mut last = "";
    for label in host.split('.') {
        let plain = !label.is_empty()
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && !label
                .get(..4)
                .is_some_and(|p| p.eq_ignore_ascii_case("xn--"));
        if !plain {
            return None;
        }
        last = label;
    }
    last.as_bytes()
        .first()
        .is_some_and(u8::is_ascii_alphabetic)
        .then_some(host)
}

/// Whether a host name (any case) is `localhost` or under it.
fn is_localhost(host: &str) -> bool {
    const SUFFIX: &str = ".localhost";
    host.eq_ignore_ascii_case("localhost")
        || (host.len() > SUFFIX.len()
            && host
                .get(host.len() - SUFFIX.len()..)
                .is_some_and(|tail| tail.eq_ignore_ascii_case(SUFFIX)))
}

/// The policy of a default configuration, built once (`None` cannot happen: the defaults
/// parse; a refusal is the safe answer if it ever did).
fn static_default_policy() -> Option<&'static Policy> {
    static POLICY: OnceLock<Option<Policy>> = OnceLock::new();
    POLICY
        .get_or_init(|| Policy::new(&PolicyConfig::default()).ok())
        .as_ref()
}

/// The `FetchTimeoutError` for an extraction stopped by its deadline or its cancel token.
fn interrupted(py: Python<'_>, why: Interrupted, url: Option<&str>, timeout: Option<f64>) -> PyErr {
    let (message, reason) = match why {
        Interrupted::Deadline => (
            format!(
                "reading the page took longer than the {:.1} s left of the call's deadline \
                 (the page is unusually large or malformed)",
                timeout.unwrap_or(0.0).max(0.0)
            ),
            "timeout",
        ),
        Interrupted::Cancelled => ("reading the page was cancelled".to_string(), "cancelled"),
    };
    match errors::load(py) {
        Ok(classes) => webgrip_error(py, &classes.fetch_timeout, &message, url, Some(reason), &[]),
        Err(err) => err,
    }
}

fn to_dict<'py>(py: Python<'py>, out: Extracted) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    if let Some(md) = out.markdown {
        d.set_item("markdown", md)?;
    }
    if let Some(text) = out.text {
        d.set_item("text", text)?;
    }
    if let Some(links) = out.links {
        d.set_item("links", links_list(py, links)?)?;
    }
    if let Some(tables) = out.tables {
        d.set_item("tables", tables_list(py, tables)?)?;
    }
    if let Some(meta) = out.metadata {
        d.set_item("metadata", metadata_dict(py, meta)?)?;
    }
    if let Some(main) = out.main_content {
        d.set_item("main_content", main)?;
    }
    if let Some(frames) = out.frames {
        d.set_item("frames", frames_list(py, frames)?)?;
    }
    Ok(d)
}

fn frames_list(py: Python<'_>, frames: Vec<Frame>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for f in frames {
        let d = PyDict::new(py);
        d.set_item("tag", f.tag)?;
        d.set_item("src", f.src)?;
        d.set_item("srcdoc", f.srcdoc)?;
        d.set_item("title", f.title)?;
        d.set_item("name", f.name)?;
        d.set_item("width", f.width)?;
        d.set_item("height", f.height)?;
        list.append(d)?;
    }
    Ok(list)
}

fn links_list(py: Python<'_>, links: Vec<Link>) -> PyResult<Bound<'_, PyList>> {
    // Interned keys: a `&str` key would be a new Python str in every dict (three ~52-byte
    // objects per link, a third of the memory of a page of 300k links).
    let (url, text, rel) = (intern!(py, "url"), intern!(py, "text"), intern!(py, "rel"));
    let list = PyList::empty(py);
    for l in links {
        let d = PyDict::new(py);
        d.set_item(url, l.url)?;
        d.set_item(text, l.text)?;
        d.set_item(rel, l.rel)?;
        list.append(d)?;
    }
    Ok(list)
}

fn tables_list(py: Python<'_>, tables: Vec<Table>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for t in tables {
        let d = PyDict::new(py);
        d.set_item(intern!(py, "caption"), t.caption.as_deref())?;
        // One Python str per header, shared as the key of every row.
        let keys: Vec<Bound<'_, PyString>> =
            t.headers.iter().map(|h| PyString::new(py, h)).collect();
        d.set_item(intern!(py, "headers"), &keys)?;
        // A row of every column starts as a copy of this one (keys in order, values
        // `None`): the copy takes the key table whole, where inserting each key into a new
        // dict grows its table on the way (a third of the work of a wide table's rows).
        let template = PyDict::new(py);
        for k in &keys {
            template.set_item(k, py.None())?;
        }
        let rows = PyList::empty(py);
        for row in t.rows() {
            let r = if row.len() == keys.len() {
                template.copy()?
            } else {
                PyDict::new(py)
            };
            // Each Python str straight from its slice of the table's one text buffer.
            for (k, v) in keys.iter().zip(row.cells()) {
                r.set_item(k, v)?;
            }
            rows.append(r)?;
        }
        d.set_item(intern!(py, "rows"), rows)?;
        d.set_item(intern!(py, "markdown"), &t.markdown)?;
        list.append(d)?;
    }
    Ok(list)
}

fn metadata_dict(py: Python<'_>, m: Metadata) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("title", m.title)?;
    d.set_item("description", m.description)?;
    d.set_item("canonical_url", m.canonical_url)?;
    d.set_item("language", m.language)?;
    d.set_item("author", m.author)?;
    d.set_item("published", m.published)?;
    d.set_item("site_name", m.site_name)?;
    Ok(d)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(decode_body, m)?)?;
    m.add_function(wrap_pyfunction!(extract_document, m)?)?;
    m.add_function(wrap_pyfunction!(scan_challenge, m)?)?;
    m.add_function(wrap_pyfunction!(script_shell_reason, m)?)?;
    m.add_function(wrap_pyfunction!(readable_blocks, m)?)?;
    m.add_function(wrap_pyfunction!(readable_features, m)?)?;
    m.add(
        "READABLE_FEATURE_NAMES",
        PyTuple::new(m.py(), webgrip_extract::readable_feature_names())?,
    )?;
    m.add(
        "READABLE_CONTEXT_NAMES",
        PyTuple::new(m.py(), webgrip_extract::READABLE_CONTEXT_NAMES)?,
    )?;
    m.add(
        "READABLE_TAGS",
        PyTuple::new(m.py(), webgrip_extract::READABLE_TAGS)?,
    )?;
    m.add(
        "READABLE_FLAG_NAMES",
        PyTuple::new(m.py(), READABLE_FLAG_NAMES)?,
    )?;
    m.add("SHELL_MAX_CHARS", SHELL_MAX_TEXT_CHARS)?;
    m.add("CHALLENGE_MAX_TEXT_CHARS", CHALLENGE_MAX_TEXT_CHARS)?;
    m.add_class::<CancelToken>()?;
    m.add_class::<TrackingRules>()?;
    m.add("TRACKING_PARAMS", PyTuple::new(m.py(), TRACKING_PARAMS)?)?;
    let domains = PyDict::new(m.py());
    for (domain, rules) in DOMAIN_TRACKING_PARAMS {
        domains.set_item(domain, PyTuple::new(m.py(), *rules)?)?;
    }
    m.add("DOMAIN_TRACKING_PARAMS", domains)?;
    // The names are ASCII: every one decodes.
    let void: Vec<&str> = VOID_ELEMENTS
        .iter()
        .filter_map(|name| std::str::from_utf8(name).ok())
        .collect();
    m.add("VOID_ELEMENTS", PyFrozenSet::new(m.py(), &void)?)?;
    m.add(
        "MIN_MAIN_CONTENT_CHARS",
        webgrip_extract::MIN_MAIN_CONTENT_CHARS,
    )?;
    Ok(())
}
