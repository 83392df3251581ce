//! Helpers shared by the fuzz targets: splitting one input into several fields, and the
//! independent table of the IANA special-purpose address registries that `ip_table` and
//! `url_policy` check the policy against.

pub mod iana;

/// Split `data` at the first `\n` (the first field, then the rest); no `\n`: all in the rest.
pub fn split_line(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (&[], data),
    }
}
