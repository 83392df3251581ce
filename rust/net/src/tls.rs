//! TLS trust: Mozilla's roots (webpki) or the operating system's store, plus the
//! certificates `SSL_CERT_FILE` / `SSL_CERT_DIR` name and an optional extra CA file.
//!
//! Every choice here adds roots; none turns verification off.
use std::sync::{Arc, Mutex};

use ureq::tls::{parse_pem, Certificate, PemItem, RootCerts, TlsConfig};

use crate::error::NetError;

/// Which roots a client trusts before `ca_bundle` adds its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TlsTrust {
    /// Mozilla's roots, built in (the same on every machine); with `SSL_CERT_FILE` or
    /// `SSL_CERT_DIR` set, their certificates are trusted as well.
    #[default]
    WebPki,
    /// The operating system's store (Linux: the distribution's bundle; macOS: the keychain;
    /// Windows: the system store). With `SSL_CERT_FILE` or `SSL_CERT_DIR` set, the
    /// certificates they name instead, as OpenSSL and curl read them.
    System,
}

impl TlsTrust {
    /// The setting's name in `Config.tls_trust`.
    pub fn parse(name: &str) -> Result<TlsTrust, NetError> {
        match name {
            "webpki" => Ok(TlsTrust::WebPki),
            "system" => Ok(TlsTrust::System),
            other => Err(NetError::invalid_input(format!(
                "tls_trust must be \"webpki\" or \"system\", not {other:?}"
            ))),
        }
    }
}

/// The agent's TLS settings: the roots of `trust`, and `ca_bundle`'s certificates (a private
/// CA, a test CA) in addition.
pub fn tls_config(trust: TlsTrust, ca_bundle: Option<&str>) -> Result<TlsConfig, NetError> {
    // The caller's own file first: its error is the one to fix whatever the environment holds.
    let extra = ca_bundle.map(bundle).transpose()?;
    let env = env_locations();
    let mut roots: Vec<Certificate<'static>> = match trust {
        // Without anything to add, the built-in set as ureq keeps it (no list to build).
        TlsTrust::WebPki if env.is_none() && ca_bundle.is_none() => {
            return Ok(TlsConfig::builder().root_certs(RootCerts::WebPki).build());
        }
        TlsTrust::WebPki => webpki_roots(),
        TlsTrust::System => Vec::new(),
    };
    if trust == TlsTrust::System || env.is_some() {
        // The native loader reads the environment's locations when set, else the system's.
        roots.extend(native_roots(trust, env.as_ref())?.iter().cloned());
    }
    roots.extend(extra.into_iter().flatten());
    Ok(TlsConfig::builder()
        .root_certs(RootCerts::Specific(Arc::new(roots)))
        .build())
}

/// `RootCerts` is either the webpki set or a specific list: to add to it, list the webpki
/// roots (as certificates).
fn webpki_roots() -> Vec<Certificate<'static>> {
    webpki_root_certs::TLS_SERVER_ROOT_CERTS
        .iter()
        .map(|c| Certificate::from_der(c.as_ref()).to_owned())
        .collect()
}

/// `SSL_CERT_FILE` and `SSL_CERT_DIR` as set (empty values count as unset), or `None`.
fn env_locations() -> Option<(Option<String>, Option<String>)> {
    let read = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let (file, dir) = (read("SSL_CERT_FILE"), read("SSL_CERT_DIR"));
    (file.is_some() || dir.is_some()).then_some((file, dir))
}

type Roots = Arc<Vec<Certificate<'static>>>;
type Loaded = (TlsTrust, Option<(Option<String>, Option<String>)>, Roots);

/// The native loader's certificates, kept per process for the same choice and environment:
/// a store is a few hundred files or a ~200 KiB bundle, and clients are made often.
fn native_roots(
    trust: TlsTrust,
    env: Option<&(Option<String>, Option<String>)>,
) -> Result<Roots, NetError> {
    static LOADED: Mutex<Option<Loaded>> = Mutex::new(None);
    let mut loaded = LOADED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((t, e, roots)) = loaded.as_ref() {
        if *t == trust && e.as_ref() == env {
            return Ok(roots.clone());
        }
    }
    let found = rustls_native_certs::load_native_certs();
    if found.certs.is_empty() {
        let what = match env {
            Some((file, dir)) => format!(
                "SSL_CERT_FILE={} SSL_CERT_DIR={} name no readable certificate; fix or unset them",
                file.as_deref().unwrap_or("(unset)"),
                dir.as_deref().unwrap_or("(unset)")
            ),
            None => "the operating system's trust store holds no certificate; install the \
                     system's CA certificates or use tls_trust=\"webpki\""
                .to_string(),
        };
        let cause = found
            .errors
            .first()
            .map(|e| format!(" ({e})"))
            .unwrap_or_default();
        return Err(NetError::invalid_input(format!("{what}{cause}")));
    }
    let roots: Roots = Arc::new(
        found
            .certs
            .iter()
            .map(|c| Certificate::from_der(c.as_ref()).to_owned())
            .collect(),
    );
    *loaded = Some((trust, env.cloned(), roots.clone()));
    Ok(roots)
}

/// The certificates of the PEM file `path` (at least one).
fn bundle(path: &str) -> Result<Vec<Certificate<'static>>, NetError> {
    let pem = std::fs::read(path)
        .map_err(|e| NetError::invalid_input(format!("ca_bundle {path:?}: {e}")))?;
    let mut extra: Vec<Certificate<'static>> = Vec::new();
    for item in parse_pem(&pem) {
        match item {
            Ok(PemItem::Certificate(c)) => extra.push(c),
            Ok(_) => {}
            Err(e) => {
                return Err(NetError::invalid_input(format!(
                    "ca_bundle {path:?} is not valid PEM: {e}"
                )))
            }
        }
    }
    if extra.is_empty() {
        return Err(NetError::invalid_input(format!(
            "ca_bundle {path:?} holds no certificate"
        )));
    }
    Ok(extra)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_two_stores_are_names_and_none_turns_verification_off() {
        assert_eq!(TlsTrust::parse("webpki").unwrap(), TlsTrust::WebPki);
        assert_eq!(TlsTrust::parse("system").unwrap(), TlsTrust::System);
        for name in ["", "none", "off", "insecure", "WEBPKI", "system "] {
            let e = TlsTrust::parse(name).unwrap_err();
            assert!(e.to_string().contains("tls_trust"), "{name:?}: {e}");
        }
    }

    #[test]
    fn a_bundle_without_certificates_is_refused() {
        let path = std::env::temp_dir().join(format!("webgrip-empty-{}.pem", std::process::id()));
        std::fs::write(&path, "no certificate here\n").unwrap();
        let e = tls_config(TlsTrust::WebPki, path.to_str()).unwrap_err();
        std::fs::remove_file(&path).ok();
        assert!(e.to_string().contains("holds no certificate"), "{e}");
    }
}
