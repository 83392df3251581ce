//! The pipeline a download's body goes through: read from the network, write to the temp
//! file, SHA-256, each on its own thread, so the three overlap instead of adding up.
//!
//! The calling thread reads (it holds the I/O deadline the stall rule moves, and runs the
//! progress callback); a scoped writer thread writes each chunk, a scoped hasher thread
//! hashes it and hands the buffer back. Only [`BUFFERS`] buffers of [`CHUNK`] bytes ever
//! exist and every channel can hold all of them, so memory stays bounded whatever the file
//! size and no send ever blocks.
//!
//! On Linux full chunks are written with direct I/O (`O_DIRECT`): the disk reads them from
//! the buffer, saving the copy into the page cache and its later writeback, which were the
//! largest CPU cost of a download (perf on the 2-CPU VM: ~30% of the samples). A partial
//! chunk (the end of the body, or what a slow body brought in [`WRITE_AT_LEAST_EVERY`]) and
//! any file system that refuses direct I/O fall back to ordinary writes for the rest of the
//! file. Durability is unchanged: the caller fsyncs the file before naming it.
use std::fs::File;
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use super::Progress;
use crate::error::{ErrorKind, NetError};
use crate::pace::Pace;
use crate::ureq_error::from_body_io;

/// Progress is reported about this often (bytes)...
const PROGRESS_EVERY: u64 = 256 * 1024;
/// ... and at least this often while bytes arrive: a slow download's bar moves, and a
/// caller who gave up (the callback raises) is heard within a second, not 256 KiB later.
const PROGRESS_AT_LEAST_EVERY: Duration = Duration::from_secs(1);
/// Bytes allocated for one buffer, one direct write each: large enough that the disk sees big
/// requests (on the 2-CPU VM's disk, `dd oflag=direct` reaches page-cache speed from 1 MiB
/// writes), and a size the allocator hands out as is (1 MiB and 4 KiB more took 1.5 MiB).
pub(crate) const CHUNK: usize = 1024 * 1024;
/// The first buffer is handed on at this many bytes, and each next one at twice the last, up
/// to [`CHUNK`]: the start of a body reaches the disk as soon as it would with small buffers
/// (a download killed early leaves its bytes behind), a fast body soon moves in whole chunks.
const FIRST_FILL: usize = 128 * 1024;
/// Buffers in flight between the reader, the writer and the hasher (8 MiB in all).
pub(crate) const BUFFERS: usize = 8;
/// Where a buffer's bytes start, and the unit of a direct write: a multiple of the logical
/// block size of the disks in use (512 or 4096 bytes).
const DIRECT_ALIGN: usize = 4096;
/// A buffer that has waited this long for more bytes is written as it is: a slow download
/// keeps its temp file's modification time fresh, so no other process's sweep of stale temp
/// files (`webgrip.downloads.STALE_TEMP_SECONDS`, an hour) takes it for a killed one's.
const WRITE_AT_LEAST_EVERY: Duration = Duration::from_secs(10);
/// Without direct I/O, start the kernel's writeback of what was written every this many
/// bytes (Linux), so the final fsync finds little left to write instead of the whole file.
const WRITEBACK_EVERY: u64 = 8 * 1024 * 1024;

/// One reusable buffer: the whole [`DIRECT_ALIGN`] blocks of a [`CHUNK`]-byte allocation from
/// its first block boundary on, and how many of them hold body bytes.
pub(crate) struct Chunk {
    mem: Vec<u8>,
    start: usize,
    capacity: usize,
    len: usize,
}

impl Chunk {
    fn new() -> Chunk {
        let mem = vec![0u8; CHUNK];
        // Never more than DIRECT_ALIGN; were it unknown, the writes would only be misaligned
        // and so go through the page cache.
        let start = mem.as_ptr().align_offset(DIRECT_ALIGN).min(DIRECT_ALIGN);
        // All of it where the allocator aligns large blocks (mimalloc does), else one block
        // less.
        let capacity = (CHUNK - start) / DIRECT_ALIGN * DIRECT_ALIGN;
        Chunk {
            mem,
            start,
            capacity,
            len: 0,
        }
    }

    fn space(&mut self) -> &mut [u8] {
        &mut self.mem[self.start..self.start + self.capacity]
    }

    fn data(&self) -> &[u8] {
        &self.mem[self.start..self.start + self.len]
    }
}

/// Writes to the temp file: directly to the disk while every write is whole aligned blocks,
/// through the page cache from the first write that is not (or where direct I/O is refused).
pub(crate) struct FileSink<'f> {
    file: &'f mut File,
    direct: bool,
    written: u64,
    flushed: u64,
}

impl<'f> FileSink<'f> {
    pub(crate) fn new(file: &'f mut File) -> FileSink<'f> {
        let direct = set_direct(file, true).is_ok();
        FileSink {
            file,
            direct,
            written: 0,
            flushed: 0,
        }
    }

    pub(crate) fn write(&mut self, data: &[u8]) -> io::Result<()> {
        let mut rest = data;
        while !rest.is_empty() {
            if self.direct && !direct_ok(rest) {
                self.buffered()?;
            }
            match self.file.write(rest) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => {
                    rest = &rest[n..];
                    self.written += n as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // This file system (or device) takes no direct writes after all.
                Err(e) if self.direct && e.raw_os_error() == Some(libc::EINVAL) => {
                    self.buffered()?
                }
                Err(e) => return Err(e),
            }
        }
        if !self.direct && self.written - self.flushed >= WRITEBACK_EVERY {
            start_writeback(self.file, self.flushed, self.written - self.flushed);
            self.flushed = self.written;
        }
        Ok(())
    }

    /// Ordinary writes from here on. Even if clearing the flag fails, `direct` is off, so a
    /// refused direct write is reported instead of retried forever.
    fn buffered(&mut self) -> io::Result<()> {
        self.direct = false;
        self.flushed = self.written;
        set_direct(self.file, false)
    }
}

/// Whether `data` can be one direct write: whole blocks from an aligned address.
fn direct_ok(data: &[u8]) -> bool {
    data.len().is_multiple_of(DIRECT_ALIGN) && (data.as_ptr() as usize).is_multiple_of(DIRECT_ALIGN)
}

/// Turn direct I/O on or off for `file` (`fcntl(F_SETFL)`); an error where the file system
/// does not support it.
#[cfg(target_os = "linux")]
fn set_direct(file: &File, on: bool) -> io::Result<()> {
    use std::os::unix::io::AsRawFd;
    let fd = file.as_raw_fd();
    // SAFETY: F_GETFL and F_SETFL on a valid open descriptor read no memory of ours.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    let wanted = if on {
        flags | libc::O_DIRECT
    } else {
        flags & !libc::O_DIRECT
    };
    // SAFETY: as above.
    if wanted != flags && unsafe { libc::fcntl(fd, libc::F_SETFL, wanted) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(not(target_os = "linux"))]
fn set_direct(_file: &File, on: bool) -> io::Result<()> {
    if on {
        Err(io::Error::from(io::ErrorKind::Unsupported))
    } else {
        Ok(())
    }
}

/// Ask the kernel to start writing `len` bytes at `offset` to disk now, without waiting (a
/// hint: errors are ignored, the final `sync_all` is what guarantees durability).
#[cfg(target_os = "linux")]
fn start_writeback(file: &File, offset: u64, len: u64) {
    use std::os::unix::io::AsRawFd;
    let (Ok(offset), Ok(len)) = (i64::try_from(offset), i64::try_from(len)) else {
        return;
    };
    // SAFETY: a valid open descriptor and plain integers; the call reads no memory of ours.
    unsafe {
        libc::sync_file_range(file.as_raw_fd(), offset, len, libc::SYNC_FILE_RANGE_WRITE);
    }
}

#[cfg(not(target_os = "linux"))]
fn start_writeback(_file: &File, _offset: u64, _len: u64) {}

/// Why the reader stopped early.
enum Stop {
    /// A limit, the network, or the progress callback: the download's own error.
    Failed(NetError),
    /// The writer or the hasher is gone (the writer's error says why).
    Pipeline,
}

impl From<NetError> for Stop {
    fn from(e: NetError) -> Stop {
        Stop::Failed(e)
    }
}

/// Stream `reader` into `file` (see the module doc). Returns the size and the lower-case hex
/// SHA-256; the progress callback gets a last call with the final size. On failure the
/// writer and hasher have stopped when this returns; removing the file is the caller's job.
pub(crate) fn pump(
    reader: &mut impl Read,
    file: &mut File,
    cap: u64,
    total: Option<u64>,
    shown: &str,
    progress: Option<Progress<'_>>,
    mut pace: Option<&mut Pace<'_>>,
) -> Result<(u64, String), NetError> {
    let mut progress = progress;
    let failed = AtomicBool::new(false);
    let (done, sha256) = thread::scope(|scope| -> Result<(u64, String), NetError> {
        // Empty buffers go to the reader, full ones to the writer, then the hasher, then
        // back: every channel has room for every buffer, so no send waits.
        let (write_tx, write_rx) = sync_channel::<Chunk>(BUFFERS);
        let (hash_tx, hash_rx) = sync_channel::<Chunk>(BUFFERS);
        let (free_tx, free_rx) = sync_channel::<Chunk>(BUFFERS);
        for _ in 0..BUFFERS {
            // Cannot fail: the receiver lives in this scope and the channel has room for
            // every buffer. Were one lost, the pipeline would just run with fewer.
            let _ = free_tx.send(Chunk::new());
        }
        let failed = &failed;
        let writer = scope.spawn(move || write_chunks(file, write_rx, hash_tx, failed));
        let hasher = scope.spawn(move || hash_chunks(hash_rx, free_tx));
        let read = stream_body(
            reader,
            cap,
            total,
            &mut progress,
            &mut pace,
            shown,
            &free_rx,
            &write_tx,
        );
        // On success and on failure alike: no more chunks, so the writer and then the hasher
        // finish (after a failure without writing what is still queued).
        if read.is_err() {
            failed.store(true, Ordering::Relaxed);
        }
        drop(write_tx);
        let stage_failed = || NetError::download(shown, "io", "a download thread failed");
        let written = writer.join().map_err(|_| stage_failed())?;
        let digest = hasher.join().map_err(|_| stage_failed())?;
        match (read, written) {
            (Err(Stop::Failed(e)), _) => Err(e),
            (_, Err(e)) => Err(NetError::download(shown, "io", e)),
            (Err(Stop::Pipeline), Ok(_)) => Err(stage_failed()),
            (Ok(done), Ok(_)) => Ok((done, digest)),
        }
    })?;
    if let Some(cb) = progress.as_mut() {
        cb(done, total)?;
    }
    Ok((done, sha256))
}

/// The writer thread: each chunk to the file, in order, then on to the hasher. Once the
/// download has failed, queued chunks are dropped unwritten. Returns the bytes written.
fn write_chunks(
    file: &mut File,
    chunks: Receiver<Chunk>,
    hash: SyncSender<Chunk>,
    failed: &AtomicBool,
) -> io::Result<u64> {
    let mut sink = FileSink::new(file);
    for chunk in chunks {
        if failed.load(Ordering::Relaxed) {
            continue;
        }
        sink.write(chunk.data())?;
        // The hasher only stops when this thread does.
        let _ = hash.send(chunk);
    }
    Ok(sink.written)
}

/// The hashing thread: SHA-256 of every chunk, in order; each buffer is handed back for reuse.
/// Ends when the writer stops; returns the lower-case hex digest.
fn hash_chunks(full: Receiver<Chunk>, free: SyncSender<Chunk>) -> String {
    let mut hasher = Sha256::new();
    for chunk in full {
        hasher.update(chunk.data());
        // The reader may have stopped (failure): then nobody needs the buffer back.
        let _ = free.send(chunk);
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>()
}

/// Read the body into buffers from `free` and pass each on through `full`. Returns the
/// number of bytes; enforces `cap` and `pace` (checked before each read, which it also
/// bounds); reports progress.
#[allow(clippy::too_many_arguments)]
fn stream_body(
    reader: &mut impl Read,
    cap: u64,
    total: Option<u64>,
    progress: &mut Option<Progress<'_>>,
    pace: &mut Option<&mut Pace<'_>>,
    shown: &str,
    free: &Receiver<Chunk>,
    full: &SyncSender<Chunk>,
) -> Result<u64, Stop> {
    let mut done: u64 = 0;
    let mut next_report = PROGRESS_EVERY;
    let mut last_report = Instant::now();
    let mut eof = false;
    let mut fill = FIRST_FILL;
    while !eof {
        let mut chunk = free.recv().map_err(|_| Stop::Pipeline)?;
        // Fill the buffer (or reach the end) before passing it on: fewer, larger writes.
        let mut len = 0;
        let filling = Instant::now();
        let space = chunk.space();
        let want = fill.min(space.len());
        let space = &mut space[..want];
        while len < space.len() {
            if let Some(p) = pace.as_deref() {
                p.arm(done)?;
            }
            // No further than the next progress report: however much a read could bring
            // (a socket read fills the rest of the buffer), the callback, and with it a
            // caller's cancel, is heard every PROGRESS_EVERY bytes.
            let upto =
                usize::try_from(next_report.saturating_sub(done).max(1)).unwrap_or(usize::MAX);
            let end = space.len().min(len.saturating_add(upto));
            let n = match reader.read(&mut space[len..end]) {
                Ok(0) => {
                    eof = true;
                    break;
                }
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    // A timeout after a limit passed is that limit's doing (ureq reports
                    // it wrapped in an io::Error of kind Other).
                    let err = from_body_io(e, shown);
                    let limit = pace
                        .as_deref()
                        .filter(|_| err.kind == ErrorKind::Timeout)
                        .and_then(|p| p.explain(done));
                    return Err(limit.unwrap_or(err).into());
                }
            };
            len += n;
            done += n as u64;
            if let Some(p) = pace.as_deref_mut() {
                p.record(done);
            }
            if done > cap {
                let err = NetError::too_large(shown, cap, "the body is larger than the limit");
                return Err(err.into());
            }
            if done >= next_report || last_report.elapsed() >= PROGRESS_AT_LEAST_EVERY {
                // On whole multiples, so the reads bounded by it stay whole blocks.
                next_report = (done / PROGRESS_EVERY + 1) * PROGRESS_EVERY;
                last_report = Instant::now();
                if let Some(cb) = progress.as_mut() {
                    cb(done, total)?;
                }
            }
            if filling.elapsed() >= WRITE_AT_LEAST_EVERY {
                break;
            }
        }
        if len == 0 {
            break;
        }
        if len == space.len() {
            fill = (fill * 2).min(CHUNK);
        }
        chunk.len = len;
        full.send(chunk).map_err(|_| Stop::Pipeline)?;
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 31 % 251) as u8).collect()
    }

    #[test]
    fn misaligned_and_partial_writes_fall_back_and_keep_every_byte() {
        // Whole aligned chunks (direct where the file system allows it), then a misaligned
        // slice and a short tail (through the page cache): the file holds them all, in order.
        let path = std::env::temp_dir().join(format!(
            "webgrip-sink-test-{}-{:?}",
            std::process::id(),
            thread::current().id()
        ));
        let mut chunk = Chunk::new();
        let n = chunk.space().len();
        let data = body(3 * n + 777);
        let mut file = File::create(&path).unwrap();
        {
            let mut sink = FileSink::new(&mut file);
            for part in data[..2 * n].chunks(n) {
                chunk.space().copy_from_slice(part);
                chunk.len = n;
                sink.write(chunk.data()).unwrap();
            }
            let mut odd = vec![0u8; n + 1];
            odd[1..].copy_from_slice(&data[2 * n..3 * n]);
            sink.write(&odd[1..]).unwrap();
            assert!(!sink.direct, "a misaligned write leaves direct I/O");
            sink.write(&data[3 * n..]).unwrap();
            assert_eq!(sink.written, data.len() as u64);
        }
        file.sync_all().unwrap();
        drop(file);
        assert_eq!(std::fs::read(&path).unwrap(), data);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn buffers_start_on_a_block_boundary() {
        let mut chunk = Chunk::new();
        let len = chunk.space().len();
        assert!(len >= CHUNK - DIRECT_ALIGN && len.is_multiple_of(DIRECT_ALIGN));
        assert!((chunk.space().as_ptr() as usize).is_multiple_of(DIRECT_ALIGN));
    }
}
