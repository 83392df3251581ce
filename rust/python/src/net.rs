//! Bindings for the guarded network core (`webgrip_net`): `Client`, `check_ip`, `url_host`
//! and `site_of`.
//!
//! All network work runs with the GIL released; results are converted to Python objects
//! after re-attaching. Errors become `webgrip.errors` classes (see `to_pyerr`).
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple, PyType};

use webgrip_net::{
    cancelled, ClientConfig, DestDir, DownloadLimits, ErrorKind, Exchange, NetError, Policy,
    PolicyConfig, ProxyRoutes, RequestSpec, SameSiteRule, StoredCookie, TlsTrust,
    DEFAULT_BLOCKED_PORTS, DEFAULT_CONNECT_TIMEOUT, DEFAULT_DOWNLOAD_MIN_SPEED,
    DEFAULT_DOWNLOAD_STALL_WINDOW, DEFAULT_DOWNLOAD_TIMEOUT, DEFAULT_MAX_REDIRECTS,
    DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT, MAX_SHOWN_URL_CHARS,
};

use crate::errors::{self, webgrip_error, ErrorClasses};

/// The class a failure of `kind` is raised as; `None` for a caller mistake (`ValueError`).
fn class_of(kind: ErrorKind, classes: &ErrorClasses) -> Option<&Py<PyType>> {
    Some(match kind {
        ErrorKind::InvalidInput => return None,
        ErrorKind::InvalidUrl => &classes.invalid_url,
        ErrorKind::Blocked => &classes.blocked_url,
        ErrorKind::Timeout => &classes.fetch_timeout,
        ErrorKind::TooLarge => &classes.response_too_large,
        ErrorKind::Connect => &classes.connect,
        ErrorKind::Proxy => &classes.proxy,
        ErrorKind::HttpStatus => &classes.http_status,
        ErrorKind::Download | ErrorKind::Cancelled => &classes.download,
    })
}

/// A `NetError` as the matching `webgrip.errors` exception (a caller mistake as `ValueError`).
pub fn to_pyerr(py: Python<'_>, e: NetError) -> PyErr {
    let classes = match errors::load(py) {
        Ok(classes) => classes,
        Err(err) => return err,
    };
    let Some(class) = class_of(e.kind, classes) else {
        return PyValueError::new_err(e.message);
    };
    let mut extra: Vec<(&str, Py<PyAny>)> = Vec::new();
    if let Some(limit) = e.limit {
        let Ok(v) = limit.into_pyobject(py);
        extra.push(("limit", v.into_any().unbind()));
    }
    if let Some(status) = e.status {
        let Ok(v) = status.into_pyobject(py);
        extra.push(("status", v.into_any().unbind()));
    }
    webgrip_error(
        py,
        class,
        &e.message,
        e.url.as_deref(),
        Some(&e.reason),
        &extra,
    )
}

/// The fields a fetch and a download share, as the start of the dict both return.
///
/// The keys are interned (made once per process): a fresh `str` per key per request cost
/// about 4% of a small request's instructions.
fn exchange_dict(py: Python<'_>, e: Exchange) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(intern!(py, "url"), e.url)?;
    d.set_item(intern!(py, "status"), e.status)?;
    d.set_item(intern!(py, "headers"), headers_list(py, &e.headers)?)?;
    d.set_item(intern!(py, "content_type"), e.content_type)?;
    d.set_item(intern!(py, "redirects"), e.redirects)?;
    d.set_item(intern!(py, "remote_addr"), e.remote_addr)?;
    d.set_item(intern!(py, "elapsed"), e.elapsed)?;
    d.set_item(intern!(py, "sent_cookies"), e.sent_cookies)?;
    Ok(d)
}

fn seconds(name: &str, v: f64) -> PyResult<Duration> {
    if !(v.is_finite() && v > 0.0) {
        return Err(PyValueError::new_err(format!(
            "{name} must be a positive number of seconds, not {v}"
        )));
    }
    if v > webgrip_net::MAX_TIMEOUT.as_secs_f64() {
        return Err(PyValueError::new_err(format!(
            "{name} must be at most {} seconds (a week), not {v}",
            webgrip_net::MAX_TIMEOUT.as_secs()
        )));
    }
    Duration::try_from_secs_f64(v)
        .map_err(|_| PyValueError::new_err(format!("{name} is out of range: {v}")))
}

fn opt_seconds(name: &str, v: Option<f64>) -> PyResult<Option<Duration>> {
    v.map(|s| seconds(name, s)).transpose()
}

fn headers_list<'py>(
    py: Python<'py>,
    headers: &[(String, String)],
) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, headers.iter().map(|(k, v)| (k.as_str(), v.as_str())))
}

/// A guarded HTTP client. Thread-safe; share one per configuration.
#[pyclass(frozen, module = "webgrip._core")]
pub struct Client {
    inner: Arc<webgrip_net::Client>,
}

#[pymethods]
impl Client {
    #[new]
    #[pyo3(signature = (
        *,
        allow_networks = Vec::new(),
        deny_networks = Vec::new(),
        allowed_domains = Vec::new(),
        blocked_domains = Vec::new(),
        blocked_ports = None,
        max_redirects = DEFAULT_MAX_REDIRECTS,
        timeout = DEFAULT_TIMEOUT.as_secs_f64(),
        connect_timeout = DEFAULT_CONNECT_TIMEOUT.as_secs_f64(),
        max_response_bytes = DEFAULT_MAX_RESPONSE_BYTES,
        user_agent = None,
        ca_bundle = None,
        tls_trust = "webpki",
        allow_http = true,
        allow_https_downgrade = false,
        resolve = None,
        headers = Vec::new(),
        site_headers = None,
        cookies = true,
        http_proxy = None,
        https_proxy = None,
        proxy_for = Vec::new(),
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        allow_networks: Vec<String>,
        deny_networks: Vec<String>,
        allowed_domains: Vec<String>,
        blocked_domains: Vec<String>,
        blocked_ports: Option<Vec<u16>>,
        max_redirects: u32,
        timeout: f64,
        connect_timeout: f64,
        max_response_bytes: u64,
        user_agent: Option<String>,
        ca_bundle: Option<String>,
        tls_trust: &str,
        allow_http: bool,
        allow_https_downgrade: bool,
        resolve: Option<HashMap<String, Vec<String>>>,
        headers: Vec<(String, String)>,
        site_headers: Option<HashMap<String, Vec<(String, String)>>>,
        cookies: bool,
        http_proxy: Option<String>,
        https_proxy: Option<String>,
        proxy_for: Vec<(String, String)>,
    ) -> PyResult<Self> {
        let defaults = ClientConfig::default();
        let cfg = ClientConfig {
            policy: PolicyConfig {
                allow_networks,
                deny_networks,
                allowed_domains,
                blocked_domains,
                blocked_ports: blocked_ports.unwrap_or_else(|| DEFAULT_BLOCKED_PORTS.to_vec()),
                allow_http,
                allow_https_downgrade,
            },
            resolve: resolve.unwrap_or_default().into_iter().collect(),
            max_redirects,
            timeout: seconds("timeout", timeout)?,
            connect_timeout: seconds("connect_timeout", connect_timeout)?,
            max_response_bytes,
            user_agent: user_agent.unwrap_or(defaults.user_agent),
            ca_bundle,
            tls_trust: TlsTrust::parse(tls_trust).map_err(|e| to_pyerr(py, e))?,
            headers,
            site_headers: site_headers.unwrap_or_default().into_iter().collect(),
            cookies,
            proxies: ProxyRoutes::new(http_proxy.as_deref(), https_proxy.as_deref(), &proxy_for)
                .map_err(|e| to_pyerr(py, e))?,
        };
        // Reading the CA file is I/O: do it without the GIL.
        let inner = py
            .detach(move || webgrip_net::Client::new(cfg))
            .map_err(|e| to_pyerr(py, e))?;
        Ok(Client {
            inner: Arc::new(inner),
        })
    }

    /// Apply the policy (resolving the host) without connecting; the normalised URL.
    ///
    /// Raises InvalidURLError or BlockedURLError (the rule in `reason`). Because the host is
    /// resolved, a name that does not resolve raises ConnectError (reason `dns`) and a lookup
    /// slower than `connect_timeout` raises FetchTimeoutError (reason `timeout`).
    fn check_url(&self, py: Python<'_>, url: String) -> PyResult<String> {
        let inner = self.inner.clone();
        py.detach(move || inner.check_url(&url))
            .map_err(|e| to_pyerr(py, e))
    }

    /// One guarded request, redirects walked and re-checked. 4xx/5xx are returned.
    #[pyo3(signature = (
        url, *, method = "GET", headers = Vec::new(), body = None, timeout = None,
        max_bytes = None, max_redirects = None,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn request<'py>(
        &self,
        py: Python<'py>,
        url: String,
        method: &str,
        headers: Vec<(String, String)>,
        body: Option<Vec<u8>>,
        timeout: Option<f64>,
        max_bytes: Option<u64>,
        max_redirects: Option<u32>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let spec = RequestSpec {
            url,
            method: Some(method.to_string()),
            headers,
            body,
            timeout: opt_seconds("timeout", timeout)?,
            max_bytes,
            max_redirects,
        };
        let inner = self.inner.clone();
        let shown = spec.url.clone();
        // The exchange runs on a kept worker thread, this one waiting once for the answer
        // (see `webgrip_net::on_worker`: on a busy machine each wait of an exchange made on
        // the thread that converts the pages ended in the scheduler's queue).
        let r = py
            .detach(move || {
                webgrip_net::on_worker_then(move || {
                    let r = inner.request(&spec);
                    // The worker's read and decompression buffers, handed back on its thread
                    // once the caller has the answer (a walk over the thread's heap that the
                    // caller need not wait for).
                    let collect = r
                        .as_ref()
                        .ok()
                        .map(|r| r.decoded || r.content.len() >= crate::alloc::COLLECT_AFTER_BYTES);
                    (r, move || {
                        if let Some(sizable) = collect {
                            crate::alloc::after_request(sizable);
                        }
                    })
                })
                .unwrap_or_else(|e| Err(NetError::connect(&shown, "thread", e)))
            })
            .map_err(|e| to_pyerr(py, e))?;
        let d = exchange_dict(py, r.exchange)?;
        d.set_item(intern!(py, "content"), PyBytes::new(py, &r.content))?;
        d.set_item(intern!(py, "charset"), r.charset)?;
        Ok(d)
    }

    /// Stream a 2xx body to a new temp file in `dest_dir`; nothing is left on failure.
    ///
    /// The response head must come within `timeout`; the body is bounded by the stall rule
    /// (fewer than `min_speed` bytes/s over `stall_seconds` fails, reason `stalled`) and by
    /// `download_timeout` for the whole transfer (`None`: no limit; reason `download-timeout`).
    /// The finished file gets the mode a new file in the folder gets (it is `0600` while
    /// written).
    ///
    /// With `dir_fd` (an open descriptor of that folder, checked by the caller) the file is
    /// created and removed through the descriptor, so a path component swapped for a symlink
    /// meanwhile cannot redirect it; `dest_dir` then only names the folder in messages and in
    /// `temp_path`. Without it the folder is opened by path when the call starts.
    #[pyo3(signature = (
        url, dest_dir, *, headers = Vec::new(), timeout = None, max_bytes = None, progress = None,
        dir_fd = None, min_speed = DEFAULT_DOWNLOAD_MIN_SPEED,
        stall_seconds = DEFAULT_DOWNLOAD_STALL_WINDOW.as_secs_f64(),
        download_timeout = Some(DEFAULT_DOWNLOAD_TIMEOUT.as_secs_f64()),
    ))]
    #[allow(clippy::too_many_arguments)]
    fn download<'py>(
        &self,
        py: Python<'py>,
        url: String,
        dest_dir: PathBuf,
        headers: Vec<(String, String)>,
        timeout: Option<f64>,
        max_bytes: Option<u64>,
        progress: Option<Py<PyAny>>,
        dir_fd: Option<i32>,
        min_speed: u64,
        stall_seconds: f64,
        download_timeout: Option<f64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let limits = DownloadLimits {
            min_speed,
            stall_window: seconds("stall_seconds", stall_seconds)?,
            overall: opt_seconds("download_timeout", download_timeout)?,
        };
        let spec = RequestSpec {
            url,
            method: Some("GET".into()),
            headers,
            body: None,
            timeout: opt_seconds("timeout", timeout)?,
            max_bytes,
            max_redirects: None,
        };
        let inner = self.inner.clone();
        // The exception raised by the progress callback, re-raised as is.
        let mut callback_error: Option<PyErr> = None;
        let result = py.detach(|| {
            let shown = spec.url.clone();
            let mut report = |done: u64, total: Option<u64>| -> Result<(), NetError> {
                let Some(cb) = progress.as_ref() else {
                    return Ok(());
                };
                Python::attach(|py| match cb.call1(py, (done, total)) {
                    Ok(_) => Ok(()),
                    Err(err) => {
                        callback_error = Some(err);
                        Err(cancelled(
                            &shown,
                            "the progress callback raised an exception",
                        ))
                    }
                })
            };
            let dest = open_dest(&dest_dir, dir_fd).map_err(|e| {
                NetError::download(
                    &shown,
                    "io",
                    format!("cannot use the folder {}: {e}", dest_dir.display()),
                )
            })?;
            inner.download(&spec, &dest, &limits, Some(&mut report))
        });
        let r = match result {
            Ok(r) => r,
            Err(e) => {
                return Err(match (e.kind, callback_error) {
                    (ErrorKind::Cancelled, Some(err)) => err,
                    _ => to_pyerr(py, e),
                })
            }
        };
        let d = exchange_dict(py, r.exchange)?;
        d.set_item("temp_path", r.temp_path.to_string_lossy().into_owned())?;
        d.set_item("temp_name", r.temp_name)?;
        d.set_item("size", r.size)?;
        d.set_item("sha256", r.sha256)?;
        Ok(d)
    }

    /// The jar's unexpired cookies (only those with an expiry date when `persistent_only`),
    /// as dicts; an empty list when cookies are off.
    #[pyo3(signature = (*, persistent_only = false))]
    fn cookies<'py>(&self, py: Python<'py>, persistent_only: bool) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        let Some(jar) = self.inner.cookie_jar() else {
            return Ok(list);
        };
        for c in jar.cookies(persistent_only) {
            let d = PyDict::new(py);
            d.set_item("name", c.name)?;
            d.set_item("value", c.value)?;
            d.set_item("domain", c.domain)?;
            d.set_item("host_only", c.host_only)?;
            d.set_item("path", c.path)?;
            d.set_item("secure", c.secure)?;
            d.set_item("http_only", c.http_only)?;
            d.set_item("same_site", c.same_site.as_str())?;
            d.set_item("expires", c.expires)?;
            d.set_item("created", c.created)?;
            list.append(d)?;
        }
        Ok(list)
    }

    /// Add cookies saved by `cookies()` (expired ones are dropped).
    fn load_cookies(&self, cookies: Vec<Bound<'_, PyDict>>) -> PyResult<()> {
        let Some(jar) = self.inner.cookie_jar() else {
            return Ok(());
        };
        let mut out = Vec::with_capacity(cookies.len());
        for d in cookies {
            let get = |k: &str| -> PyResult<Bound<'_, PyAny>> {
                d.get_item(k)?
                    .ok_or_else(|| PyValueError::new_err(format!("a cookie lacks {k:?}")))
            };
            let same_site: String = get("same_site")?.extract()?;
            out.push(StoredCookie {
                name: get("name")?.extract()?,
                value: get("value")?.extract()?,
                domain: get("domain")?.extract()?,
                host_only: get("host_only")?.extract()?,
                path: get("path")?.extract()?,
                secure: get("secure")?.extract()?,
                http_only: get("http_only")?.extract()?,
                same_site: SameSiteRule::parse(&same_site).ok_or_else(|| {
                    PyValueError::new_err(format!("unknown same_site {same_site:?}"))
                })?,
                expires: get("expires")?.extract()?,
                created: get("created")?.extract()?,
            });
        }
        jar.load(out);
        Ok(())
    }

    /// Whether a GET of `url` would carry cookies from the jar (false for an unparseable URL
    /// or with cookies off): such a page is this client's session's, not a shared cache's.
    fn has_cookies_for(&self, url: &str) -> bool {
        self.inner.has_cookies_for(url)
    }

    /// Forget every cookie of the jar.
    fn clear_cookies(&self) {
        if let Some(jar) = self.inner.cookie_jar() {
            jar.clear();
        }
    }

    /// A count bumped by every change to the jar (0 when cookies are off).
    #[getter]
    fn cookie_changes(&self) -> u64 {
        self.inner.cookie_jar().map_or(0, |j| j.changes())
    }
}

/// The download folder: the caller's descriptor (duplicated) when given, else opened by path.
fn open_dest(path: &std::path::Path, dir_fd: Option<i32>) -> std::io::Result<DestDir> {
    match dir_fd {
        #[cfg(unix)]
        Some(fd) => DestDir::from_fd(fd, path),
        #[cfg(not(unix))]
        Some(_) => Err(std::io::Error::other("dir_fd is only supported on unix")),
        None => DestDir::open(path),
    }
}

/// `None` if the address is allowed, else the reason it is refused.
#[pyfunction]
#[pyo3(signature = (ip, allow_networks = Vec::new(), deny_networks = Vec::new()))]
fn check_ip(
    ip: &str,
    allow_networks: Vec<String>,
    deny_networks: Vec<String>,
) -> PyResult<Option<String>> {
    let addr: std::net::IpAddr = ip
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse()
        .map_err(|_| PyValueError::new_err(format!("{ip:?} is not an IP address")))?;
    let policy = Policy::new(&PolicyConfig {
        allow_networks,
        deny_networks,
        ..PolicyConfig::default()
    })
    .map_err(|e| PyValueError::new_err(e.message))?;
    Ok(policy.check_ip(addr).err().map(|r| r.reason().to_string()))
}

/// Check a client's `headers` and `site_headers` as `Client(...)` would (refused names,
/// credentials sent to every site, invalid values), raising ValueError; values never appear
/// in the message.
/// With `credentials`, `headers` are a call's own (for one URL), where they are allowed.
#[pyfunction]
#[pyo3(signature = (headers, site_headers = None, *, credentials = false))]
fn check_headers(
    headers: Vec<(String, String)>,
    site_headers: Option<HashMap<String, Vec<(String, String)>>>,
    credentials: bool,
) -> PyResult<()> {
    let checked = if credentials {
        webgrip_net::checked_headers(&headers, "headers").map(|_| ())
    } else {
        webgrip_net::every_request_headers(&headers).map(|_| ())
    };
    checked.map_err(|e| PyValueError::new_err(e.message))?;
    let table: Vec<_> = site_headers.unwrap_or_default().into_iter().collect();
    webgrip_net::SiteHeaders::new(&table).map_err(|e| PyValueError::new_err(e.message))?;
    Ok(())
}

/// The canonical host of `url` without DNS (see `webgrip_net::url_host`): IP
/// literals in any spelling as the address (IPv4-mapped IPv6 as IPv4), names lower-cased
/// without trailing dots; `None` if the URL does not parse or has no host.
#[pyfunction]
fn url_host(url: &str) -> Option<String> {
    webgrip_net::url_host(url)
}

/// The site of `host`: its registrable domain under the Public Suffix List
/// (`docs.example.co.uk` -> `example.co.uk`), the host itself for an IP address, a single
/// label or a public suffix; lower-cased, without a trailing dot. The same answer the
/// cookie jar uses for "same site".
#[pyfunction]
fn site_of(host: &str) -> String {
    webgrip_net::site_of(host)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // The core's defaults and limits, which `webgrip.config` and `webgrip.messages` take
    // from here rather than repeat (a security list kept twice drifts silently).
    m.add(
        "DEFAULT_BLOCKED_PORTS",
        PyTuple::new(m.py(), DEFAULT_BLOCKED_PORTS)?,
    )?;
    m.add("DEFAULT_MAX_REDIRECTS", DEFAULT_MAX_REDIRECTS)?;
    m.add("DEFAULT_TIMEOUT", DEFAULT_TIMEOUT.as_secs_f64())?;
    m.add(
        "DEFAULT_CONNECT_TIMEOUT",
        DEFAULT_CONNECT_TIMEOUT.as_secs_f64(),
    )?;
    m.add("DEFAULT_MAX_RESPONSE_BYTES", DEFAULT_MAX_RESPONSE_BYTES)?;
    m.add("DEFAULT_DOWNLOAD_MIN_SPEED", DEFAULT_DOWNLOAD_MIN_SPEED)?;
    m.add(
        "DEFAULT_DOWNLOAD_STALL_SECONDS",
        DEFAULT_DOWNLOAD_STALL_WINDOW.as_secs_f64(),
    )?;
    m.add(
        "DEFAULT_DOWNLOAD_TIMEOUT",
        DEFAULT_DOWNLOAD_TIMEOUT.as_secs_f64(),
    )?;
    m.add("MAX_SHOWN_URL_CHARS", MAX_SHOWN_URL_CHARS)?;
    m.add_class::<Client>()?;
    m.add_class::<EgressProxy>()?;
    m.add_function(wrap_pyfunction!(check_ip, m)?)?;
    m.add_function(wrap_pyfunction!(url_host, m)?)?;
    m.add_function(wrap_pyfunction!(site_of, m)?)?;
    m.add_function(wrap_pyfunction!(check_headers, m)?)?;
    Ok(())
}

/// The egress proxy of one render session (see `webgrip_net::proxy`): loopback, ephemeral
/// port, the session's secret required, `client`'s policy and overrides applied to every
/// request. Runs on its own threads; `stop()` (or garbage collection) ends it.
#[pyclass(frozen, module = "webgrip._core")]
pub struct EgressProxy {
    inner: std::sync::Mutex<Option<webgrip_net::EgressProxy>>,
    port: u16,
}

#[pymethods]
impl EgressProxy {
    #[new]
    #[pyo3(signature = (client, *, secret, timeout, max_bytes, max_connections))]
    fn new(
        py: Python<'_>,
        client: &Client,
        secret: String,
        timeout: f64,
        max_bytes: u64,
        max_connections: u32,
    ) -> PyResult<Self> {
        let cfg = webgrip_net::ProxyConfig {
            secret,
            timeout: seconds("timeout", timeout)?,
            connect_timeout: client.inner.connect_timeout(),
            max_bytes,
            max_connections,
        };
        let lookup = client.inner.lookup();
        let proxy = py
            .detach(move || webgrip_net::EgressProxy::start(lookup, cfg))
            .map_err(|e| to_pyerr(py, e))?;
        Ok(EgressProxy {
            port: proxy.addr().port(),
            inner: std::sync::Mutex::new(Some(proxy)),
        })
    }

    /// The port on 127.0.0.1 the proxy listens on.
    #[getter]
    fn port(&self) -> u16 {
        self.port
    }

    /// The user name to present with the secret.
    #[classattr]
    fn user() -> &'static str {
        webgrip_net::PROXY_USER
    }

    /// What the session did: `requests`, `upstream`, `refused`, `bytes`, `refusals` (the first
    /// few `(target, reason)`), `over_bytes`, `over_connections`.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let st = self
            .inner
            .lock()
            .ok()
            .and_then(|g| g.as_ref().map(webgrip_net::EgressProxy::stats))
            .unwrap_or_default();
        let d = PyDict::new(py);
        d.set_item("requests", st.requests)?;
        d.set_item("upstream", st.upstream)?;
        d.set_item("refused", st.refused)?;
        d.set_item("bytes", st.bytes)?;
        d.set_item("refusals", st.refusals)?;
        d.set_item("over_bytes", st.over_bytes)?;
        d.set_item("over_connections", st.over_connections)?;
        Ok(d)
    }

    /// Stop accepting and end every relay. Idempotent; the last stats stay readable.
    fn stop(&self, py: Python<'_>) {
        let proxy = self.inner.lock().ok().and_then(|mut g| g.take());
        if let Some(mut p) = proxy {
            let st = py.detach(move || {
                p.stop();
                p
            });
            if let Ok(mut g) = self.inner.lock() {
                *g = Some(st);
            }
        }
    }
}
