//! Kept worker threads for blocking work: the DNS lookups `resolve` waits for with a budget,
//! and each request's exchange (see [`on_worker`]).
//!
//! Each job runs on a thread of its own at the time (a job that hangs holds up no other), but
//! a thread that finished one waits a while for the next instead of exiting: starting a thread
//! per job cost several times a lookup itself.
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::thread;
use std::time::Duration;

/// One job to run on a worker thread; it returns its [`Reply`].
pub(crate) type Job = Box<dyn FnOnce() -> Reply + Send>;

/// What a job hands back (sends its result), called once its thread counts as free again: a
/// caller woken by it that hands in its next job at once finds that thread waiting for it,
/// instead of starting another.
pub(crate) type Reply = Box<dyn FnOnce() + Send>;

struct Workers {
    state: Mutex<WorkerState>,
    ready: Condvar,
}

struct WorkerState {
    /// Jobs handed to a waiting thread and not picked up yet.
    queue: VecDeque<Job>,
    /// Threads waiting for a job (those about to pick up a queued one included).
    idle: usize,
    /// The [`forks`] count when these threads were started: a forked child has none of them
    /// (only the thread that forked is copied), so it starts afresh instead of queueing for
    /// ghosts.
    forks: u64,
}

/// Forked children this process descends from, counted in the child by a `pthread_atfork`
/// handler: read on every job where asking the process id cost a system call each.
static FORKS: AtomicU64 = AtomicU64::new(0);

#[cfg(unix)]
extern "C" fn count_fork() {
    // Only an atomic add: a fork handler may do no more than an async-signal-safe function.
    FORKS.fetch_add(1, Ordering::Relaxed);
}

/// The fork count, the handler registered on first use (before any worker thread exists).
fn forks() -> u64 {
    static REGISTERED: OnceLock<()> = OnceLock::new();
    REGISTERED.get_or_init(|| {
        #[cfg(unix)]
        // SAFETY: registers a handler that only touches an atomic; nothing to unregister.
        unsafe {
            libc::pthread_atfork(None, None, Some(count_fork));
        }
    });
    FORKS.load(Ordering::Relaxed)
}

/// How long a worker thread with nothing to do waits before it exits.
const WORKER_IDLE: Duration = Duration::from_secs(10);
/// How long a worker waits for its next job before it runs the idle hook (see [`on_idle`]):
/// longer than a caller takes to convert one page and ask for the next.
const IDLE_GRACE: Duration = Duration::from_millis(50);

/// What a worker runs once it has waited [`IDLE_GRACE`] with nothing to do.
static IDLE_HOOK: OnceLock<fn()> = OnceLock::new();

/// Have every worker run `hook` on its own thread once it has had nothing to do for a moment
/// (the first call wins). The extension hands the thread's free allocator pages back there:
/// a response body is freed by the caller's thread, which leaves the pages with the worker
/// that allocated them until that worker collects, and an idle one would keep them.
pub fn on_idle(hook: fn()) {
    let _ = IDLE_HOOK.set(hook);
}

fn workers() -> &'static Workers {
    static WORKERS: OnceLock<Workers> = OnceLock::new();
    WORKERS.get_or_init(|| Workers {
        state: Mutex::new(WorkerState {
            queue: VecDeque::new(),
            idle: 0,
            forks: forks(),
        }),
        ready: Condvar::new(),
    })
}

fn worker_state(workers: &Workers) -> MutexGuard<'_, WorkerState> {
    // Nothing runs under the lock that could leave the state half-changed.
    workers.state.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Run `job` on a worker thread that is free now: a waiting one, else a new one.
pub(crate) fn spawn_job(job: Job) -> std::io::Result<()> {
    let workers = workers();
    let mut state = worker_state(workers);
    let forks = forks();
    if state.forks != forks {
        state.queue.clear();
        state.idle = 0;
        state.forks = forks;
    }
    // Every queued job has a waiting thread of its own: only a thread beyond those is free.
    if state.idle > state.queue.len() {
        state.queue.push_back(job);
        drop(state);
        workers.ready.notify_one();
        return Ok(());
    }
    drop(state);
    thread::Builder::new()
        .name("webgrip-worker".into())
        .spawn(move || worker(job))
        .map(|_| ())
}

fn worker(first: Job) {
    let workers = workers();
    let mut reply = first();
    let mut state = worker_state(workers);
    loop {
        state.idle += 1;
        drop(state);
        reply();
        state = worker_state(workers);
        let mut hooked = false;
        loop {
            // A job queued meanwhile is found here: only then does the thread wait.
            if let Some(job) = state.queue.pop_front() {
                state.idle -= 1;
                drop(state);
                reply = job();
                state = worker_state(workers);
                break;
            }
            let wait = if hooked { WORKER_IDLE } else { IDLE_GRACE };
            let (next, waited) = workers
                .ready
                .wait_timeout(state, wait)
                .unwrap_or_else(PoisonError::into_inner);
            state = next;
            if waited.timed_out() && state.queue.is_empty() {
                if !hooked {
                    hooked = true;
                    if let Some(hook) = IDLE_HOOK.get() {
                        // Still counted idle: a job queued meanwhile is for this thread, and
                        // the top of the loop finds it.
                        drop(state);
                        hook();
                        state = worker_state(workers);
                    }
                    continue;
                }
                // Under the lock: no job can be queued for this thread once it is not counted.
                state.idle -= 1;
                return;
            }
        }
    }
}

/// `f` run on a worker thread, this thread waiting for its result; an error if no thread
/// could be started or `f` panicked.
///
/// A request's exchange runs there rather than on the caller's thread because of how a busy
/// machine schedules them: the caller has just spent a millisecond or more converting the
/// previous page, and each of the several waits of an exchange (for the response head, then
/// for each part of the body) ended with that thread queued behind the other work of its
/// core, since the scheduler holds back a thread that has run much lately. A worker that
/// only waits on sockets is woken at once, and the caller waits once, for the whole answer
/// (what rnet's runtime thread does too): on the loaded 2-core machine, 181 corpus pages cost
/// 4–5 ms of wall time each in the request against 0.3 ms of CPU time.
pub fn on_worker<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, String> {
    on_worker_then(move || (f(), || ()))
}

/// [`on_worker`] for a job that leaves work to its thread once the caller has the result:
/// `f` returns the result and that work, run after the result is handed back (clean-up that
/// the caller need not wait for).
pub fn on_worker_then<T: Send + 'static, A: FnOnce() + Send + 'static>(
    f: impl FnOnce() -> (T, A) + Send + 'static,
) -> Result<T, String> {
    let (tx, rx) = mpsc::sync_channel(1);
    spawn_job(Box::new(move || {
        let (result, after) = f();
        Box::new(move || {
            let _ = tx.send(result);
            after();
        })
    }))
    .map_err(|e| format!("cannot start a worker thread: {e}"))?;
    rx.recv()
        .map_err(|_| String::from("the worker thread failed"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_run_on_another_thread_and_a_panic_is_an_error() {
        let caller = thread::current().id();
        for i in 0..5u32 {
            let (id, doubled) = on_worker(move || (thread::current().id(), i * 2)).unwrap();
            assert_ne!(id, caller);
            assert_eq!(doubled, i * 2);
        }
        assert!(on_worker(|| -> u8 { panic!("boom") }).is_err());
        assert_eq!(on_worker(|| 7).unwrap(), 7);
    }

    #[test]
    fn the_work_left_runs_on_the_worker_after_the_result_is_handed_back() {
        let (tx, rx) = mpsc::channel();
        let got = on_worker_then(move || {
            (5, move || {
                let _ = tx.send(thread::current().name().map(str::to_owned));
            })
        });
        assert_eq!(got.unwrap(), 5);
        let ran_on = rx.recv_timeout(Duration::from_secs(5)).unwrap();
        assert_eq!(ran_on.as_deref(), Some("webgrip-worker"));
    }

    static HOOKED_ON_A_WORKER: std::sync::atomic::AtomicUsize =
        std::sync::atomic::AtomicUsize::new(0);

    fn count_if_on_a_worker() {
        if thread::current().name() == Some("webgrip-worker") {
            HOOKED_ON_A_WORKER.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    }

    #[test]
    fn an_idle_worker_runs_the_idle_hook_on_its_own_thread() {
        on_idle(count_if_on_a_worker);
        on_worker(|| ()).unwrap();
        let until = std::time::Instant::now() + Duration::from_secs(5);
        while HOOKED_ON_A_WORKER.load(std::sync::atomic::Ordering::SeqCst) == 0 {
            assert!(
                std::time::Instant::now() < until,
                "no idle worker ran the hook"
            );
            thread::sleep(Duration::from_millis(10));
        }
        // The worker is still kept after its hook ran: the next job finds it.
        assert_eq!(on_worker(|| 3).unwrap(), 3);
    }
}
