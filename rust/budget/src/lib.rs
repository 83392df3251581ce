//! The time a call may spend parsing and building views, and a way to cancel it.
//!
//! Why: the network deadline ends when the body has arrived, but a hostile page can then keep
//! the parser busy (misnested tags, huge tables, a PDF's content streams). A [`Budget`]
//! carries the call's deadline and an optional cancel flag into webgrip-extract's lexer
//! (checked every few hundred tokens) and, through a thread-local set by [`Budget::enter`],
//! into every tree walk, so one expired budget stops the whole extraction within a few
//! milliseconds; webgrip-pdf checks it between pages. Its own crate so that the PDF reader
//! needs nothing of the HTML one.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Why an extraction stopped before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interrupted {
    /// The deadline passed.
    Deadline,
    /// The cancel flag was raised (the caller gave up).
    Cancelled,
}

/// A deadline and a cancel flag, either optional. The default budget never runs out.
#[derive(Debug, Clone, Default)]
pub struct Budget {
    pub deadline: Option<Instant>,
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// No limit: the library functions without a deadline.
    pub fn unlimited() -> Self {
        Budget::default()
    }

    /// Why this budget is spent, if it is.
    pub fn check(&self) -> Result<(), Interrupted> {
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Err(Interrupted::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Interrupted::Deadline);
        }
        Ok(())
    }

    /// Run `f` with this budget visible to [`spent`] on this thread; the previous budget (for
    /// nested calls) is restored afterwards, also when `f` unwinds.
    pub fn enter<T>(&self, f: impl FnOnce() -> T) -> T {
        struct Restore(Option<Budget>);
        impl Drop for Restore {
            fn drop(&mut self) {
                CURRENT.with(|c| c.replace(self.0.take()));
                SPENT.with(|s| s.set(false));
            }
        }
        let previous = CURRENT.with(|c| c.replace(Some(self.clone())));
        SPENT.with(|s| s.set(false));
        let _restore = Restore(previous);
        f()
    }
}

thread_local! {
    static CURRENT: Cell<Option<Budget>> = const { Cell::new(None) };
    /// Latched: once spent, every later check answers at once.
    static SPENT: Cell<bool> = const { Cell::new(false) };
}

/// Whether the budget entered on this thread (see [`Budget::enter`]) is spent. Cheap enough
/// to call every few thousand nodes; `false` when no budget was entered.
pub fn spent() -> bool {
    if SPENT.with(Cell::get) {
        return true;
    }
    let out = CURRENT.with(|c| {
        let b = c.take();
        let out = b.as_ref().is_some_and(|b| b.check().is_err());
        c.set(b);
        out
    });
    if out {
        SPENT.with(|s| s.set(true));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn default_never_runs_out() {
        assert_eq!(Budget::unlimited().check(), Ok(()));
        assert!(!Budget::unlimited().enter(spent));
        assert!(!spent());
    }

    #[test]
    fn past_deadline_and_cancel_are_reported() {
        let past = Budget {
            deadline: Some(Instant::now() - Duration::from_millis(1)),
            cancel: None,
        };
        assert_eq!(past.check(), Err(Interrupted::Deadline));
        assert!(past.enter(spent));
        assert!(!spent(), "leaving the scope restores the unlimited budget");
        let flag = Arc::new(AtomicBool::new(false));
        let b = Budget {
            deadline: None,
            cancel: Some(flag.clone()),
        };
        assert_eq!(b.check(), Ok(()));
        flag.store(true, Ordering::Relaxed);
        assert_eq!(b.check(), Err(Interrupted::Cancelled));
    }
}
