//! Stream a response body into a new temp file, hashing as it goes; nothing is left behind on
//! failure. Naming and moving the file into place is the caller's job.
use std::collections::hash_map::RandomState;
use std::fs::{File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use sha2::{Digest, Sha256};

use crate::client::{Client, Opened, RequestSpec};
use crate::error::{ErrorKind, NetError};
use crate::fetch::{content_type, header_list, peer_string};
use crate::ureq_error::from_body_io;

/// Progress is reported about this often (bytes).
const PROGRESS_EVERY: u64 = 256 * 1024;
const CHUNK: usize = 64 * 1024;

#[derive(Debug, Clone)]
pub struct DownloadResult {
    pub url: String,
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub content_type: Option<String>,
    /// Complete and fsynced, inside the destination directory.
    pub temp_path: PathBuf,
    pub size: u64,
    /// Lower-case hex SHA-256 of the content.
    pub sha256: String,
    pub redirects: Vec<String>,
    pub remote_addr: String,
    pub elapsed: f64,
}

/// A temp file that deletes itself unless [`TempFile::keep`] is called.
struct TempFile {
    path: PathBuf,
    file: Option<File>,
}

impl TempFile {
    fn keep(mut self) -> PathBuf {
        self.file = None;
        std::mem::take(&mut self.path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

fn random_suffix() -> u64 {
    // Names only need to be hard to guess and unlikely to collide: `create_new` settles
    // any collision, and refuses symlinks, whatever the name.
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    h.write_u32(std::process::id());
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    h.finish()
}

fn open_new(path: &Path) -> io::Result<File> {
    let mut opts = OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC);
    }
    opts.open(path)
}

/// Create `.webgrip-<random>.part` in `dir`, never following or replacing anything.
fn create_temp(dir: &Path) -> io::Result<TempFile> {
    let mut last = None;
    for _ in 0..16 {
        let path = dir.join(format!(".webgrip-{:016x}.part", random_suffix()));
        match open_new(&path) {
            Ok(file) => {
                return Ok(TempFile {
                    path,
                    file: Some(file),
                })
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("cannot create a temp file")))
}

/// Called with `(bytes so far, total if known)`; an error stops the download.
pub type Progress<'a> = &'a mut dyn FnMut(u64, Option<u64>) -> Result<(), NetError>;

impl Client {
    /// GET `spec.url` into a new temp file inside `dest_dir`. A non-2xx final status is an
    /// error and creates no file; any failure removes the partial file.
    pub fn download(
        &self,
        spec: &RequestSpec,
        dest_dir: &Path,
        progress: Option<Progress<'_>>,
    ) -> Result<DownloadResult, NetError> {
        let cap = spec.max_bytes.unwrap_or(self.max_response_bytes);
        let mut spec = spec.clone();
        spec.method = Some("GET".into());
        spec.body = None;
        let Opened {
            response,
            url,
            redirects,
            remote_addr,
            started,
        } = self.open(&spec)?;
        let shown = url.as_str();
        let status = response.status().as_u16();
        if !(200..300).contains(&status) {
            return Err(NetError::http_status(shown, status));
        }
        let (parts, body) = response.into_parts();
        let total = body.content_length();
        if let Some(len) = total.filter(|len| *len > cap) {
            return Err(NetError::too_large(
                shown,
                cap,
                format!("its Content-Length is {len} bytes"),
            ));
        }
        let io_err = |e: io::Error| NetError::download(shown, "io", e);
        let mut temp = create_temp(dest_dir).map_err(|e| {
            NetError::download(
                shown,
                "io",
                format!("cannot create a file in {}: {e}", dest_dir.display()),
            )
        })?;
        let mut reader = body.into_reader().take(cap.saturating_add(1));
        let mut hasher = Sha256::new();
        let mut buf = vec![0u8; CHUNK];
        let mut done: u64 = 0;
        let mut next_report = PROGRESS_EVERY;
        let mut progress = progress;
        loop {
            let n = match reader.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(from_body_io(e, shown)),
            };
            done += n as u64;
            if done > cap {
                return Err(NetError::too_large(
                    shown,
                    cap,
                    "the body is larger than the limit",
                ));
            }
            let chunk = &buf[..n];
            hasher.update(chunk);
            if let Some(file) = temp.file.as_mut() {
                file.write_all(chunk).map_err(io_err)?;
            }
            if done >= next_report {
                next_report = done + PROGRESS_EVERY;
                if let Some(cb) = progress.as_mut() {
                    cb(done, total)?;
                }
            }
        }
        if let Some(cb) = progress.as_mut() {
            cb(done, total)?;
        }
        if let Some(file) = temp.file.as_mut() {
            file.flush().map_err(io_err)?;
            file.sync_all().map_err(io_err)?;
        }
        let (content_type, _) = content_type(&parts.headers);
        let sha256 = hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>();
        Ok(DownloadResult {
            url: url.to_string(),
            status,
            headers: header_list(&parts.headers),
            content_type,
            temp_path: temp.keep(),
            size: done,
            sha256,
            redirects,
            remote_addr: peer_string(remote_addr),
            elapsed: started.elapsed().as_secs_f64(),
        })
    }
}

/// The kind used when a progress callback stops a download.
pub fn cancelled(url: &str, why: &str) -> NetError {
    NetError::new(
        ErrorKind::Cancelled,
        Some(url),
        "cancelled",
        format!("Download of {url} stopped: {why}"),
    )
}
