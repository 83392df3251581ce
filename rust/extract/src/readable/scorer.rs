//! The learned block scorer (issue 33): gradient-boosted trees over each text block's features
//! that take out of the rules' selection the blocks they judge boilerplate. The default
//! (`Scorer::Model`; `readable_model=False` keeps the rules alone); its figures, out of fold,
//! and its cost are in docs/benchmarks.md, "A learned block scorer".
//!
//! The rules choose the scope as before; the scorer then reads the selection's text blocks
//! (`features::blocks_of`: the block's own numbers, flags and tag, its ancestors' flags, its
//! page's facts and the rules' own verdict, [`feature_names`]) and scores the in-scope ones. A
//! block scored below the model's threshold leaves the selection with its subtree, unless that
//! subtree holds an in-scope block the scorer keeps (a wrapper's stray line does not take the
//! article under it along). The scorer only takes away: that is a set of skips in the scope
//! the emitters already honour, where adding a block the rules left out would mean building
//! the scope anew around it.
//!
//! The model is data (`model/blocks.txt`, written by `training/readable.py --export`),
//! read on the first call that needs it and kept for the process; a model that does not parse
//! or does not fit the features is no model, and the rules stand alone (a test guards the
//! shipped one, and another that the core scores its rows as scikit-learn does). Scoring a
//! block is one walk down each tree: no new dependency.

use std::sync::OnceLock;

use crate::Scope;

use super::features::{Block, FLAG_NAMES};
use super::flags::F_BODY;
use super::outline::Table;
use super::NONE;

/// The shipped model (see the module documentation).
const BUILTIN: &str = include_str!("model/blocks.txt");

/// First line of a model file: its format and version.
const MAGIC: &str = "webgrip block model 1";

/// The flag bits each of a block's two flag words gives a column.
const FLAG_NAMES_LEN: usize = FLAG_NAMES.len();

/// Tag names the `tag` feature numbers (index in this list; any other tag is its length).
pub const TAGS: [&str; 34] = [
    "p",
    "div",
    "li",
    "td",
    "th",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "span",
    "a",
    "section",
    "article",
    "main",
    "header",
    "footer",
    "nav",
    "aside",
    "body",
    "blockquote",
    "pre",
    "dd",
    "dt",
    "figcaption",
    "form",
    "table",
    "ul",
    "ol",
    "tr",
    "figure",
    "summary",
    "address",
];

/// The block's numbers as they are, then ratios the trees would otherwise approximate with
/// many splits and two page-level facts, then the flag bits, then the tag.
///
/// Where a block sits (`Block::position`, `Block::text_before`) is no column: the model
/// learned from it that the last third of a long page is comments and footers, and together
/// with the page's size (which a tree cannot extrapolate past its longest training page) it
/// dropped the last 31% of every article of 500 paragraphs or more (issue 45, F6). A block is
/// judged by what it is, never by how far down the page it comes.
const NUMERIC: [&str; 16] = [
    "chars",
    "link_chars",
    "words",
    "punct",
    "depth",
    "subtree_chars",
    "subtree_link_chars",
    "subtree_links",
    "subtree_good",
    "parent_chars",
    "level",
    "same_kind_siblings",
    "article",
    "product",
    "forum",
    "in_scope",
];
const DERIVED: [&str; 6] = [
    "link_share",
    "punct_per_word",
    "chars_per_word",
    "page_share",
    "log_page_chars",
    "rules_share",
];

/// Columns of a block's feature row.
pub const FEATURES: usize = NUMERIC.len() + DERIVED.len() + 2 * FLAG_NAMES_LEN + 1;

/// The columns' names, in row order: [`NUMERIC`], [`DERIVED`], `flag_*` and `anc_*` (the
/// block's flags and its ancestors', named by `features::FLAG_NAMES`), `tag`.
pub fn feature_names() -> Vec<String> {
    let flags = FLAG_NAMES;
    let mut out: Vec<String> = NUMERIC
        .iter()
        .chain(&DERIVED)
        .map(|s| s.to_string())
        .collect();
    out.extend(flags.iter().map(|f| format!("flag_{f}")));
    out.extend(flags.iter().map(|f| format!("anc_{f}")));
    out.push("tag".to_string());
    out
}

/// The `tag` feature: the tag's index in [`TAGS`], or its length for any other tag.
pub(super) fn tag_code(tag: &str) -> u8 {
    TAGS.iter().position(|t| *t == tag).unwrap_or(TAGS.len()) as u8
}

/// One feature row per block, in the order of [`feature_names`]. Ratios are computed in
/// `f64` and stored as `f32`, as the training script stores them.
pub fn rows(blocks: &[Block]) -> Vec<[f32; FEATURES]> {
    let page = Page::of(blocks);
    blocks.iter().map(|b| page.row(b)).collect()
}

/// What a block's row reads of its page: the text of all its blocks, and of those in scope.
struct Page {
    chars: f64,
    kept: f64,
}

impl Page {
    fn of(blocks: &[Block]) -> Page {
        let chars = blocks
            .iter()
            .map(|b| u64::from(b.chars))
            .sum::<u64>()
            .max(1) as f64;
        let kept = blocks
            .iter()
            .filter(|b| b.in_scope)
            .map(|b| u64::from(b.chars))
            .sum::<u64>() as f64;
        Page { chars, kept }
    }

    fn row(&self, b: &Block) -> [f32; FEATURES] {
        let flag = |bits: u64, k: usize| (bits >> k & 1) as f32;
        let mut row = [0f32; FEATURES];
        let chars = f64::from(b.chars);
        let words = f64::from(b.words.max(1));
        let numeric = [
            chars,
            f64::from(b.link_chars),
            f64::from(b.words),
            f64::from(b.punct),
            f64::from(b.depth),
            f64::from(b.subtree_chars),
            f64::from(b.subtree_link_chars),
            f64::from(b.subtree_links),
            f64::from(b.subtree_good),
            f64::from(b.parent_chars),
            f64::from(b.level),
            f64::from(b.same_kind_siblings),
            f64::from(u8::from(b.article)),
            f64::from(u8::from(b.product)),
            f64::from(u8::from(b.forum)),
            f64::from(u8::from(b.in_scope)),
        ];
        let derived = [
            if b.chars > 0 {
                f64::from(b.link_chars) / chars
            } else {
                0.0
            },
            f64::from(b.punct) / words,
            chars / words,
            chars / self.chars,
            self.chars.ln_1p(),
            self.kept / self.chars,
        ];
        for (slot, v) in row.iter_mut().zip(numeric.iter().chain(&derived)) {
            *slot = *v as f32;
        }
        let at = NUMERIC.len() + DERIVED.len();
        for k in 0..FLAG_NAMES_LEN {
            row[at + k] = flag(b.flags, k);
            row[at + FLAG_NAMES_LEN + k] = flag(b.ancestor_flags, k);
        }
        row[FEATURES - 1] = f32::from(b.tag_code);
        row
    }
}

/// A node of a regression tree: a leaf's value, or a split on one feature.
#[derive(Debug, Clone, Copy)]
enum Node {
    Leaf(f64),
    Split {
        feature: u16,
        /// Values at or below it go left (scikit-learn's numeric split): the largest `f32` at
        /// or below the model's `f64` threshold, which sends every `f32` feature value the
        /// same way and saves a conversion per node.
        threshold: f32,
        /// A missing value (NaN, which no feature is) goes left.
        missing_left: bool,
        /// Node indexes in the model's flat node list.
        left: u32,
        right: u32,
    },
}

/// Gradient-boosted trees over [`rows`] and the threshold under which a block leaves the
/// selection (chosen by the training script out of fold).
#[derive(Debug, Clone)]
pub struct Model {
    /// Raw score every tree's leaf adds to (the log-odds of the training labels' base rate).
    base: f64,
    /// Probability below which an in-scope block is dropped.
    pub low: f32,
    nodes: Vec<Node>,
    /// Each tree's root in `nodes`.
    roots: Vec<u32>,
    /// `nodes` as the walk reads them (see [`Step`]), and each leaf's value (0 for a split).
    steps: Vec<Step>,
    leaves: Vec<f64>,
    /// Each tree's depth: the edges from its root to its deepest leaf.
    depths: Vec<u32>,
    /// The trees in the order they are walked: within each run of [`BLOCK`] trees, by depth,
    /// so that the [`LANES`] walked side by side need about the same number of steps.
    order: Vec<u32>,
    /// [`Model::order`] as the walk reads it: [`LANES`] trees at a time (see [`Group`]).
    groups: Vec<Group>,
}

/// [`LANES`] trees walked side by side: their roots (a lane past the model's last tree starts
/// at the parked leaf, `Model::steps`' last entry, and adds nothing), how many of them are
/// trees, and the steps the deepest needs. Fixed-size, so the walk keeps the lanes in
/// registers and unrolls them.
#[derive(Debug, Clone, Copy)]
struct Group {
    roots: [u32; LANES],
    trees: usize,
    steps: u32,
}

/// A node as [`Model::score`] walks it: a split's test and children, a leaf as a split whose
/// children are itself (a walk that reached it stays there), so that every tree is walked a
/// fixed number of steps without a branch on the kind of node.
#[derive(Debug, Clone, Copy)]
struct Step {
    feature: u16,
    threshold: f32,
    missing_left: bool,
    /// The left child, then the right.
    next: [u32; 2],
}

/// Trees walked side by side: their walks do not depend on each other, so the processor runs
/// their loads and comparisons at once instead of waiting on one tree's chain of loads (and
/// mispredicting where it ends).
const LANES: usize = 8;
/// Trees reordered among themselves (see [`Model::order`]); their leaves are then added in
/// the model's order.
const BLOCK: usize = 64;

impl Model {
    /// Read a model file (see `training/readable.py --export` for the format); `None`
    /// when it is malformed, has another feature count or a node points outside its tree.
    pub fn parse(text: &str) -> Option<Model> {
        let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
        if lines.next()? != MAGIC {
            return None;
        }
        let features: usize = field(&mut lines, "features")?.parse().ok()?;
        if features != FEATURES {
            return None;
        }
        let low: f32 = field(&mut lines, "low")?.parse().ok()?;
        let base: f64 = field(&mut lines, "base")?.parse().ok()?;
        let trees: usize = field(&mut lines, "trees")?.parse().ok()?;
        let mut model = Model {
            base,
            low,
            nodes: Vec::new(),
            roots: Vec::with_capacity(trees),
            steps: Vec::new(),
            leaves: Vec::new(),
            depths: Vec::new(),
            order: Vec::new(),
            groups: Vec::new(),
        };
        for _ in 0..trees {
            let count: u32 = field(&mut lines, "tree")?.parse().ok()?;
            // A tree without nodes has no root to walk from.
            if count == 0 {
                return None;
            }
            let start = model.nodes.len() as u32;
            model.roots.push(start);
            for _ in 0..count {
                let line = lines.next()?;
                let mut parts = line.split(' ');
                let node = match parts.next()? {
                    "leaf" => Node::Leaf(parts.next()?.parse().ok()?),
                    "split" => {
                        let feature: u16 = parts.next()?.parse().ok()?;
                        let threshold = f32_at_or_below(parts.next()?.parse().ok()?);
                        let missing_left = parts.next()? == "1";
                        let left: u32 = parts.next()?.parse().ok()?;
                        let right: u32 = parts.next()?.parse().ok()?;
                        // Children come after their parent, inside this tree: every walk
                        // moves forward and ends.
                        let here = model.nodes.len() as u32 - start;
                        if usize::from(feature) >= FEATURES
                            || left <= here
                            || right <= here
                            || left >= count
                            || right >= count
                        {
                            return None;
                        }
                        Node::Split {
                            feature,
                            threshold,
                            missing_left,
                            left: start + left,
                            right: start + right,
                        }
                    }
                    _ => return None,
                };
                if parts.next().is_some() {
                    return None;
                }
                model.nodes.push(node);
            }
        }
        if lines.next().is_some() {
            return None;
        }
        model.compile();
        Some(model)
    }

    /// Fill [`Model::steps`], [`Model::leaves`] and [`Model::depths`] from the parsed nodes
    /// (whose children come after them, inside their tree: one forward pass finds depths).
    fn compile(&mut self) {
        let n = self.nodes.len();
        let mut depth = vec![0u32; n];
        self.steps = Vec::with_capacity(n);
        self.leaves = Vec::with_capacity(n);
        for (i, node) in self.nodes.iter().enumerate() {
            let here = i as u32;
            match *node {
                Node::Leaf(value) => {
                    self.steps.push(Step {
                        feature: 0,
                        threshold: 0.0,
                        missing_left: true,
                        next: [here, here],
                    });
                    self.leaves.push(value);
                }
                Node::Split {
                    feature,
                    threshold,
                    missing_left,
                    left,
                    right,
                } => {
                    for child in [left, right] {
                        depth[child as usize] = depth[i] + 1;
                    }
                    self.steps.push(Step {
                        feature,
                        threshold,
                        missing_left,
                        next: [left, right],
                    });
                    self.leaves.push(0.0);
                }
            }
        }
        let ends = self.roots.iter().skip(1).map(|&r| r as usize).chain([n]);
        self.depths = self
            .roots
            .iter()
            .zip(ends)
            .map(|(&root, end)| {
                depth
                    .get(root as usize..end)
                    .map_or(0, |d| d.iter().copied().max().unwrap_or(0))
            })
            .collect();
        self.order = (0..self.roots.len() as u32).collect();
        let depths = &self.depths;
        for block in self.order.chunks_mut(BLOCK) {
            block.sort_by_key(|&t| depths.get(t as usize).copied().unwrap_or(0));
        }
        // The parked leaf: where the lanes without a tree stay.
        let parked = self.steps.len() as u32;
        self.steps.push(Step {
            feature: 0,
            threshold: 0.0,
            missing_left: true,
            next: [parked, parked],
        });
        self.leaves.push(0.0);
        self.groups = self
            .order
            .chunks(BLOCK)
            .flat_map(|block| block.chunks(LANES))
            .map(|trees| {
                let mut roots = [parked; LANES];
                let mut steps = 0;
                for (slot, &t) in roots.iter_mut().zip(trees) {
                    *slot = self.roots.get(t as usize).copied().unwrap_or(parked);
                    steps = steps.max(self.depths.get(t as usize).copied().unwrap_or(0));
                }
                Group {
                    roots,
                    trees: trees.len(),
                    steps,
                }
            })
            .collect();
    }

    /// The probability that the block of `row` is main content.
    ///
    /// Trees are walked [`LANES`] at a time (in [`Model::order`]), each group its deepest
    /// tree's number of steps (a leaf holds a walk that reached it early), and their leaves
    /// added in the model's order: the sum, rounding included, is the one a walk of one tree
    /// after another makes.
    pub fn score(&self, row: &[f32; FEATURES]) -> f32 {
        // No feature is ever missing: the walk then needs no test for it (a row with a NaN,
        // which only a caller's own rows can hold, takes the walk that tests).
        if row.iter().any(|x| x.is_nan()) {
            self.score_with(row, Self::step)
        } else {
            self.score_with(row, Self::step_number)
        }
    }

    /// [`Model::score`] with `step` moving each walk.
    #[inline(always)]
    fn score_with(
        &self,
        row: &[f32; FEATURES],
        step: impl Fn(&Self, u32, &[f32; FEATURES]) -> u32,
    ) -> f32 {
        let mut raw = self.base;
        let mut groups = self.groups.iter();
        for (b, block) in self.order.chunks(BLOCK).enumerate() {
            // The leaf each tree of the block ends at, by its place in the block.
            let mut ends = [0u32; BLOCK];
            for trees in block.chunks(LANES) {
                let Some(group) = groups.next() else {
                    break;
                };
                let mut at = group.roots;
                for _ in 0..group.steps {
                    at = at.map(|a| step(self, a, row));
                }
                for (&t, &leaf) in trees.iter().zip(&at[..group.trees.min(LANES)]) {
                    if let Some(end) = ends.get_mut(t as usize - b * BLOCK) {
                        *end = leaf;
                    }
                }
            }
            for &leaf in ends.iter().take(block.len()) {
                raw += self.leaves.get(leaf as usize).copied().unwrap_or(0.0);
            }
        }
        (1.0 / (1.0 + (-raw).exp())) as f32
    }

    /// Where a walk at node `at` goes next for `row` (a leaf: itself).
    #[inline(always)]
    fn step(&self, at: u32, row: &[f32; FEATURES]) -> u32 {
        let Some(s) = self.steps.get(at as usize) else {
            return at;
        };
        let x = row.get(usize::from(s.feature)).copied().unwrap_or(0.0);
        // A missing value (NaN) goes where the split says; `<=` is false for it.
        let go_left = (x <= s.threshold) | (x.is_nan() & s.missing_left);
        s.next[usize::from(!go_left)]
    }

    /// [`Model::step`] for a row without a missing value.
    #[inline(always)]
    fn step_number(&self, at: u32, row: &[f32; FEATURES]) -> u32 {
        let Some(s) = self.steps.get(at as usize) else {
            return at;
        };
        let x = row.get(usize::from(s.feature)).copied().unwrap_or(0.0);
        // Not NaN: past the threshold is "not at or below it".
        s.next[usize::from(x > s.threshold)]
    }

    /// [`Model::score`] of every block.
    pub fn scores(&self, blocks: &[Block]) -> Vec<f32> {
        rows(blocks).iter().map(|r| self.score(r)).collect()
    }

    /// [`Model::score`] of the in-scope blocks, the only ones [`drop_low`] reads (1 for the
    /// others): the selection's own path.
    pub(super) fn in_scope_scores(&self, blocks: &[Block]) -> Vec<f32> {
        let page = Page::of(blocks);
        blocks
            .iter()
            .map(|b| {
                if b.in_scope {
                    self.score(&page.row(b))
                } else {
                    1.0
                }
            })
            .collect()
    }
}

/// The largest `f32` at or below `t`: for every `f32` x, `x <= t` exactly when
/// `x <= f32_at_or_below(t)` (NaN stays NaN: no value is at or below it either way).
fn f32_at_or_below(t: f64) -> f32 {
    let near = t as f32;
    if f64::from(near) > t {
        near.next_down()
    } else {
        near
    }
}

/// The value of a `name value` line of a model file.
fn field<'a>(lines: &mut impl Iterator<Item = &'a str>, name: &str) -> Option<&'a str> {
    lines.next()?.strip_prefix(name)?.strip_prefix(' ')
}

/// The shipped model, read once per process (`None` if it does not parse: see the module
/// documentation).
pub fn builtin() -> Option<&'static Model> {
    static MODEL: OnceLock<Option<Model>> = OnceLock::new();
    MODEL.get_or_init(|| Model::parse(BUILTIN)).as_ref()
}

/// Take out of `scope` the in-scope blocks scored below `low` whose subtree holds no in-scope
/// block scored at or above it (`scores` in the order of `blocks`; nothing happens when the
/// counts differ). `body` and the document stay: an empty selection is the fallback's
/// business, not the scorer's.
pub(super) fn drop_low(
    table: &Table,
    scope: &mut Scope,
    blocks: &[Block],
    scores: &[f32],
    low: f32,
) {
    if blocks.len() != scores.len() {
        return;
    }
    let items = &table.items;
    let n = items.len();
    let mut low_block = vec![false; n];
    let mut kept_below = vec![false; n];
    for (b, &s) in blocks.iter().zip(scores) {
        let i = b.item as usize;
        if !b.in_scope || i >= n {
            continue;
        }
        if s < low {
            low_block[i] = true;
        } else {
            kept_below[i] = true;
        }
    }
    // Pre-order: a parent's index is below its children's, so one backward sweep carries
    // "holds a kept block" up the whole tree.
    for i in (0..n).rev() {
        let p = items[i].parent;
        if kept_below[i] && p != NONE && (p as usize) < i {
            kept_below[p as usize] = true;
        }
    }
    for i in 0..n {
        let it = &items[i];
        if low_block[i] && !kept_below[i] && it.parent != NONE && !it.flags.has_any(F_BODY) {
            scope.skip.insert(it.id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::readable::{select_with, Scorer};

    /// 64 feature rows spread over the training data, each after scikit-learn's probability
    /// for it under the shipped model (written by `training/readable.py --export`).
    const PARITY: &str = include_str!("model/parity.txt");

    #[test]
    fn the_shipped_model_parses_and_fits_the_features() {
        let model = builtin().expect("model/blocks.txt parses");
        assert!(!model.roots.is_empty());
        assert!(model.low > 0.0 && model.low < 0.5, "{}", model.low);
        assert_eq!(feature_names().len(), FEATURES);
    }

    #[test]
    fn an_f32_threshold_splits_as_the_f64_one() {
        for t in [
            0.5,
            0.1,
            1.0 / 3.0,
            -2.75,
            1e-9,
            123456.789,
            16_777_217.0,
            f64::MAX,
            0.0,
        ] {
            let t32 = f32_at_or_below(t);
            assert!(f64::from(t32) <= t, "{t}");
            // Every f32 near the threshold goes the same way under both.
            let mut x = t32.next_down().next_down();
            for _ in 0..5 {
                assert_eq!(f64::from(x) <= t, x <= t32, "{t} {x}");
                x = x.next_up();
            }
        }
        assert!(f32_at_or_below(f64::NAN).is_nan());
    }

    #[test]
    fn the_core_scores_what_scikit_learn_scores() {
        let model = builtin().expect("model/blocks.txt parses");
        let mut seen = 0;
        for line in PARITY.lines().filter(|l| !l.trim().is_empty()) {
            let values: Vec<f64> = line.split(' ').map(|v| v.parse().unwrap()).collect();
            assert_eq!(values.len(), FEATURES + 1, "{line}");
            let mut row = [0f32; FEATURES];
            for (slot, v) in row.iter_mut().zip(&values[1..]) {
                *slot = *v as f32;
            }
            let got = f64::from(model.score(&row));
            assert!(
                (got - values[0]).abs() < 1e-5,
                "{got} against {}",
                values[0]
            );
            seen += 1;
        }
        assert_eq!(seen, 64);
    }

    /// One tree after another, each walked down to its leaf: what [`Model::score`]'s side by
    /// side walk must add up to, bit for bit.
    fn score_tree_by_tree(model: &Model, row: &[f32; FEATURES]) -> f32 {
        let mut raw = model.base;
        for &root in &model.roots {
            let mut at = root as usize;
            loop {
                match model.nodes[at] {
                    Node::Leaf(value) => {
                        raw += value;
                        break;
                    }
                    Node::Split {
                        feature,
                        threshold,
                        missing_left,
                        left,
                        right,
                    } => {
                        let x = row[usize::from(feature)];
                        let go_left = if x.is_nan() {
                            missing_left
                        } else {
                            x <= threshold
                        };
                        at = if go_left { left } else { right } as usize;
                    }
                }
            }
        }
        (1.0 / (1.0 + (-raw).exp())) as f32
    }

    #[test]
    fn trees_walked_side_by_side_score_as_one_after_another() {
        let model = builtin().expect("model/blocks.txt parses");
        let mut rows: Vec<[f32; FEATURES]> = Vec::new();
        for line in PARITY.lines().filter(|l| !l.trim().is_empty()) {
            let mut row = [0f32; FEATURES];
            for (slot, v) in row.iter_mut().zip(line.split(' ').skip(1)) {
                *slot = v.parse().unwrap();
            }
            rows.push(row);
        }
        // Each row again with every split's own threshold and its neighbours (both sides of
        // every test), and with missing values.
        let base = rows.clone();
        for (k, node) in model.nodes.iter().enumerate() {
            if let Node::Split {
                feature, threshold, ..
            } = *node
            {
                let mut row = base[k % base.len()];
                for (j, x) in [
                    threshold,
                    f32::from_bits(threshold.to_bits().wrapping_add(1)),
                    f32::NAN,
                ]
                .into_iter()
                .enumerate()
                {
                    row[usize::from(feature)] = x;
                    rows.push(row);
                    let mut other = base[(k + j) % base.len()];
                    other[usize::from(feature)] = x;
                    rows.push(other);
                }
            }
        }
        for row in &rows {
            assert_eq!(
                model.score(row).to_bits(),
                score_tree_by_tree(model, row).to_bits()
            );
        }
        assert!(rows.len() > 1000, "{}", rows.len());
    }

    fn tree(nodes: &str) -> String {
        format!("webgrip block model 1\nfeatures {FEATURES}\nlow 0.2\nbase 0.5\ntrees 1\n{nodes}")
    }

    #[test]
    fn a_model_file_is_read_exactly() {
        // One split on `chars`: up to 10 characters scores low.
        let good = tree("tree 3\nsplit 0 10.0 1 1 2\nleaf -3.0\nleaf 2.0\n");
        let model = Model::parse(&good).expect("parses");
        let mut row = [0f32; FEATURES];
        row[0] = 10.0;
        assert!(model.score(&row) < 0.1);
        row[0] = 10.5;
        assert!(model.score(&row) > 0.9);
        row[0] = f32::NAN;
        assert!(model.score(&row) < 0.1, "NaN goes where missing_left says");
        // Everything that would make a walk loop, leave its tree or misread a column.
        for bad in [
            good.replace("webgrip block model 1", "webgrip block model 2"),
            good.replace(&format!("features {FEATURES}"), "features 3"),
            tree("tree 3\nsplit 0 10.0 1 0 2\nleaf -3.0\nleaf 2.0\n"),
            tree("tree 3\nsplit 0 10.0 1 1 3\nleaf -3.0\nleaf 2.0\n"),
            tree(&format!(
                "tree 3\nsplit {FEATURES} 10.0 1 1 2\nleaf -3.0\nleaf 2.0\n"
            )),
            tree("tree 3\nsplit 0 10.0 1 1 2\nleaf -3.0\n"),
            tree("tree 2\nleaf 1.0 2.0\nleaf 2.0\n"),
            tree("tree 0\n"),
            format!("{good}leaf 1.0\n"),
        ] {
            assert!(Model::parse(&bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn the_scorer_reads_the_rows_training_reads() {
        // Words split across inline elements and line breaks, punctuation, links, a tag
        // outside the scorer's list: the scorer's path keeps no text yet its rows are the same.
        let html = "<html><body><nav><a href=/>Home</a> <a href=/b>Blog</a></nav><main>\
            <h1>Bold<b>er</b> title</h1><p>One, two; three.<br>Four <i>fi</i>ve <a href=/x>six \
            seven</a>!</p><dl><dt>Term</dt><dd>Its meaning, said twice, said well.</dd></dl>\
            <custom-tag>Loose words here</custom-tag></main><footer>(c) 2026</footer></body></html>";
        let doc = crate::document::parse(html);
        let training = super::super::blocks(&doc, None);
        let chosen = crate::readable::select_with_table(&doc, None, Scorer::Rules);
        let scoring = super::super::features::blocks_of(
            &doc,
            &chosen.table,
            &chosen.scope,
            chosen.forum,
            false,
        );
        assert!(training.len() > 5, "{training:?}");
        assert!(scoring
            .iter()
            .all(|b| b.text.is_empty() && b.tag.is_empty()));
        assert_eq!(rows(&training), rows(&scoring));
        let title = training
            .iter()
            .find(|b| b.text.starts_with("Bold"))
            .unwrap();
        // Words are counted per text node (the outline's one walk counts them): a word split
        // by an inline element counts once on each side.
        assert_eq!((title.text.as_str(), title.words), ("Bolder title", 3));
        let para = training.iter().find(|b| b.text.starts_with("One")).unwrap();
        assert_eq!((para.words, para.punct), (8, 4), "{}", para.text);
    }

    /// An article of `paragraphs` paragraphs of two or three varied sentences each, every one
    /// ending with its own number (`tests/extract/test_readable_model.py` builds the same).
    fn long_article(paragraphs: usize) -> String {
        const SUBJECTS: [&str; 14] = [
            "The harbour master",
            "A local baker",
            "The council",
            "Our correspondent",
            "The old ferry",
            "A group of students",
            "The river authority",
            "Her grandmother",
            "The night train",
            "A quiet engineer",
            "The town library",
            "Several farmers",
            "The museum curator",
            "A visiting choir",
        ];
        const VERBS: [&str; 12] = [
            "described",
            "remembered",
            "questioned",
            "repaired",
            "measured",
            "photographed",
            "celebrated",
            "postponed",
            "explained",
            "recorded",
            "inspected",
            "defended",
        ];
        const OBJECTS: [&str; 10] = [
            "the flooded meadow behind the mill",
            "a letter written in the winter of 1923",
            "the budget for next spring's festival",
            "the narrow bridge over the canal",
            "an argument about the price of bread",
            "the first snowfall of the season",
            "a map of the abandoned railway",
            "the lighthouse's broken lamp",
            "the school's new science laboratory",
            "a recipe handed down for generations",
        ];
        const ENDINGS: [&str; 8] = [
            "before anyone else arrived.",
            "with surprising patience.",
            "while the rain kept falling.",
            "and nobody seemed to mind.",
            "although the evidence was thin.",
            "for the third time that week.",
            "as the crowd slowly gathered.",
            "under a sky the colour of slate.",
        ];
        let sentence = |k: usize| {
            format!(
                "{} {} {} {}",
                SUBJECTS[k % SUBJECTS.len()],
                VERBS[k * 7 % VERBS.len()],
                OBJECTS[k * 3 % OBJECTS.len()],
                ENDINGS[k * 5 % ENDINGS.len()]
            )
        };
        let mut html = String::from(
            "<html><head><title>A long chronicle of the valley</title></head><body>\
             <article><h1>A long chronicle of the valley</h1>",
        );
        for i in 0..paragraphs {
            let sentences: Vec<String> = (0..2 + i % 2).map(|j| sentence(3 * i + j)).collect();
            html.push_str(&format!(
                "<p>{} This is paragraph number {}.</p>",
                sentences.join(" "),
                i + 1
            ));
        }
        html.push_str("</article></body></html>");
        html
    }

    #[test]
    fn a_long_article_keeps_its_tail() {
        // Issue 45, F6: a model that read where a block sits dropped the last 31% of every
        // article of 500 paragraphs or more. The shipped model must be there, or the scorer
        // is the rules and this proves nothing.
        assert!(builtin().is_some());
        for paragraphs in [600, 2000] {
            let doc = crate::document::parse(&long_article(paragraphs));
            let rules = crate::text::render(&doc, &select_with(&doc, None, Scorer::Rules));
            let scored = crate::text::render(&doc, &select_with(&doc, None, Scorer::Model));
            let last = format!("This is paragraph number {paragraphs}.");
            assert!(rules.contains(&last), "{paragraphs}");
            assert!(scored.contains(&last), "{paragraphs}: the tail left");
            assert!(
                scored.len() as f64 >= 0.98 * rules.len() as f64,
                "{paragraphs}: {} of {} characters",
                scored.len(),
                rules.len()
            );
        }
    }

    const PROSE: &str = "The committee met on Tuesday to discuss the budget for the coming \
        year, and after a long debate it agreed to fund the new library and the park.";

    fn scored_text(html: &str, score: impl Fn(&Block) -> f32) -> String {
        let doc = crate::document::parse(html);
        let blocks = super::super::blocks(&doc, None);
        let scores: Vec<f32> = blocks.iter().map(score).collect();
        let scope = select_with(
            &doc,
            None,
            Scorer::Given {
                scores: &scores,
                low: 0.2,
            },
        );
        crate::text::render(&doc, &scope)
    }

    #[test]
    fn a_low_scored_block_leaves_but_not_the_kept_blocks_under_it() {
        let html = format!(
            "<html><body><main><div class=wrap>Share this story<p>{PROSE}</p>\
             <p>Second: {PROSE}</p><p>Sign up for our newsletter today</p></div></main>\
             </body></html>"
        );
        let rules = scored_text(&html, |_| 0.9);
        assert!(
            rules.contains("newsletter") && rules.contains("Share this"),
            "{rules}"
        );
        // The newsletter line and the wrapper's own line score low; the paragraphs do not.
        let judged = scored_text(&html, |b| {
            if b.text.contains("committee") {
                0.9
            } else {
                0.1
            }
        });
        assert!(!judged.contains("newsletter"), "{judged}");
        assert!(judged.contains("Second: The committee"), "{judged}");
        // The wrapper holds kept paragraphs, so its own line stays with them.
        assert!(judged.contains("Share this"), "{judged}");
        // Scores that do not fit the page's blocks change nothing.
        let doc = crate::document::parse(&html);
        let scope = select_with(
            &doc,
            None,
            Scorer::Given {
                scores: &[0.0],
                low: 0.2,
            },
        );
        assert_eq!(crate::text::render(&doc, &scope), rules);
    }
}
