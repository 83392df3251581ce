//! Which words of several fixed word lists occur in a string, in one pass.
//!
//! The main-content scorer judges every `class`/`id` by substring vocabularies ("nav",
//! "sidebar", "comment", "content", ...). Asking `str::contains` once per word costs tens of
//! thousands of instructions per element; one Aho-Corasick automaton over all the lists
//! answers for all of them in a single scan of the string.

use aho_corasick::automaton::Automaton;
use aho_corasick::dfa::DFA;
use aho_corasick::{Anchored, MatchKind, StartKind};

/// Most distinct words a [`Vocab`] holds: a [`WordSet`] is a fixed bit set, kept on the
/// stack and copied freely (the main-content vocabularies hold about 130).
pub const MAX_WORDS: usize = 256;

/// A set of a [`Vocab`]'s words (see [`Vocab::found`]).
pub type WordSet = [u64; MAX_WORDS / 64];

/// Word lists compiled into one automaton.
pub struct Vocab {
    automaton: Option<DFA>,
    /// For each distinct word (automaton pattern): the lists it belongs to, as a bitmask.
    owners: Vec<u64>,
    /// How many lists (for [`Vocab::counts`], which the tests compare against a naive count).
    #[cfg(test)]
    lists: usize,
}

impl Vocab {
    /// `lists[i]` is list `i` (at most 64 lists). A word may appear in several lists.
    /// Distinct words past [`MAX_WORDS`] are left out (a test checks the lists stay under it).
    pub fn new(lists: &[&[&str]]) -> Self {
        let lists = &lists[..lists.len().min(64)];
        let mut words: Vec<&str> = Vec::new();
        let mut owners: Vec<u64> = Vec::new();
        for (i, list) in lists.iter().enumerate() {
            for word in list.iter().filter(|w| !w.is_empty()) {
                match words.iter().position(|w| w == word) {
                    Some(at) => owners[at] |= 1 << i,
                    None if words.len() >= MAX_WORDS => {}
                    None => {
                        words.push(word);
                        owners.push(1 << i);
                    }
                }
            }
        }
        // Standard semantics: overlapping search reports every word that occurs. A DFA: the
        // lists are a few hundred short words (a table of some hundred KB, built once), and
        // it scans a class string at a few instructions a byte where the default NFA took
        // several times that (the scan runs once per distinct class string of every page).
        // Unanchored only, without a prefilter: [`Vocab::found`] walks it byte by byte.
        let automaton = DFA::builder()
            .match_kind(MatchKind::Standard)
            .start_kind(StartKind::Unanchored)
            .prefilter(false)
            .build(&words)
            .ok();
        Vocab {
            automaton,
            owners,
            #[cfg(test)]
            lists: lists.len(),
        }
    }

    /// How many distinct words it holds (at most [`MAX_WORDS`]).
    #[cfg(test)]
    pub fn words(&self) -> usize {
        self.owners.len()
    }

    /// For each list, how many of its distinct words occur in `haystack` as substrings: the
    /// same as `list.iter().filter(|w| haystack.contains(*w)).count()` (duplicate words in a
    /// list counted once).
    #[cfg(test)]
    pub fn counts(&self, haystack: &str) -> Vec<u32> {
        self.counts_of(&[&self.found(haystack)])[..self.lists].to_vec()
    }

    /// Which distinct words occur in `haystack`, as a bit set over the words. Sets of several
    /// strings can be joined in [`Vocab::counts_of`]: when no word holds a space, the words of
    /// `a + " " + b` are those of `a` and those of `b`.
    pub fn found(&self, haystack: &str) -> WordSet {
        let mut seen = WordSet::default();
        let Some(dfa) = &self.automaton else {
            return seen;
        };
        // The DFA walked by hand, as the crate's overlapping search walks it (every word of
        // a match state is a word ending at that byte; no word is empty, so the start state
        // matches none), without that search's setup and per-match bookkeeping, which cost
        // several times the walk on strings of a few dozen bytes.
        let Ok(mut sid) = dfa.start_state(Anchored::No) else {
            return seen;
        };
        for &b in haystack.as_bytes() {
            sid = dfa.next_state(Anchored::No, sid, b);
            if dfa.is_special(sid) {
                if dfa.is_dead(sid) {
                    break;
                }
                if dfa.is_match(sid) {
                    for i in 0..dfa.match_len(sid) {
                        let word = dfa.match_pattern(sid, i).as_usize();
                        if let Some(chunk) = seen.get_mut(word / 64) {
                            *chunk |= 1 << (word % 64);
                        }
                    }
                }
            }
        }
        seen
    }

    /// Whether the word set from [`Vocab::found`] holds a word of list `list`.
    pub fn holds(&self, found: &WordSet, list: usize) -> bool {
        found.iter().enumerate().any(|(chunk, &bits)| {
            let mut bits = bits;
            while bits != 0 {
                let word = chunk * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if self.owners.get(word).is_some_and(|o| o & (1 << list) != 0) {
                    return true;
                }
            }
            false
        })
    }

    /// [`Vocab::counts`] of the union of word sets from [`Vocab::found`], on the stack (at
    /// most 64 lists; the ones past `lists` stay 0).
    pub fn counts_of(&self, sets: &[&WordSet]) -> [u32; 64] {
        let mut counts = [0u32; 64];
        for chunk in 0..MAX_WORDS / 64 {
            let mut bits = sets.iter().fold(0u64, |acc, s| acc | s[chunk]);
            while bits != 0 {
                let word = chunk * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let mut owners = self.owners.get(word).copied().unwrap_or(0);
                while owners != 0 {
                    counts[owners.trailing_zeros() as usize] += 1;
                    owners &= owners - 1;
                }
            }
        }
        counts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const A: &[&str] = &["nav", "menu", "navbar", "bar"];
    const B: &[&str] = &["content", "menu", "ten"];

    #[test]
    fn counts_distinct_words_per_list() {
        let v = Vocab::new(&[A, B]);
        assert_eq!(v.counts("main-navbar content"), vec![3, 2]);
        assert_eq!(v.counts("menu menu"), vec![1, 1]);
        assert_eq!(v.counts(""), vec![0, 0]);
        assert!(v.holds(&v.found("x-ten"), 1));
        assert!(!v.holds(&v.found("x-ten"), 0));
    }

    fn naive(lists: &[&[&str]], s: &str) -> Vec<u32> {
        lists
            .iter()
            .map(|l| {
                let mut words: Vec<&&str> = l.iter().collect();
                words.sort();
                words.dedup();
                words.iter().filter(|w| s.contains(**w)).count() as u32
            })
            .collect()
    }

    proptest! {
        #[test]
        fn same_as_contains(parts in prop::collection::vec(
            prop::sample::select(&["nav", "bar", "menu", "con", "tent", "-", " ", "x", "é", "ten"][..]),
            0..12,
        )) {
            let s = parts.concat();
            prop_assert_eq!(Vocab::new(&[A, B]).counts(&s), naive(&[A, B], &s));
        }

        #[test]
        fn joined_sets_count_the_joined_string(
            a in prop::sample::subsequence(&["nav", "bar", "menu", "con", "tent", "-", "x", "ten"][..], 0..8),
            b in prop::sample::subsequence(&["navbar", "menu", "content", "te", "n", "-"][..], 0..6),
        ) {
            let (a, b) = (a.concat(), b.concat());
            let v = Vocab::new(&[A, B]);
            let joined = format!("{a} {b}");
            prop_assert_eq!(&v.counts_of(&[&v.found(&a), &v.found(&b)])[..2], &v.counts(&joined)[..]);
        }
    }
}
