//! Hash maps for the selection's per-page tables: class strings, ids, text hashes and
//! signatures, all derived from the page.
//!
//! SipHash (the standard library's) cost a tenth of the selection; foldhash is several
//! times faster on short strings and integers. Its maps are keyed: both seeds come from the
//! standard library's OS-seeded `RandomState` (foldhash's own global seed is only ASLR and
//! the clock), a new per-map seed for every map, so a page cannot be built to collide in
//! them without knowing the seeds.

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::OnceLock;

use foldhash::fast::SeedableRandomState;
use foldhash::SharedSeed;

/// A hash map with a foldhash hasher seeded as above.
pub(super) type FastMap<K, V> = HashMap<K, V, SeedableRandomState>;

/// An empty [`FastMap`] with room for `capacity` entries.
pub(super) fn fast_map<K, V>(capacity: usize) -> FastMap<K, V> {
    static SHARED: OnceLock<SharedSeed> = OnceLock::new();
    let random = || std::hash::RandomState::new().hash_one(0u64);
    let shared = SHARED.get_or_init(|| SharedSeed::from_u64(random()));
    HashMap::with_capacity_and_hasher(capacity, SeedableRandomState::with_seed(random(), shared))
}
