//! The plain TCP transport under every direct connection, and the hand-over of its socket to
//! a download's body.
//!
//! The transport is ureq's own TCP transport (the same connect, timeouts, retried
//! interrupted reads and liveness probe of a pooled connection) less its walk over several
//! addresses: the connector dials one checked address at a time. It exists so that the socket
//! can be handed over. ureq reads a body into its 128 KiB input buffer and copies it from
//! there into the caller's buffer; for a large download that copy was 13% of the reading
//! thread's samples, beside the kernel's own copy out of the socket. [`SocketBody`] reads a
//! plain-HTTP, length-delimited body through ureq until ureq's buffer holds no more of it,
//! then takes the socket over and reads the rest of the declared length straight into the
//! caller's buffers. The connection is then closed, not pooled, as for any body not read
//! through ureq to its end.
use std::cell::RefCell;
use std::fmt;
use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Weak};
use std::time::Duration;

use ureq::unversioned::transport::time::Duration as UDuration;
use ureq::unversioned::transport::{
    Buffers, ConnectionDetails, LazyBuffers, NextTimeout, ShutdownHandle, Transport,
};
use ureq::{Error, Timeout};

use crate::transport::io_bound;

/// What the download reading on this thread asked of the transport that next needs input.
enum Handover {
    /// Nothing: read as usual.
    Off,
    /// Give the socket instead of reading (ureq's buffer holds no more of the body).
    Wanted,
    /// The socket, given.
    Given(Arc<TcpStream>),
}

thread_local! {
    // ureq is blocking: the body's reads, and so the transport's, run on the reading thread.
    static HANDOVER: RefCell<Handover> = const { RefCell::new(Handover::Off) };
}

/// Why the transport stopped reading: it handed its socket over (see [`SocketBody`]).
#[derive(Debug)]
struct HandedOver;

impl fmt::Display for HandedOver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the socket was handed over to the body's reader")
    }
}

impl std::error::Error for HandedOver {}

/// A plain TCP connection to one checked address.
pub(crate) struct PlainTcp {
    /// In an `Arc` so that the agent's shutdown handle and a [`SocketBody`] can share it.
    stream: Arc<TcpStream>,
    buffers: LazyBuffers,
    timeout_read: Option<UDuration>,
    timeout_write: Option<UDuration>,
    /// Whether the socket may be handed over: not under TLS, whose records it carries.
    plain: bool,
}

/// Connect to `addr` within `budget` (none: the system's own limit), as ureq's TCP connector
/// does for one address, and register the socket for the agent's shutdown.
pub(crate) fn connect(
    details: &ConnectionDetails,
    addr: SocketAddr,
    budget: Option<Duration>,
) -> Result<PlainTcp, Error> {
    let config = details.config;
    let connected = match budget {
        // ureq's rules: a budget already spent gets a second (not an instant failure), any
        // other at least 10 ms.
        Some(b) if b.is_zero() => TcpStream::connect_timeout(&addr, Duration::from_secs(1)),
        Some(b) => TcpStream::connect_timeout(&addr, b.max(Duration::from_millis(10))),
        None => TcpStream::connect(addr),
    };
    let stream = match connected {
        Ok(s) => s,
        Err(e) if timed_out(&e) => return Err(Error::Timeout(Timeout::Connect)),
        Err(e) => return Err(e.into()),
    };
    if config.no_delay() {
        stream.set_nodelay(true)?;
    }
    let stream = Arc::new(stream);
    let handle = Arc::downgrade(&stream) as Weak<dyn ShutdownHandle>;
    (details.register_shutdown)(handle)?;
    Ok(PlainTcp {
        stream,
        buffers: LazyBuffers::new(config.input_buffer_size(), config.output_buffer_size()),
        timeout_read: None,
        timeout_write: None,
        plain: !details.needs_tls(),
    })
}

/// A socket timeout: `WouldBlock` is how a read past `SO_RCVTIMEO` reports on Unix.
fn timed_out(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
    )
}

/// Set a socket timeout only when it changes (a system call each).
fn update_timeout(
    timeout: NextTimeout,
    previous: &mut Option<UDuration>,
    set: impl FnOnce(Option<Duration>) -> io::Result<()>,
) -> io::Result<()> {
    let wanted = timeout.not_zero();
    if wanted != *previous {
        set(wanted.map(|t| *t))?;
        *previous = wanted;
    }
    Ok(())
}

impl Transport for PlainTcp {
    fn buffers(&mut self) -> &mut dyn Buffers {
        &mut self.buffers
    }

    fn transmit_output(&mut self, amount: usize, timeout: NextTimeout) -> Result<(), Error> {
        let timeout = timeout.for_write();
        if timeout.after.is_zero() {
            return Err(Error::Timeout(timeout.reason));
        }
        let stream = &*self.stream;
        update_timeout(timeout, &mut self.timeout_write, |t| {
            stream.set_write_timeout(t)
        })?;
        match (&*self.stream).write_all(&self.buffers.output()[..amount]) {
            Ok(()) => Ok(()),
            Err(e) if timed_out(&e) => Err(Error::Timeout(timeout.reason)),
            Err(e) => Err(e.into()),
        }
    }

    fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, Error> {
        if self.plain && self.buffers.input().is_empty() {
            let given = HANDOVER.with(|h| {
                let mut h = h.borrow_mut();
                if matches!(*h, Handover::Wanted) {
                    *h = Handover::Given(self.stream.clone());
                    true
                } else {
                    false
                }
            });
            if given {
                return Err(Error::Other(Box::new(HandedOver)));
            }
        }
        let timeout = timeout.for_read();
        if timeout.after.is_zero() {
            return Err(Error::Timeout(timeout.reason));
        }
        let stream = &*self.stream;
        update_timeout(timeout, &mut self.timeout_read, |t| {
            stream.set_read_timeout(t)
        })?;
        let limit = timeout.not_zero().map(|t| *t);
        let started = std::time::Instant::now();
        let input = self.buffers.input_append_buf();
        let amount = loop {
            match (&*self.stream).read(input) {
                // Linux does not restart a socket read with a timeout after a signal: retry
                // with what is left of the timeout, as ureq does.
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {
                    let Some(limit) = limit else {
                        return Err(e.into());
                    };
                    let left = limit.saturating_sub(started.elapsed());
                    if left.is_zero() {
                        return Err(Error::Timeout(timeout.reason));
                    }
                    self.timeout_read = Some(UDuration::Exact(left));
                    self.stream.set_read_timeout(Some(left))?;
                }
                Err(e) if timed_out(&e) => return Err(Error::Timeout(timeout.reason)),
                Err(e) => return Err(e.into()),
                Ok(n) => break n,
            }
        };
        self.buffers.input_appended(amount);
        Ok(amount > 0)
    }

    /// A pooled connection is still usable if the peer has sent nothing since (bytes or a
    /// close would be read here). ureq asks before each request on a kept connection and
    /// again before keeping it: both on a request's path, so one system call, not ureq's
    /// three (non-blocking on, a read, off again).
    fn is_open(&mut self) -> bool {
        probe_quiet(&self.stream)
    }
}

/// Whether nothing (no byte, no close, no error) waits to be read on `stream`.
#[cfg(unix)]
fn probe_quiet(stream: &TcpStream) -> bool {
    use std::os::unix::io::AsRawFd;
    let mut byte = 0u8;
    // SAFETY: a valid socket and a one-byte buffer of ours; MSG_DONTWAIT makes this one call
    // non-blocking whatever the socket's mode, MSG_PEEK leaves a byte where it is.
    let n = unsafe {
        libc::recv(
            stream.as_raw_fd(),
            (&mut byte as *mut u8).cast(),
            1,
            libc::MSG_DONTWAIT | libc::MSG_PEEK,
        )
    };
    n < 0 && io::Error::last_os_error().kind() == io::ErrorKind::WouldBlock
}

#[cfg(not(unix))]
fn probe_quiet(stream: &TcpStream) -> bool {
    if stream.set_nonblocking(true).is_err() {
        return false;
    }
    let mut byte = [0u8];
    let quiet = matches!(
        (&*stream).read(&mut byte),
        Err(e) if e.kind() == io::ErrorKind::WouldBlock
    );
    quiet && stream.set_nonblocking(false).is_ok()
}

impl fmt::Debug for PlainTcp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlainTcp")
            .field("peer", &self.stream.peer_addr().ok())
            .finish()
    }
}

/// Resets the hand-over request when the read that made it returns, however it returns.
struct Asking;

impl Asking {
    fn start() -> Asking {
        HANDOVER.with(|h| *h.borrow_mut() = Handover::Wanted);
        Asking
    }

    /// The socket, if a transport gave it during the read.
    fn given(self) -> Option<Arc<TcpStream>> {
        HANDOVER.with(
            |h| match std::mem::replace(&mut *h.borrow_mut(), Handover::Off) {
                Handover::Given(s) => Some(s),
                _ => None,
            },
        )
    }
}

impl Drop for Asking {
    fn drop(&mut self) {
        HANDOVER.with(|h| *h.borrow_mut() = Handover::Off);
    }
}

/// A length-delimited body over plain HTTP, `length` bytes declared: read through `inner`
/// (ureq's reader) while ureq's buffer holds some of it, then from the socket itself.
///
/// Only for a response on a [`PlainTcp`] connection (an `http://` URL without a proxy: the
/// bytes on the socket are the body's own, not TLS records or a tunnel's), with no
/// `Transfer-Encoding` and no `Content-Encoding`: the declared length is the body's size on
/// the wire. Any other transport never gives its socket, and the body is then read through
/// `inner` to its end.
pub(crate) struct SocketBody<R> {
    inner: R,
    /// Bytes of the declared length not yet returned.
    left: u64,
    socket: Option<Arc<TcpStream>>,
    /// The read timeout set on the taken socket.
    timeout: Option<Duration>,
}

impl<R: Read> SocketBody<R> {
    pub(crate) fn new(inner: R, length: u64) -> SocketBody<R> {
        SocketBody {
            inner,
            left: length,
            socket: None,
            timeout: None,
        }
    }

    /// Read from the taken socket, by the thread's I/O deadline (which the download's pace
    /// moves before each read, as it does for ureq's reads).
    fn read_socket(&mut self, socket: &TcpStream, buf: &mut [u8]) -> io::Result<usize> {
        let timeout = io_bound(None);
        if timeout.is_some_and(|t| t.is_zero()) {
            return Err(io::ErrorKind::TimedOut.into());
        }
        if timeout != self.timeout {
            socket.set_read_timeout(timeout)?;
            self.timeout = timeout;
        }
        let want = usize::try_from(self.left).map_or(buf.len(), |l| l.min(buf.len()));
        match (&*socket).read(&mut buf[..want]) {
            // The body's length was declared and not reached.
            Ok(0) => Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "Peer disconnected",
            )),
            Err(e) if timed_out(&e) => Err(io::ErrorKind::TimedOut.into()),
            other => other,
        }
    }
}

impl<R: Read> Read for SocketBody<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if let Some(socket) = self.socket.clone() {
            if self.left == 0 {
                return Ok(0);
            }
            let n = self.read_socket(&socket, buf)?;
            self.left -= n as u64;
            return Ok(n);
        }
        let asking = Asking::start();
        match self.inner.read(buf) {
            Ok(n) => {
                drop(asking);
                self.left = self.left.saturating_sub(n as u64);
                Ok(n)
            }
            Err(e) => match asking.given() {
                Some(socket) => {
                    self.socket = Some(socket);
                    self.read(buf)
                }
                None => Err(e),
            },
        }
    }
}
