//! Which words of several fixed word lists occur in a string, in one pass.
//!
//! The main-content scorer judges every `class`/`id` by substring vocabularies ("nav",
//! "sidebar", "comment", "content", ...). Asking `str::contains` once per word costs tens of
//! thousands of instructions per element; one Aho-Corasick automaton over all the lists
//! answers for all of them in a single scan of the string.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};

/// Word lists compiled into one automaton.
pub struct Vocab {
    automaton: Option<AhoCorasick>,
    /// For each distinct word (automaton pattern): the lists it belongs to, as a bitmask.
    owners: Vec<u64>,
    lists: usize,
}

impl Vocab {
    /// `lists[i]` is list `i` (at most 64 lists). A word may appear in several lists.
    pub fn new(lists: &[&[&str]]) -> Self {
        let lists = &lists[..lists.len().min(64)];
        let mut words: Vec<&str> = Vec::new();
        let mut owners: Vec<u64> = Vec::new();
        for (i, list) in lists.iter().enumerate() {
            for word in list.iter().filter(|w| !w.is_empty()) {
                match words.iter().position(|w| w == word) {
                    Some(at) => owners[at] |= 1 << i,
                    None => {
                        words.push(word);
                        owners.push(1 << i);
                    }
                }
            }
        }
        // Standard semantics: overlapping search reports every word that occurs.
        let automaton = AhoCorasickBuilder::new()
            .match_kind(MatchKind::Standard)
            .build(&words)
            .ok();
        Vocab {
            automaton,
            owners,
            lists: lists.len(),
        }
    }

    /// For each list, how many of its distinct words occur in `haystack` as substrings: the
    /// same as `list.iter().filter(|w| haystack.contains(*w)).count()` (duplicate words in a
    /// list counted once).
    pub fn counts(&self, haystack: &str) -> Vec<u32> {
        let mut counts = vec![0u32; self.lists];
        let Some(ac) = &self.automaton else {
            return counts;
        };
        let mut seen = vec![false; self.owners.len()];
        for m in ac.find_overlapping_iter(haystack) {
            let word = m.pattern().as_usize();
            if std::mem::replace(&mut seen[word], true) {
                continue;
            }
            let mut owners = self.owners[word];
            while owners != 0 {
                counts[owners.trailing_zeros() as usize] += 1;
                owners &= owners - 1;
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
    }
}
