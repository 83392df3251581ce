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
    /// The socket's read and write timeouts as set (see [`SocketTimeout`]).
    timeout_read: SocketTimeout,
    timeout_write: SocketTimeout,
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
        timeout_read: SocketTimeout::default(),
        timeout_write: SocketTimeout::default(),
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

/// One of a socket's timeouts (`SO_RCVTIMEO` or `SO_SNDTIMEO`), as last set.
///
/// An operation must end within the time left to its deadline, which moves on every call:
/// setting it exactly cost a system call before each read and each write. A socket timeout
/// shorter than the time left serves as well, provided a wait it cuts short is resumed for
/// the rest ([`SocketTimeout::resume`]): so the one set is kept while it is no longer than
/// the time left, and otherwise set to half of it, which a later call (of this request, or of
/// the next one on a kept connection, whose deadline is further away) can keep in turn. A
/// server that answers within that half costs no system call for its timeouts.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct SocketTimeout {
    set: Option<Duration>,
}

impl SocketTimeout {
    /// Make the socket's timeout at most `left` (none: no deadline, no timeout) before an
    /// operation, through `apply` (the system call) only when the one set will not do.
    fn before(
        &mut self,
        left: Option<Duration>,
        apply: impl FnOnce(Option<Duration>) -> io::Result<()>,
    ) -> io::Result<()> {
        let wanted = match (left, self.set) {
            (None, None) => return Ok(()),
            (Some(left), Some(set)) if set <= left => return Ok(()),
            (None, Some(_)) => None,
            // At least a millisecond (or all of a shorter `left`): never zero, which the
            // system refuses, and no storm of wake-ups at the end of a budget.
            (Some(left), _) => Some((left / 2).max(left.min(Duration::from_millis(1)))),
        };
        apply(wanted)?;
        self.set = wanted;
        Ok(())
    }

    /// After a wait that ended in a socket timeout (or a signal) `elapsed` into an operation
    /// that had `left`: whether to wait again, the socket's timeout then set to exactly what
    /// is left (`false`: the deadline has passed, a real timeout).
    fn resume(
        &mut self,
        left: Option<Duration>,
        elapsed: Duration,
        apply: impl FnOnce(Option<Duration>) -> io::Result<()>,
    ) -> io::Result<bool> {
        let rest = match left {
            Some(left) => {
                let rest = left.saturating_sub(elapsed);
                if rest.is_zero() {
                    return Ok(false);
                }
                Some(rest)
            }
            None => None,
        };
        if rest != self.set {
            apply(rest)?;
            self.set = rest;
        }
        Ok(true)
    }
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
        let limit = timeout.not_zero().map(|t| *t);
        self.timeout_write
            .before(limit, |t| stream.set_write_timeout(t))?;
        let started = std::time::Instant::now();
        let mut out = &self.buffers.output()[..amount];
        while !out.is_empty() {
            match (&*self.stream).write(out) {
                Ok(0) => return Err(io::Error::from(io::ErrorKind::WriteZero).into()),
                Ok(n) => out = &out[n..],
                // Cut short by a socket timeout shorter than the time left, or by a signal:
                // the rest of the bytes, in what is left of the time.
                Err(e) if timed_out(&e) || e.kind() == io::ErrorKind::Interrupted => {
                    if !self
                        .timeout_write
                        .resume(limit, started.elapsed(), |t| stream.set_write_timeout(t))?
                    {
                        return Err(Error::Timeout(timeout.reason));
                    }
                }
                Err(e) => return Err(e.into()),
            }
        }
        Ok(())
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
        let limit = timeout.not_zero().map(|t| *t);
        self.timeout_read
            .before(limit, |t| stream.set_read_timeout(t))?;
        let started = std::time::Instant::now();
        let input = self.buffers.input_append_buf();
        let amount = loop {
            match (&*self.stream).read(input) {
                // Cut short by a socket timeout shorter than the time left, or by a signal
                // (Linux does not restart a socket read with a timeout after one): wait again
                // for what is left, as ureq does after a signal.
                Err(e) if e.kind() == io::ErrorKind::Interrupted && limit.is_none() => {
                    return Err(e.into());
                }
                Err(e) if timed_out(&e) || e.kind() == io::ErrorKind::Interrupted => {
                    if !self
                        .timeout_read
                        .resume(limit, started.elapsed(), |t| stream.set_read_timeout(t))?
                    {
                        return Err(Error::Timeout(timeout.reason));
                    }
                }
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
    timeout: SocketTimeout,
}

impl<R: Read> SocketBody<R> {
    pub(crate) fn new(inner: R, length: u64) -> SocketBody<R> {
        SocketBody {
            inner,
            left: length,
            socket: None,
            // Whatever the transport last set, larger than any time left: set on first use.
            timeout: SocketTimeout {
                set: Some(Duration::MAX),
            },
        }
    }

    /// Read from the taken socket, by the thread's I/O deadline (which the download's pace
    /// moves before each read, as it does for ureq's reads).
    fn read_socket(&mut self, socket: &TcpStream, buf: &mut [u8]) -> io::Result<usize> {
        let left = io_bound(None);
        if left.is_some_and(|t| t.is_zero()) {
            return Err(io::ErrorKind::TimedOut.into());
        }
        self.timeout.before(left, |t| socket.set_read_timeout(t))?;
        let started = std::time::Instant::now();
        let want = usize::try_from(self.left).map_or(buf.len(), |l| l.min(buf.len()));
        loop {
            match (&*socket).read(&mut buf[..want]) {
                // The body's length was declared and not reached.
                Ok(0) => {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "Peer disconnected",
                    ))
                }
                Err(e) if timed_out(&e) => {
                    if !self
                        .timeout
                        .resume(left, started.elapsed(), |t| socket.set_read_timeout(t))?
                    {
                        return Err(io::ErrorKind::TimedOut.into());
                    }
                }
                other => return other,
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// `before(left)` on `timeout`: the value set by the system call, if one was made.
    fn before(timeout: &mut SocketTimeout, left: Option<Duration>) -> Option<Option<Duration>> {
        let mut made = None;
        timeout
            .before(left, |t| {
                made = Some(t);
                Ok(())
            })
            .unwrap();
        made
    }

    #[test]
    fn a_socket_timeout_no_longer_than_the_time_left_is_kept() {
        let mut t = SocketTimeout::default();
        assert_eq!(before(&mut t, None), None);
        assert_eq!(before(&mut t, Some(ms(30_000))), Some(Some(ms(15_000))));
        // The rest of this request, and the next request's fresh deadline: no system call.
        assert_eq!(before(&mut t, Some(ms(29_000))), None);
        assert_eq!(before(&mut t, Some(ms(15_000))), None);
        assert_eq!(before(&mut t, Some(ms(30_000))), None);
        // Less time left than the timeout set: it is cut, never left longer.
        assert_eq!(before(&mut t, Some(ms(14_000))), Some(Some(ms(7_000))));
        assert_eq!(before(&mut t, Some(ms(1))), Some(Some(ms(1))));
        assert_eq!(
            before(&mut t, Some(Duration::from_micros(10))),
            Some(Some(Duration::from_micros(10)))
        );
        assert_eq!(before(&mut t, None), Some(None));
        // A socket whose timeout is not known is always set.
        let mut unknown = SocketTimeout {
            set: Some(Duration::MAX),
        };
        assert_eq!(before(&mut unknown, Some(ms(4))), Some(Some(ms(2))));
    }

    #[test]
    fn a_wait_cut_short_resumes_for_what_is_left() {
        let mut t = SocketTimeout::default();
        let mut set = None;
        let mut apply = |v| {
            set = Some(v);
            Ok(())
        };
        assert!(t.resume(Some(ms(100)), ms(50), &mut apply).unwrap());
        assert_eq!(set, Some(Some(ms(50))));
        assert!(!t.resume(Some(ms(100)), ms(100), |_| Ok(())).unwrap());
        assert!(!t.resume(Some(ms(100)), ms(150), |_| Ok(())).unwrap());
    }

    #[test]
    fn a_read_waits_past_a_short_socket_timeout_for_a_slow_answer() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let server = std::thread::spawn(move || {
            let (mut conn, _) = listener.accept().unwrap();
            std::thread::sleep(ms(120));
            conn.write_all(b"late").unwrap();
        });
        let socket = TcpStream::connect(addr).unwrap();
        // A socket timeout far shorter than the body's budget, as a kept one may be.
        socket.set_read_timeout(Some(ms(10))).unwrap();
        let mut body = SocketBody::new(io::empty(), 4);
        body.timeout = SocketTimeout { set: Some(ms(10)) };
        let _bound = crate::transport::IoDeadline::new(std::time::Instant::now() + ms(5_000));
        let mut buf = [0u8; 4];
        let n = body.read_socket(&socket, &mut buf).unwrap();
        assert_eq!(&buf[..n], b"late");
        server.join().unwrap();
    }
}
