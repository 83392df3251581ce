//! Side-by-side boxes: an invoice's seller and buyer, an address beside a block of order
//! details, a short sidebar beside a list, read one box after the other.
//!
//! The XY cut's column split needs prose on both sides (a median segment of 15 characters or
//! more), so that a table's or a form's columns are read row by row. Boxes of short lines fail
//! that test, and their lines were read across the gutter, one line of each box in turn. What
//! tells the two apart is the baselines: a table's or a form's cells in one row are set on one
//! baseline (or all shifted by the same amount, a label's font sitting a little lower than its
//! value's), while two boxes each keep their own line pitch, so their baselines drift apart or
//! interleave. A gutter at least an em wide that no segment crosses, with two lines or more on
//! each side where both sides run, each within 2.5 line heights of the one before (a map's or a
//! drawing's scattered labels are no boxes), is cut when fewer than half of the lines of the side with
//! fewer lines there share a baseline (within 0.05 em) with the other side and fewer than three
//! in four are shifted from the other side's nearest baselines by one steady amount (within
//! 0.06 em of the median shift: a row or two set otherwise does not make two boxes).
//!
//! Tried after the column and row cuts, on what they leave: a row cut first takes off what
//! runs across the gutter above or below the boxes.

use super::Segment;

/// How many gaps are tested, widest first: each test sorts the region's baselines, and a
/// page of thousands of short runs has thousands of gaps.
const TRIED: usize = 4;

/// The x of the gutter between two side-by-side boxes of `segs`, if there is one.
pub(super) fn cut<'a>(segs: impl IntoIterator<Item = &'a Segment>, em: f32) -> Option<f32> {
    let mut order: Vec<&Segment> = segs.into_iter().collect();
    if order.len() < 4 {
        return None;
    }
    order.sort_by(|a, b| a.x0.total_cmp(&b.x0));
    // Gaps no segment crosses: sorted by start, a gap splits the segments into a prefix
    // (left) and a suffix (right).
    let mut gaps: Vec<(f32, f32, usize)> = Vec::new();
    let mut reach = order[0].x1;
    for (i, s) in order.iter().enumerate().skip(1) {
        if s.x0 - reach >= em {
            gaps.push((s.x0 - reach, (s.x0 + reach) / 2.0, i));
        }
        reach = reach.max(s.x1);
    }
    gaps.sort_by(|a, b| b.0.total_cmp(&a.0));
    gaps.into_iter()
        .take(TRIED)
        .find(|&(_, _, i)| independent(&order[..i], &order[i..], em))
        .map(|(_, at, _)| at)
}

/// One line of a side: its highest baseline and largest size.
#[derive(Clone, Copy)]
struct Base {
    y: f32,
    size: f32,
}

/// The lines of one side, top to bottom: segments within 0.4 em of a line's first baseline
/// are on that line (as [`super::block_lines`] groups them).
fn lines(side: &[&Segment]) -> Vec<Base> {
    let mut ys: Vec<Base> = side
        .iter()
        .map(|s| Base {
            y: s.y,
            size: s.size,
        })
        .collect();
    ys.sort_by(|a, b| b.y.total_cmp(&a.y));
    let mut out: Vec<Base> = Vec::new();
    for b in ys {
        match out.last_mut() {
            Some(line) if line.y - b.y <= 0.4 * line.size => line.size = line.size.max(b.size),
            _ => out.push(b),
        }
    }
    out
}

/// Whether `left` and `right` are two boxes, each with its own lines, rather than the columns
/// of one table or form.
fn independent(left: &[&Segment], right: &[&Segment], em: f32) -> bool {
    let (l, r) = (lines(left), lines(right));
    if l.len() < 2 || r.len() < 2 {
        return false;
    }
    // Where both sides run (lines top to bottom, y larger higher up).
    let top = l[0].y.min(r[0].y) + 0.4 * em;
    let bottom = l[l.len() - 1].y.max(r[r.len() - 1].y) - 0.4 * em;
    let inside = |side: &[Base]| -> Vec<Base> {
        side.iter()
            .copied()
            .filter(|b| b.y <= top && b.y >= bottom)
            .collect()
    };
    let (l_in, r_in) = (inside(&l), inside(&r));
    let (few, other) = if l_in.len() <= r_in.len() {
        (&l_in, right)
    } else {
        (&r_in, left)
    };
    if few.len() < 2 || !dense(&l_in) || !dense(&r_in) {
        return false;
    }
    // Every baseline of the other side, each segment's own (a label set a little lower than
    // its value still meets a line at the value's baseline).
    let mut theirs: Vec<f32> = other.iter().map(|s| s.y).collect();
    theirs.sort_by(f32::total_cmp);
    let mut shared = 0;
    let mut near: Vec<f32> = Vec::with_capacity(few.len());
    for b in few {
        let d = nearest(&theirs, b.y) - b.y;
        if d.abs() <= 0.05 * b.size {
            shared += 1;
        }
        if d.abs() <= 0.4 * b.size {
            near.push(d);
        }
    }
    // One steady shift: three lines in four within 0.06 em of the (lower) median offset.
    near.sort_by(f32::total_cmp);
    let steady = near.get(near.len().saturating_sub(1) / 2).map_or(0, |&m| {
        near.iter().filter(|&&d| (d - m).abs() <= 0.06 * em).count()
    });
    2 * shared < few.len() && 4 * steady < 3 * few.len()
}

/// Whether lines (top to bottom) follow each other as a box's lines do, each within 2.5 line
/// heights of the one before: scattered labels of a map or a drawing are no boxes.
fn dense(lines: &[Base]) -> bool {
    lines
        .windows(2)
        .all(|w| w[0].y - w[1].y <= 2.5 * w[0].size.max(w[1].size))
}

/// The value of sorted, non-empty `ys` nearest to `y`.
fn nearest(ys: &[f32], y: f32) -> f32 {
    let at = ys.partition_point(|&v| v < y);
    let above = ys.get(at).copied();
    let below = at.checked_sub(1).and_then(|i| ys.get(i)).copied();
    match (below, above) {
        (Some(b), Some(a)) => {
            if y - b <= a - y {
                b
            } else {
                a
            }
        }
        (Some(v), None) | (None, Some(v)) => v,
        (None, None) => f32::INFINITY,
    }
}
