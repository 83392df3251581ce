//! The extension's allocator: mimalloc, its arenas kept off transparent huge pages and each
//! thread's free pages handed back after an extraction (see `Extraction`).
//!
//! mimalloc gives each thread its own pages, carved out of large arenas it reserves (1 GiB at a
//! time). Where the kernel backs anonymous memory with transparent huge pages (THP
//! `always`, common on servers, or `madvise`, which mimalloc itself opts into), the first
//! touch of a page anywhere in a 2 MiB stretch brings in the whole 2 MiB. One thread touches
//! a few such stretches; 32 threads fetching and parsing pages at once touched hundreds of
//! MiB that were mostly empty (peak RSS about 490 MiB against 75 MiB for one thread, on the
//! corpus pages: `benches/threads_memory.py`). Marking the arenas `MADV_NOHUGEPAGE` keeps
//! RSS to the pages actually used, at no measured cost in extraction speed. Only mimalloc's
//! own mappings are advised: the rest of the process (Python's heap, other libraries) keeps
//! whatever THP policy it had.
#[cfg(any(target_os = "linux", target_os = "android"))]
use std::ffi::{c_int, c_void};
#[cfg(any(target_os = "linux", target_os = "android"))]
use std::sync::atomic::AtomicI32;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, OnceLock, PoisonError};
use std::time::Duration;

use webgrip_extract::{Budget, Interrupted};

/// Only Rust's own allocations go through it; Python objects still use Python's allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(any(target_os = "linux", target_os = "android"))]
unsafe extern "C" {
    /// mimalloc's arena table (`mimalloc.h`): the start and size of arena `arena_id`
    /// (ids count from 1), or NULL once past the last arena.
    fn mi_arena_area(arena_id: c_int, size: *mut usize) -> *mut c_void;
}

unsafe extern "C" {
    /// mimalloc's own clean-up of the calling thread's heap (`mimalloc.h`).
    fn mi_collect(force: bool);
}

/// Extractions begun and not yet ended, across all threads: running or waiting for a turn.
static IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);
/// Extractions running now (at most `cores()`) and waiting for a turn, and the signal that one
/// has ended.
static RUNNING: Mutex<Turns> = Mutex::new(Turns {
    running: 0,
    waiting: 0,
});
static TURN_FREED: Condvar = Condvar::new();

struct Turns {
    running: usize,
    /// Counted under the lock before each wait: an extraction that ends signals only when
    /// one waits (the signal is a system call each time, and nearly always no one waits).
    waiting: usize,
}
/// How often a waiting extraction wakes to check its deadline and cancel flag.
const WAIT_SLICE: Duration = Duration::from_millis(20);

/// The machine's cores, read once.
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// One extraction's turn, from `begin` until the value is dropped (on every path, errors
/// included), which hands the turn to a waiting extraction and the thread's free pages back.
///
/// Memory under many threads is the sum of the parse trees in flight plus what each thread's
/// heap keeps after its parse. Running at most one extraction per core bounds the first (the
/// CPU is the limit anyway: more at once only interleave); the collect in `drop` the second.
pub struct Extraction {
    /// Extractions in flight when this one began, itself included.
    crowd: usize,
    /// Whether it holds a turn (it does once `begin` returns it).
    running: bool,
    /// Whether its free pages go back to the system at once (see [`Extraction::release_all`]).
    force: bool,
}

/// A result that becomes at least this many Python objects (links, table cells) is built
/// after a forced collect (see [`Extraction::release_all`]).
pub const RELEASE_BEFORE_OBJECTS: usize = 50_000;

impl Extraction {
    /// Wait for a turn (at most `cores()` extractions run at once); gives up when `budget`
    /// is spent meanwhile.
    pub fn begin(budget: &Budget) -> Result<Self, Interrupted> {
        let mut turn = Extraction {
            crowd: IN_FLIGHT.fetch_add(1, Ordering::AcqRel) + 1,
            running: false,
            force: false,
        };
        let mut turns = RUNNING.lock().unwrap_or_else(PoisonError::into_inner);
        while turns.running >= cores() {
            budget.check()?;
            turns.waiting += 1;
            turns = match TURN_FREED.wait_timeout(turns, WAIT_SLICE) {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
            turns.waiting -= 1;
        }
        turns.running += 1;
        turn.running = true;
        Ok(turn)
    }

    /// Return the freed pages to the system when this extraction ends, not merely to the
    /// shared arenas: for a result about to become many Python objects. The tree, freed but
    /// resident until mimalloc next purges (which only an allocation in the core triggers),
    /// would otherwise stay under them: the 300,000 link dicts of a 10 MiB page of links
    /// (about 100 MiB) peaked 100 MiB higher through `fetch_page`. Not done for every large
    /// input: the next parse faults the pages back, 10-25% of a 1-8 MiB page's parse when
    /// parses follow one another.
    pub fn release_all(&mut self) {
        self.force = true;
    }
}

impl Drop for Extraction {
    /// Hand the calling thread's free pages back after the extraction (it frees a whole
    /// tree). Without it, each of many threads keeps the pages of its last parse to itself
    /// until it allocates again. Normally not forced: the pages go to mimalloc's shared
    /// arenas, reused by whichever thread parses next and purged on mimalloc's usual delay; a
    /// forced collect returns everything to the system at once and cost a quarter of the
    /// single-thread extraction speed (the next parse faults it all back). But when more
    /// extractions are in flight than there are cores, the threads' leftovers add up faster
    /// than the delay purges them (peak RSS grows with threads, not work), and the CPU is
    /// already the bottleneck: then it is forced. It is forced too when asked (`release_all`).
    fn drop(&mut self) {
        if self.running {
            let mut turns = RUNNING.lock().unwrap_or_else(PoisonError::into_inner);
            turns.running = turns.running.saturating_sub(1);
            let waiting = turns.waiting > 0;
            drop(turns);
            if waiting {
                TURN_FREED.notify_one();
            }
        }
        let crowd = self.crowd.max(IN_FLIGHT.load(Ordering::Acquire));
        IN_FLIGHT.fetch_sub(1, Ordering::AcqRel);
        // SAFETY: `mi_collect` takes no pointers; it only moves this thread's empty pages to
        // the shared arenas and (forced) returns free memory to the system, as mimalloc does
        // on its own from time to time.
        unsafe { mi_collect(crowd > cores() || self.force) }
    }
}

/// Bodies at least this large are followed by a collect even when nothing is crowding the
/// cores (see [`after_request`]).
pub const COLLECT_AFTER_BYTES: usize = 64 * 1024;

/// After a request: the same hand-back as after an extraction (see `Extraction`'s `drop`) for
/// the thread's read and decompression buffers, forced only while extractions are crowding
/// the cores. `sizable`: the request's buffers were worth handing back (a body of
/// [`COLLECT_AFTER_BYTES`] or more, or one that went through a decoder). A small identity
/// body leaves at most a few small pages that the thread's next allocation reuses (mimalloc
/// also retires empty pages on its own): the collect, a walk over the whole thread heap, was
/// 8% of a small request's instructions in the core (the refill after it as much again).
/// Crowded, it still runs after every request.
pub fn after_request(sizable: bool) {
    let crowded = IN_FLIGHT.load(Ordering::Acquire) > cores();
    if crowded || sizable {
        // SAFETY: as in `Extraction`'s `drop`: no pointers, mimalloc's own clean-up.
        unsafe { mi_collect(crowded) }
    }
}

/// A kept network worker with nothing to do hands its free pages back to the system: the
/// bodies it read were freed by the callers' threads, and their pages stay with this thread's
/// heap until it collects (see `webgrip_net::on_idle`).
pub fn collect_idle_worker() {
    // SAFETY: as in `Extraction`'s `drop`: no pointers, mimalloc's own clean-up.
    unsafe { mi_collect(true) }
}

/// The arenas advised so far: ids `1..=ADVISED`.
#[cfg(any(target_os = "linux", target_os = "android"))]
static ADVISED: AtomicI32 = AtomicI32::new(0);

/// Mark every mimalloc arena not yet advised `MADV_NOHUGEPAGE`. Cheap when there is none
/// (one atomic load and one table look-up), so it can run after each large piece of work:
/// mimalloc reserves a new arena only when the ones it has are full.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub fn keep_arenas_off_huge_pages() {
    let mut id = ADVISED.load(Ordering::Acquire) + 1;
    loop {
        let mut size = 0usize;
        // SAFETY: `mi_arena_area` reads mimalloc's arena table (atomically) and writes only
        // through the valid `size` pointer; an id past the last arena returns NULL.
        let start = unsafe { mi_arena_area(id, &mut size) };
        if start.is_null() || size == 0 {
            return;
        }
        // SAFETY: the range is a mapping mimalloc owns for the life of the process;
        // MADV_NOHUGEPAGE changes how the kernel may back it, never its contents. A failure
        // (an old kernel without THP) leaves things as they were, so it is ignored.
        unsafe {
            libc::madvise(start, size, libc::MADV_NOHUGEPAGE);
        }
        ADVISED.fetch_max(id, Ordering::AcqRel);
        id += 1;
    }
}

/// Transparent huge pages are a Linux feature: nothing to do elsewhere.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub fn keep_arenas_off_huge_pages() {}
