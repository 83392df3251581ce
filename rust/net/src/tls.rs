//! TLS trust: Mozilla's roots (webpki), plus an optional extra CA file.
use std::sync::Arc;

use ureq::tls::{parse_pem, Certificate, PemItem, RootCerts, TlsConfig};

use crate::error::NetError;

/// The agent's TLS settings. With `ca_bundle`, its certificates are trusted in addition to
/// the built-in roots (for a private CA, or a test CA).
pub fn tls_config(ca_bundle: Option<&str>) -> Result<TlsConfig, NetError> {
    let Some(path) = ca_bundle else {
        return Ok(TlsConfig::builder().root_certs(RootCerts::WebPki).build());
    };
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
    // `RootCerts` is either the webpki set or a specific list: to have both, list the
    // webpki roots (as certificates) next to the extra ones.
    let roots: Vec<Certificate<'static>> = webpki_root_certs::TLS_SERVER_ROOT_CERTS
        .iter()
        .map(|c| Certificate::from_der(c.as_ref()).to_owned())
        .chain(extra)
        .collect();
    Ok(TlsConfig::builder()
        .root_certs(RootCerts::Specific(Arc::new(roots)))
        .build())
}
