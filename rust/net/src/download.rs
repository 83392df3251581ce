//! Stream a response body into a new temp file, hashing as it goes; nothing is left behind on
//! failure. Naming and moving the file into place is the caller's job.
//!
//! The body goes through [`pipe`]: read, written and hashed on three threads
//! sharing a small ring of buffers, so memory stays bounded whatever the file size.
mod pipe;

use std::collections::hash_map::RandomState;
#[cfg(unix)]
use std::ffi::CString;
use std::fs::{File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Read};
#[cfg(unix)]
use std::os::unix::io::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use crate::client::{deadline_after, Client, Opened, RequestSpec, MAX_TIMEOUT};
use crate::decode::{decoded, is_encoded};
use crate::error::{shown_url, ErrorKind, NetError};
use crate::fetch::Exchange;
use crate::pace::{DownloadLimits, Pace};
use crate::tcp::SocketBody;
use crate::transport::IoDeadline;
use pipe::pump;

/// Bodies from this size on are read from the socket itself (see [`SocketBody`]); the
/// connection is then closed rather than kept, which a smaller file would feel.
const SOCKET_BODY_AT_LEAST: u64 = 1024 * 1024;

#[derive(Debug, Clone)]
pub struct DownloadResult {
    pub exchange: Exchange,
    /// Complete and fsynced, inside the destination folder (its path joined with
    /// `temp_name`; the file was created through the folder's descriptor).
    pub temp_path: PathBuf,
    /// The temp file's name inside the destination folder.
    pub temp_name: String,
    pub size: u64,
    /// Lower-case hex SHA-256 of the content.
    pub sha256: String,
}

/// The folder a download is written into, held open: the temp file is created (and, on
/// failure, removed) relative to this descriptor, so it lands in the folder the caller
/// checked even if a path component is swapped for a symlink while the response is pending.
/// The path is only for messages and for the returned `temp_path`.
pub struct DestDir {
    path: PathBuf,
    #[cfg(unix)]
    fd: OwnedFd,
}

impl DestDir {
    /// Open the folder at `path` (the caller has checked it; symlinks in it are followed).
    pub fn open(path: &Path) -> io::Result<DestDir> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            let dir = OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_DIRECTORY | libc::O_CLOEXEC)
                .open(path)?;
            Ok(DestDir {
                path: path.to_path_buf(),
                fd: dir.into(),
            })
        }
        #[cfg(not(unix))]
        {
            if !std::fs::metadata(path)?.is_dir() {
                return Err(io::Error::other("not a folder"));
            }
            Ok(DestDir {
                path: path.to_path_buf(),
            })
        }
    }

    /// A folder the caller opened (and checked) as `fd`, shown as `path`. The descriptor is
    /// duplicated, so the caller may close its own copy at any time.
    #[cfg(unix)]
    pub fn from_fd(fd: RawFd, path: &Path) -> io::Result<DestDir> {
        // SAFETY: F_DUPFD_CLOEXEC reads no memory; a bad descriptor is reported as EBADF.
        let dup = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0) };
        if dup < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `dup` is a fresh descriptor that nothing else owns.
        let fd = unsafe { OwnedFd::from_raw_fd(dup) };
        if !File::from(fd.try_clone()?).metadata()?.is_dir() {
            return Err(io::Error::other("the descriptor is not a folder"));
        }
        Ok(DestDir {
            path: path.to_path_buf(),
            fd,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// A temp file that deletes itself unless [`TempFile::keep`] is called.
struct TempFile<'a> {
    dir: &'a DestDir,
    name: String,
    file: Option<File>,
}

impl TempFile<'_> {
    fn keep(mut self) -> String {
        self.file = None;
        std::mem::take(&mut self.name)
    }
}

impl Drop for TempFile<'_> {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = remove_in(self.dir, &self.name);
        }
    }
}

fn random_suffix() -> u64 {
    // Names only need to be hard to guess and unlikely to collide: `O_EXCL` settles any
    // collision, and refuses symlinks, whatever the name.
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    h.write_u32(std::process::id());
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    h.finish()
}

/// Create `name` in `dir`, never following or replacing anything. On unix this is `openat`
/// on the held descriptor (libc, as std has no `openat`): a path would be resolved again
/// and could lead through a symlink planted after the folder was checked.
#[cfg(unix)]
fn open_new(dir: &DestDir, name: &str, mode: u32) -> io::Result<File> {
    let c_name = CString::new(name).map_err(io::Error::other)?;
    let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    // SAFETY: a valid descriptor, a NUL-terminated name that outlives the call, plain flags.
    let fd = unsafe {
        libc::openat(
            dir.fd.as_raw_fd(),
            c_name.as_ptr(),
            flags,
            mode as libc::c_uint,
        )
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` was just opened and nothing else owns it.
    Ok(unsafe { File::from_raw_fd(fd) })
}

/// Path-based fallback where there are no descriptor-relative calls.
#[cfg(not(unix))]
fn open_new(dir: &DestDir, name: &str, _mode: u32) -> io::Result<File> {
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(dir.path.join(name))
}

/// Remove `name` from `dir` (the same folder the file was created in: `unlinkat`).
#[cfg(unix)]
fn remove_in(dir: &DestDir, name: &str) -> io::Result<()> {
    let c_name = CString::new(name).map_err(io::Error::other)?;
    // SAFETY: a valid descriptor and a NUL-terminated name that outlives the call.
    if unsafe { libc::unlinkat(dir.fd.as_raw_fd(), c_name.as_ptr(), 0) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(not(unix))]
fn remove_in(dir: &DestDir, name: &str) -> io::Result<()> {
    std::fs::remove_file(dir.path.join(name))
}

/// Create `.webgrip-<random>.part` in `dir` (readable by its owner only: `0600`), never
/// following or replacing anything.
fn create_temp(dir: &DestDir) -> io::Result<TempFile<'_>> {
    create_named(dir, 0o600)
}

fn create_named(dir: &DestDir, mode: u32) -> io::Result<TempFile<'_>> {
    let mut last = None;
    for _ in 0..16 {
        let name = format!(".webgrip-{:016x}.part", random_suffix());
        match open_new(dir, &name, mode) {
            Ok(file) => {
                return Ok(TempFile {
                    dir,
                    name,
                    file: Some(file),
                })
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("cannot create a temp file")))
}

/// The permission bits a file newly created in `dir` gets (`0666` less the umask, or what
/// the folder's default ACL gives), measured by creating one: reading the umask would mean
/// changing it, which races with every other thread creating files.
#[cfg(unix)]
fn new_file_mode(dir: &DestDir) -> io::Result<u32> {
    use std::os::unix::fs::PermissionsExt;
    let probe = create_named(dir, 0o666)?;
    let mode = match probe.file.as_ref() {
        Some(file) => file.metadata()?.permissions().mode() & 0o777,
        None => 0o600,
    };
    drop(probe); // removes it
    Ok(mode)
}

/// Give the finished temp file the mode a new file in its folder gets (as curl and wget's
/// files have), before it is named: while written it stays `0600`. Where no file can be
/// created any more (the folder removed or made read-only meanwhile) it stays `0600`: naming
/// it fails next, with the error that says what happened to the folder.
#[cfg(unix)]
fn set_final_mode(file: &File, dir: &DestDir) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    match new_file_mode(dir) {
        Ok(mode) => file.set_permissions(std::fs::Permissions::from_mode(mode)),
        Err(_) => Ok(()),
    }
}

#[cfg(not(unix))]
fn set_final_mode(_file: &File, _dir: &DestDir) -> io::Result<()> {
    Ok(())
}

/// Called with `(bytes so far, total if known)`; an error stops the download.
pub type Progress<'a> = &'a mut dyn FnMut(u64, Option<u64>) -> Result<(), NetError>;

impl Client {
    /// GET `spec.url` into a new temp file inside `dest`. A non-2xx final status or an
    /// unsupported Content-Encoding is an error and creates no file; any failure removes the
    /// partial file. The response head must come within the call's timeout (`spec.timeout`,
    /// else the client's); the body is bounded by `limits` instead (the stall rule and the
    /// overall limit, counted from the call's start), so a large file that keeps flowing
    /// finishes. The finished file gets the mode a new file in `dest` gets.
    pub fn download(
        &self,
        spec: &RequestSpec,
        dest: &DestDir,
        limits: &DownloadLimits,
        progress: Option<Progress<'_>>,
    ) -> Result<DownloadResult, NetError> {
        let cap = spec.max_bytes.unwrap_or(self.max_response_bytes);
        let mut spec = spec.clone();
        spec.method = Some("GET".into());
        spec.body = None;
        let started = Instant::now();
        // Every read and write until the head is in ends by the call's timeout; ureq's own
        // deadline for each hop is the download's overall one, which its body needs.
        let io = IoDeadline::new(deadline_after(
            started,
            spec.timeout.unwrap_or(self.timeout),
        ));
        let overall = deadline_after(started, limits.overall.unwrap_or(MAX_TIMEOUT));
        let Opened {
            response,
            url,
            walk,
        } = self.open_until(&spec, Some(overall))?;
        let shown = url.as_str();
        let status = response.status().as_u16();
        if !(200..300).contains(&status) {
            return Err(NetError::http_status(shown, status));
        }
        let (mut parts, body) = response.into_parts();
        // The declared length of an encoded body is not the size of the file.
        let total = body
            .content_length()
            .filter(|_| !is_encoded(&parts.headers));
        NetError::check_declared_length(shown, total, cap)?;
        let io_err = |e: io::Error| NetError::download(shown, "io", e);
        // A large plain-HTTP body of a declared length is read from the socket itself once
        // ureq's buffer is drained (`tcp.rs`): one copy fewer per byte. Under TLS the socket
        // carries records, and a transfer coding frames the body: both stay with ureq.
        let plain = url.scheme() == "http"
            && !parts
                .headers
                .contains_key(ureq::http::header::TRANSFER_ENCODING);
        let raw: Box<dyn Read> = match total {
            Some(length) if plain && length >= SOCKET_BODY_AT_LEAST => {
                Box::new(SocketBody::new(body.into_reader(), length))
            }
            _ => Box::new(body.into_reader()),
        };
        // Unsupported codings are refused here, before a file exists.
        let mut reader = decoded(&mut parts.headers, raw, shown)?.take(cap.saturating_add(1));
        let mut temp = create_temp(dest).map_err(|e| {
            NetError::download(
                shown,
                "io",
                format!("cannot create a file in {}: {e}", dest.path.display()),
            )
        })?;
        let mut pace = Pace::new(*limits, started, &io, shown, total);
        let file = temp
            .file
            .as_mut()
            .ok_or_else(|| NetError::download(shown, "io", "the temp file is closed"))?;
        let (done, sha256) = pump(
            &mut reader,
            file,
            cap,
            total,
            shown,
            progress,
            Some(&mut pace),
        )?;
        if let Some(file) = temp.file.as_mut() {
            set_final_mode(file, dest).map_err(io_err)?;
            // Durability: the file only gets its final name once it is on disk.
            file.sync_all().map_err(io_err)?;
        }
        Ok(DownloadResult {
            exchange: Exchange::new(url.as_str(), status, &parts.headers, walk),
            temp_path: dest.path.join(&temp.name),
            temp_name: temp.keep(),
            size: done,
            sha256,
        })
    }
}

/// The kind used when a progress callback stops a download.
pub fn cancelled(url: &str, why: &str) -> NetError {
    NetError::new(
        ErrorKind::Cancelled,
        Some(url),
        "cancelled",
        format!("Download of {} stopped: {why}", shown_url(url)),
    )
}

#[cfg(test)]
mod tests {
    use super::pipe::{BUFFERS, CHUNK};
    use super::*;
    use sha2::{Digest, Sha256};
    use std::cell::RefCell;

    /// Hands out `data` in reads of at most `step` bytes, then optionally fails.
    struct Trickle {
        data: Vec<u8>,
        pos: usize,
        step: usize,
        fail_at_end: bool,
    }

    impl Read for Trickle {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            if self.pos == self.data.len() {
                if self.fail_at_end {
                    return Err(io::Error::new(io::ErrorKind::ConnectionReset, "reset"));
                }
                return Ok(0);
            }
            let n = out.len().min(self.step).min(self.data.len() - self.pos);
            out[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
            self.pos += n;
            Ok(n)
        }
    }

    fn body(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 31 % 251) as u8).collect()
    }

    fn hex(data: &[u8]) -> String {
        Sha256::digest(data)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "webgrip-dl-test-{name}-{}-{:x}",
            std::process::id(),
            random_suffix()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn entries(dir: &Path) -> usize {
        std::fs::read_dir(dir).unwrap().count()
    }

    #[test]
    fn many_buffers_worth_is_written_and_hashed_in_order() {
        // Several times the whole buffer ring, in odd-sized reads: the digest and the file
        // must match the body byte for byte (buffers are reused while the hasher works).
        let data = body(BUFFERS * CHUNK * 3 + 12_345);
        let dir = temp_dir("order");
        let dest = DestDir::open(&dir).unwrap();
        let mut temp = create_temp(&dest).unwrap();
        let mut reader = Trickle {
            data: data.clone(),
            pos: 0,
            step: 40_000,
            fail_at_end: false,
        };
        let seen = RefCell::new(Vec::new());
        let mut report = |done: u64, total: Option<u64>| {
            seen.borrow_mut().push((done, total));
            Ok(())
        };
        let total = Some(data.len() as u64);
        let (size, digest) = pump(
            &mut reader,
            temp.file.as_mut().unwrap(),
            u64::MAX,
            total,
            "http://x.test/",
            Some(&mut report),
            None,
        )
        .unwrap();
        assert_eq!(size, data.len() as u64);
        assert_eq!(digest, hex(&data));
        let path = dir.join(temp.keep());
        assert_eq!(std::fs::read(&path).unwrap(), data);
        let seen = seen.into_inner();
        assert!(
            seen.windows(2).all(|w| w[0].0 <= w[1].0),
            "progress goes forward"
        );
        assert_eq!(seen.last(), Some(&(data.len() as u64, total)));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn empty_body_hashes_to_the_empty_digest() {
        let dir = temp_dir("empty");
        let dest = DestDir::open(&dir).unwrap();
        let mut temp = create_temp(&dest).unwrap();
        let mut reader = io::empty();
        let (size, digest) = pump(
            &mut reader,
            temp.file.as_mut().unwrap(),
            10,
            None,
            "http://x.test/",
            None,
            None,
        )
        .unwrap();
        assert_eq!((size, digest), (0, hex(b"")));
        drop(temp.keep());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn failures_stop_the_hasher_and_remove_the_temp_file() {
        let data = body(3 * CHUNK);
        for case in ["cap", "read-error", "progress"] {
            let dir = temp_dir(case);
            let dest = DestDir::open(&dir).unwrap();
            let mut temp = create_temp(&dest).unwrap();
            assert_eq!(entries(&dir), 1);
            let mut reader = Trickle {
                data: data.clone(),
                pos: 0,
                step: CHUNK / 3,
                fail_at_end: case == "read-error",
            };
            let cap = if case == "cap" {
                CHUNK as u64
            } else {
                u64::MAX
            };
            let mut stop = |done: u64, _: Option<u64>| {
                if case == "progress" && done > CHUNK as u64 {
                    Err(cancelled("http://x.test/", "enough"))
                } else {
                    Ok(())
                }
            };
            // Returns (does not hang waiting for the hasher), with the matching error.
            let err = pump(
                &mut reader,
                temp.file.as_mut().unwrap(),
                cap,
                None,
                "http://x.test/",
                Some(&mut stop),
                None,
            )
            .unwrap_err();
            let expected = match case {
                "cap" => ErrorKind::TooLarge,
                "progress" => ErrorKind::Cancelled,
                _ => err.kind,
            };
            assert_eq!(err.kind, expected, "{case}: {err:?}");
            drop(temp);
            assert_eq!(entries(&dir), 0, "{case}: the partial file is removed");
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_disk_fails_the_download_and_removes_the_temp_file() {
        // /dev/full answers every write with ENOSPC, as a disk does the moment it fills up:
        // a typed download error, and the temp name is gone (issue #16, fault injection).
        let dir = temp_dir("full");
        let dest = DestDir::open(&dir).unwrap();
        let mut temp = create_temp(&dest).unwrap();
        temp.file = Some(OpenOptions::new().write(true).open("/dev/full").unwrap());
        let mut reader = Trickle {
            data: body(2 * CHUNK),
            pos: 0,
            step: CHUNK,
            fail_at_end: false,
        };
        let err = pump(
            &mut reader,
            temp.file.as_mut().unwrap(),
            u64::MAX,
            None,
            "http://x.test/",
            None,
            None,
        )
        .unwrap_err();
        assert_eq!(err.kind, ErrorKind::Download, "{err:?}");
        assert!(err.to_string().contains("No space left"), "{err}");
        drop(temp);
        assert_eq!(entries(&dir), 0, "the partial file is removed");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn temp_file_follows_the_held_folder_not_its_path() {
        // The folder is swapped for a symlink after it was opened: the temp file is created
        // in (and removed from) the folder held open, nothing appears through the link.
        let base = temp_dir("swap");
        let (sub, moved, outside) = (base.join("sub"), base.join("moved"), base.join("out"));
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        let dest = DestDir::open(&sub).unwrap();
        std::fs::rename(&sub, &moved).unwrap();
        std::os::unix::fs::symlink(&outside, &sub).unwrap();
        let temp = create_temp(&dest).unwrap();
        assert_eq!((entries(&moved), entries(&outside)), (1, 0));
        drop(temp);
        assert_eq!((entries(&moved), entries(&outside)), (0, 0));
        std::fs::remove_dir_all(&base).unwrap();
    }
}
