//! How long a download's body may take: curl's `--speed-limit`/`--speed-time` stall rule and
//! an overall limit, instead of the fetch deadline (a large file that keeps flowing finishes;
//! a server that stops sending is given up on within the stall window).
//!
//! The rule is checked where the bytes are read ([`Pace::arm`] before each read, which also
//! bounds the blocking read itself through the thread's [`IoDeadline`]).
use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crate::client::deadline_after;
use crate::error::{shown_url, ErrorKind, NetError};
use crate::transport::IoDeadline;

/// Stall rule default: at least this many bytes per second on average...
pub const DEFAULT_DOWNLOAD_MIN_SPEED: u64 = 1024;
/// ... over any window of this length.
pub const DEFAULT_DOWNLOAD_STALL_WINDOW: Duration = Duration::from_secs(30);
/// A download's transfer (from sending the request, its head included) by default: an hour.
pub const DEFAULT_DOWNLOAD_TIMEOUT: Duration = Duration::from_secs(3600);

/// What bounds a download once its response head has arrived (the head itself comes within
/// the call's `timeout`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DownloadLimits {
    /// Fail when fewer than `min_speed` bytes per second arrive on average over
    /// `stall_window` (at least one byte, whatever the speed).
    pub min_speed: u64,
    pub stall_window: Duration,
    /// The transfer, from sending the request; `None`: only the stall rule ends a flowing
    /// download.
    pub overall: Option<Duration>,
}

impl Default for DownloadLimits {
    fn default() -> Self {
        DownloadLimits {
            min_speed: DEFAULT_DOWNLOAD_MIN_SPEED,
            stall_window: DEFAULT_DOWNLOAD_STALL_WINDOW,
            overall: Some(DEFAULT_DOWNLOAD_TIMEOUT),
        }
    }
}

/// The bytes received by each moment: `(time, bytes so far)`, oldest first. Samples closer
/// than [`StallRule::step`] are merged into the later one (its time and count move forward),
/// so at most about 64 are kept per window whatever the read rate; merging only ever counts
/// bytes as later than they came, a leniency of one step.
#[derive(Debug)]
struct StallRule {
    /// Bytes the window must hold: `min_speed × window`, at least 1.
    need: u64,
    window: Duration,
    step: Duration,
    samples: VecDeque<(Instant, u64)>,
}

impl StallRule {
    fn new(limits: &DownloadLimits, start: Instant) -> StallRule {
        let window = limits.stall_window.min(crate::client::MAX_TIMEOUT);
        let need = (limits.min_speed as f64 * window.as_secs_f64()).ceil();
        StallRule {
            need: if need >= u64::MAX as f64 {
                u64::MAX
            } else {
                (need as u64).max(1)
            },
            window,
            step: (window / 64).max(Duration::from_millis(10)),
            samples: VecDeque::from([(start, 0)]),
        }
    }

    fn record(&mut self, now: Instant, done: u64) {
        let merge = self.samples.len() > 1
            && self
                .samples
                .get(self.samples.len() - 2)
                .is_some_and(|(t, _)| now.saturating_duration_since(*t) < self.step);
        if merge {
            if let Some(last) = self.samples.back_mut() {
                *last = (now, done);
            }
        } else {
            self.samples.push_back((now, done));
        }
        // Only the last sample at or before `now - window` is needed to count the window.
        while self.samples.len() > 1
            && self
                .samples
                .get(1)
                .is_some_and(|(t, _)| now.saturating_duration_since(*t) >= self.window)
        {
            self.samples.pop_front();
        }
    }

    /// When the rule fails if no more bytes arrive: the window ending then holds fewer than
    /// `need` bytes, i.e. it starts at the first sample that had more than `done - need`.
    fn deadline(&self, done: u64) -> Instant {
        let floor = done.saturating_sub(self.need);
        let below = done < self.need;
        let first = self
            .samples
            .iter()
            .find(|(_, c)| below || *c > floor)
            .or(self.samples.back());
        first.map_or_else(Instant::now, |(t, _)| deadline_after(*t, self.window))
    }
}

/// The stall rule and the overall limit of one download, holding the thread's I/O deadline
/// at the earlier of the two so that a read blocked on a silent server returns in time.
pub(crate) struct Pace<'a> {
    rule: StallRule,
    limits: DownloadLimits,
    overall: Option<Instant>,
    io: &'a IoDeadline,
    url: &'a str,
    total: Option<u64>,
}

impl<'a> Pace<'a> {
    pub(crate) fn new(
        limits: DownloadLimits,
        started: Instant,
        io: &'a IoDeadline,
        url: &'a str,
        total: Option<u64>,
    ) -> Pace<'a> {
        Pace {
            rule: StallRule::new(&limits, Instant::now()),
            limits,
            overall: limits.overall.map(|d| deadline_after(started, d)),
            io,
            url,
            total,
        }
    }

    /// Before a read: fail if a limit has passed, else bound the read by the nearer one.
    pub(crate) fn arm(&self, done: u64) -> Result<(), NetError> {
        let now = Instant::now();
        let stall_at = self.rule.deadline(done);
        let at = self.overall.map_or(stall_at, |o| o.min(stall_at));
        if now >= at {
            return Err(self.failure(done, now));
        }
        self.io.move_to(at);
        Ok(())
    }

    /// After a read that brought the total to `done`.
    pub(crate) fn record(&mut self, done: u64) {
        self.rule.record(Instant::now(), done);
    }

    /// A read failed: the limit that cut it, if one has passed (else `None`: a real error).
    pub(crate) fn explain(&self, done: u64) -> Option<NetError> {
        let now = Instant::now();
        let stall_at = self.rule.deadline(done);
        let passed = now >= stall_at || self.overall.is_some_and(|o| now >= o);
        passed.then(|| self.failure(done, now))
    }

    fn failure(&self, done: u64, now: Instant) -> NetError {
        let got = match self.total {
            Some(t) => format!("{} of {} received", human(done), human(t)),
            None => format!("{} received", human(done)),
        };
        let url = shown_url(self.url);
        match (self.overall, self.limits.overall) {
            (Some(o), Some(limit)) if now >= o => NetError::new(
                ErrorKind::Timeout,
                Some(self.url),
                "download-timeout",
                format!(
                    "Download of {url} took longer than its limit of {} (download_timeout; {got})",
                    seconds(limit)
                ),
            ),
            _ => NetError::new(
                ErrorKind::Timeout,
                Some(self.url),
                "stalled",
                format!(
                    "Download of {url} stalled: less than {}/s arrived over the last {} ({got})",
                    human(self.limits.min_speed),
                    seconds(self.rule.window)
                ),
            ),
        }
    }
}

/// `n` bytes as people read them: `512 bytes`, `1 KiB`, `2.8 MiB`.
fn human(n: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if n < 1024 {
        return format!("{n} bytes");
    }
    let mut v = n as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    if v.fract() == 0.0 {
        format!("{v:.0} {}", UNITS[unit])
    } else {
        format!("{v:.1} {}", UNITS[unit])
    }
}

fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0} s")
    } else {
        format!("{s:.1} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(min_speed: u64, window_ms: u64, start: Instant) -> StallRule {
        let limits = DownloadLimits {
            min_speed,
            stall_window: Duration::from_millis(window_ms),
            overall: None,
        };
        StallRule::new(&limits, start)
    }

    #[test]
    fn nothing_received_fails_one_window_after_the_start() {
        let t0 = Instant::now();
        let r = rule(100, 1000, t0);
        assert_eq!(r.deadline(0), t0 + Duration::from_secs(1));
    }

    #[test]
    fn a_steady_flow_keeps_moving_the_deadline() {
        // 100 bytes/s needed over 1 s; 60 bytes every 0.5 s is 120 bytes/s.
        let t0 = Instant::now();
        let mut r = rule(100, 1000, t0);
        let mut done = 0;
        for i in 1..=20u64 {
            done += 60;
            let now = t0 + Duration::from_millis(500 * i);
            r.record(now, done);
            assert!(r.deadline(done) > now, "step {i}: still flowing");
        }
        // Then silence: fails once the window since the last bytes holds under 100.
        let last = t0 + Duration::from_millis(500 * 20);
        let at = r.deadline(done);
        assert!(
            at > last && at <= last + Duration::from_secs(1),
            "{:?}",
            at - last
        );
        assert!(
            r.samples.len() <= 70,
            "samples stay bounded: {}",
            r.samples.len()
        );
    }

    #[test]
    fn a_trickle_below_the_speed_fails() {
        // 10 bytes every 0.1 s is 100 bytes/s, under the 200 needed.
        let t0 = Instant::now();
        let mut r = rule(200, 1000, t0);
        let mut done = 0;
        let mut failed_at = None;
        for i in 1..=30u64 {
            let now = t0 + Duration::from_millis(100 * i);
            if r.deadline(done) <= now {
                failed_at = Some(i);
                break;
            }
            done += 10;
            r.record(now, done);
        }
        assert_eq!(failed_at, Some(10), "fails one window in");
    }

    #[test]
    fn human_sizes() {
        assert_eq!(human(512), "512 bytes");
        assert_eq!(human(1024), "1 KiB");
        assert_eq!(human(2_936_012), "2.8 MiB");
        assert_eq!(seconds(Duration::from_secs(30)), "30 s");
    }
}
