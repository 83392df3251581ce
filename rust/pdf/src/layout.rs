//! Page text from placed glyphs: words, lines, columns and paragraphs.
//!
//! Why our own: pdf_oxide's span layer (`extract_spans`) costs about five times its glyph layer
//! (`extract_chars`) and, for a multi-page document, interprets every page twice (once more for
//! its running-header pass, which [`crate::reflow`] does on its own). It also misplaces the
//! glyphs of rotated text and keeps the narrow glyphs of an overprinted copy. The glyph layer
//! has the right positions; this module turns them into text.
//!
//! Steps, per text direction (upright first, then the rotated ones, biggest first):
//! 1. glyphs are put in the direction's reading frame (x along the line, y up the page);
//! 2. an overprinted copy (same character within a fraction of its size, a fake bold or a
//!    halo) is dropped;
//! 3. glyphs on one baseline make a line, split into segments at gaps wider than 0.6 em;
//!    a space goes where the gap between two glyphs is wider than 0.15 em;
//! 4. segments are ordered by a recursive XY cut: a column split where a gutter runs
//!    through the whole region between two sides of prose, else a split at the widest
//!    horizontal gap, else a split between side-by-side boxes whose lines keep their own
//!    baselines ([`boxes`]), else lines top to bottom;
//! 5. a blank line separates regions and lines spaced wider than the region's usual pitch.
//!
//! [`page_lines`] keeps each line's font size, boldness and start for the Markdown view
//! ([`crate::markdown`]), with a page's tables found first ([`tables`]); [`page_text`] is the
//! same lines as plain text, without that step.

mod boxes;
mod tables;

/// One glyph as the layout sees it, in its direction's reading frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glyph {
    pub c: char,
    /// Start along the line.
    pub x: f32,
    /// Baseline, larger is higher on the page (earlier in reading order).
    pub y: f32,
    /// Advance along the line; 0 when the font did not say.
    pub w: f32,
    /// Font size, > 0.
    pub size: f32,
    /// Set in a bold face.
    pub bold: bool,
}

/// A glyph as the parser placed it in page space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placed {
    pub c: char,
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub size: f32,
    /// Text direction in degrees (0 upright, 90 running up the page, ...).
    pub rotation: f32,
    /// Set in a bold face.
    pub bold: bool,
}

/// One line of a page as read: its segments joined left to right.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub text: String,
    /// The largest font size on the line.
    pub size: f32,
    /// The mean font size of its glyphs (a drop cap or a large symbol barely moves it).
    pub mean_size: f32,
    /// Most of its glyphs are bold.
    pub bold: bool,
    /// Where the line starts, in its direction's frame.
    pub x0: f32,
    /// How many segments (runs without a gap over 0.6 em) it joins: more than one is a row of
    /// cells or labels.
    pub segments: usize,
    /// With more than one segment, each one's start: its x and its byte offset in `text`
    /// (empty for a single segment, the common case, so no allocation).
    pub cells: Vec<(f32, usize)>,
}

/// The text of one page: its paragraphs, a blank line between each two.
pub fn page_text(placed: &[Placed]) -> String {
    let mut out = String::new();
    for (i, para) in lines(placed, false).iter().enumerate() {
        if i > 0 {
            out.push_str("\n\n");
        }
        for (k, line) in para.iter().enumerate() {
            if k > 0 {
                out.push('\n');
            }
            out.push_str(&line.text);
        }
    }
    out
}

/// The paragraphs of one page in reading order, each its lines top to bottom (never empty,
/// no line empty or holding a line break); a table found on the upright text is a paragraph
/// of its rows, every row one cell per column ([`tables`]).
pub fn page_lines(placed: &[Placed]) -> Vec<Vec<Line>> {
    lines(placed, true)
}

/// The page's paragraphs, with its tables found when `find_tables`.
fn lines(placed: &[Placed], find_tables: bool) -> Vec<Vec<Line>> {
    // Quarter turns only: free-angle text goes with its nearest quarter.
    let mut groups: [Vec<Glyph>; 4] = Default::default();
    // Most pages are upright text: grown glyph by glyph, its group was copied a dozen times.
    groups[0].reserve(placed.len());
    for p in placed {
        if p.c.is_control() || !p.size.is_finite() || !p.x.is_finite() || !p.y.is_finite() {
            continue;
        }
        let size = if p.size > 0.0 { p.size } else { 10.0 };
        let w = if p.w.is_finite() && p.w > 0.0 {
            p.w
        } else {
            0.0
        };
        // Upright text, most glyphs, skips the rounding (a quarter is 0 strictly inside ±45°).
        let q = if p.rotation.abs() < 45.0 {
            0
        } else {
            ((p.rotation / 90.0).round() as i64).rem_euclid(4) as usize
        };
        let (x, y) = match q {
            0 => (p.x, p.y),
            1 => (p.y, -p.x),
            2 => (-p.x, -p.y),
            _ => (-p.y, p.x),
        };
        groups[q].push(Glyph {
            c: p.c,
            x,
            y,
            w,
            size,
            bold: p.bold,
        });
    }
    let tategaki = vertical_cjk(&groups[0]);
    if tategaki {
        // Columns of upright CJK glyphs read top to bottom, columns right to left: the frame
        // of text running down the page.
        for g in &mut groups[0] {
            (g.x, g.y) = (-g.y, g.x);
            g.w = g.size;
        }
        let vertical = std::mem::take(&mut groups[0]);
        groups[3].extend(vertical);
    }
    let mut order: Vec<usize> = (0..4).filter(|&q| !groups[q].is_empty()).collect();
    // Upright first when it has text at all, then by glyph count (a landscape page's body is
    // one rotated group).
    order.sort_by_key(|&q| {
        (
            q != 0 && groups[q].len() < groups[0].len(),
            usize::MAX - groups[q].len(),
        )
    });
    order
        .into_iter()
        .flat_map(|q| {
            let tables = find_tables && q == 0 && !tategaki;
            let mut blocks = frame_lines(std::mem::take(&mut groups[q]), tables);
            if tategaki && q == 3 {
                // Vertical lines of verse or prose stand apart by their own gaps, not as a
                // table's cells.
                for line in blocks.iter_mut().flatten() {
                    line.cells.clear();
                }
            }
            blocks
        })
        .collect()
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF)
}

/// Vertical writing (tategaki): CJK glyphs are most of the text and stand one above the other
/// (within 1.3 em, same x) more than twice as often as side by side on one baseline.
fn vertical_cjk(glyphs: &[Glyph]) -> bool {
    let mut cjk: Vec<&Glyph> = glyphs.iter().filter(|g| is_cjk(g.c)).collect();
    let inked = glyphs.iter().filter(|g| !g.c.is_whitespace()).count();
    if cjk.len() < 8 || cjk.len() * 2 < inked {
        return false;
    }
    let across = neighbours(&mut cjk, |g| (-g.y, g.x));
    let down = neighbours(&mut cjk, |g| (g.x, -g.y));
    down > 2 * across
}

/// How many glyphs have a neighbour on the same line of one axis: sorted by `key` (the line,
/// then the position along it), the next glyph is on the same line (within 0.2 em) and at most
/// 1.3 em further along. `(-y, x)` counts glyphs side by side on a baseline, `(x, -y)` glyphs
/// one above the other in a column.
fn neighbours(glyphs: &mut [&Glyph], key: impl Fn(&Glyph) -> (f32, f32)) -> usize {
    glyphs.sort_by(|a, b| {
        let (a_line, a_at) = key(a);
        let (b_line, b_at) = key(b);
        a_line.total_cmp(&b_line).then(a_at.total_cmp(&b_at))
    });
    glyphs
        .windows(2)
        .filter(|w| {
            let ((line0, at0), (line1, at1)) = (key(w[0]), key(w[1]));
            let step = at1 - at0;
            (line0 - line1).abs() < 0.2 * w[0].size && step > 0.0 && step <= 1.3 * w[0].size
        })
        .count()
}

/// A run of glyphs on one baseline with no gap wider than 0.6 em.
#[derive(Debug, Clone)]
struct Segment {
    text: String,
    x0: f32,
    x1: f32,
    y: f32,
    size: f32,
    chars: usize,
    /// How many of `chars` are bold.
    bold: usize,
    /// The sum of the font sizes of `chars`.
    size_sum: f32,
}

impl Segment {
    fn top(&self) -> f32 {
        self.y + 0.8 * self.size
    }
    fn bottom(&self) -> f32 {
        self.y - 0.2 * self.size
    }
}

fn frame_lines(glyphs: Vec<Glyph>, find_tables: bool) -> Vec<Vec<Line>> {
    let glyphs = drop_overprints(glyphs);
    if glyphs.is_empty() {
        return Vec::new();
    }
    let segments = segments(glyphs);
    if segments.is_empty() {
        return Vec::new();
    }
    let mut sizes: Vec<f32> = segments.iter().map(|s| s.size).collect();
    sizes.sort_by(f32::total_cmp);
    let em = sizes[sizes.len() / 2];
    let (segments, found) = if find_tables {
        tables::pull(segments, em)
    } else {
        (segments, Vec::new())
    };
    let mut blocks: Vec<Vec<Segment>> = Vec::new();
    xy_cut(segments, em, &mut blocks, 0);
    let paras = blocks.into_iter().flat_map(block_lines).collect();
    if found.is_empty() {
        paras
    } else {
        tables::put_back(paras, found)
    }
}

/// Drop a glyph that repeats an earlier one (same character) within 0.15 em along the line
/// and 0.2 em across it: the second pass of a fake bold, a halo or a stroke-and-fill.
/// Legitimate doubled letters stand a full advance apart.
fn drop_overprints(glyphs: Vec<Glyph>) -> Vec<Glyph> {
    // Sorted by character, then x: a glyph's copies follow it within 0.15 em. No hashing:
    // this runs on every glyph of every page. Integer keys, compared in place: the sort was
    // a twentieth of reading pdf-dev when it compared the glyphs through their indices.
    // White space is left out: it is never dropped, and a glyph's look ahead stops at the
    // first other character.
    let mut keyed: Vec<(u64, u32)> = glyphs
        .iter()
        .enumerate()
        .filter(|(_, g)| !g.c.is_whitespace())
        .map(|(i, g)| ((u64::from(g.c) << 32) | u64::from(order_key(g.x)), i as u32))
        .collect();
    sort_keyed(&mut keyed);
    let order: Vec<usize> = keyed.into_iter().map(|(_, i)| i as usize).collect();
    let mut dropped = vec![false; glyphs.len()];
    for (k, &i) in order.iter().enumerate() {
        let g = glyphs[i];
        if dropped[i] || g.c.is_whitespace() {
            continue;
        }
        // Bounded: a stack of one character at one x (a ruled column) costs 64 looks at most.
        for &j in order[k + 1..].iter().take(64) {
            let h = glyphs[j];
            if h.c != g.c || h.x - g.x >= 0.15 * g.size {
                break;
            }
            if (h.y - g.y).abs() < 0.2 * g.size && (h.size - g.size).abs() <= 0.1 * g.size {
                // The later of the two in the parser's order goes.
                dropped[i.max(j)] = true;
                if dropped[i] {
                    break;
                }
            }
        }
    }
    glyphs
        .into_iter()
        .zip(dropped)
        .filter_map(|(g, d)| (!d).then_some(g))
        .collect()
}

/// Sort `(key, index)` pairs whose indices ascend, as `sort_unstable` would (the indices make
/// every pair unique): a page's glyphs by a radix sort on the key's bytes, least significant
/// first and stable, so equal keys keep their indices' order. Bytes every key shares (the
/// upper bytes of a Latin character, say) are skipped. The comparison sort was 3 % of the
/// instructions of reading pdf-dev.
fn sort_keyed(keyed: &mut Vec<(u64, u32)>) {
    const MIN_RADIX: usize = 256;
    if keyed.len() < MIN_RADIX {
        keyed.sort_unstable();
        return;
    }
    let mut counts = [[0usize; 256]; 8];
    for &(key, _) in keyed.iter() {
        for (byte, count) in key.to_le_bytes().iter().zip(counts.iter_mut()) {
            count[usize::from(*byte)] += 1;
        }
    }
    let mut spare = vec![(0u64, 0u32); keyed.len()];
    for (shift, count) in (0..64).step_by(8).zip(counts.iter()) {
        if count.contains(&keyed.len()) {
            continue;
        }
        let mut next = [0usize; 256];
        let mut at = 0;
        for (slot, n) in next.iter_mut().zip(count) {
            *slot = at;
            at += n;
        }
        for &pair in keyed.iter() {
            let slot = &mut next[((pair.0 >> shift) & 0xFF) as usize];
            spare[*slot] = pair;
            *slot += 1;
        }
        std::mem::swap(keyed, &mut spare);
    }
}

/// Lines (glyphs sharing a baseline within 0.4 em), cut into segments at wide gaps.
fn segments(glyphs: Vec<Glyph>) -> Vec<Segment> {
    // Top to bottom, then left to right, ties in the parser's order: integer keys sorted in
    // place, then the glyphs moved once.
    let mut keyed: Vec<(u64, u32)> = glyphs
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let key = (u64::from(!order_key(g.y)) << 32) | u64::from(order_key(g.x));
            (key, i as u32)
        })
        .collect();
    keyed.sort_unstable();
    let mut glyphs: Vec<Glyph> = keyed.into_iter().map(|(_, i)| glyphs[i as usize]).collect();
    let mut out = Vec::new();
    let mut start = 0;
    while start < glyphs.len() {
        let base = glyphs[start].y;
        let tol = 0.4 * glyphs[start].size;
        let mut end = start + 1;
        while end < glyphs.len() && base - glyphs[end].y <= tol {
            end += 1;
        }
        let line = &mut glyphs[start..end];
        line.sort_by(|a, b| a.x.total_cmp(&b.x));
        split_line(line, &mut out);
        start = end;
    }
    out
}

/// `x` as an integer in [`f32::total_cmp`]'s order.
fn order_key(x: f32) -> u32 {
    let bits = x.to_bits();
    if bits >> 31 == 1 {
        !bits
    } else {
        bits | 0x8000_0000
    }
}

fn split_line(line: &[Glyph], out: &mut Vec<Segment>) {
    let mut seg: Option<Segment> = None;
    let mut prev: Option<Glyph> = None;
    let mut pending_space = false;
    for &g in line {
        if let (Some(p), Some(s)) = (prev, seg.as_mut()) {
            let known = p.w > 0.0;
            let gap = if known {
                g.x - (p.x + p.w)
            } else {
                g.x - p.x - p.size
            };
            if gap > 0.6 * p.size.max(g.size) {
                let done = seg.take();
                out.extend(done.filter(|s| !s.text.trim().is_empty()).map(finish));
                pending_space = false;
            } else if g.c.is_whitespace() {
                pending_space = true;
                prev = Some(g);
                continue;
            } else {
                let space = if known {
                    gap > 0.15 * p.size.min(g.size)
                } else {
                    gap > 0.0
                };
                if (space || pending_space) && !s.text.ends_with(' ') {
                    s.text.push(' ');
                }
                pending_space = false;
            }
        }
        if g.c.is_whitespace() && seg.is_none() {
            prev = Some(g);
            continue;
        }
        let s = seg.get_or_insert_with(|| Segment {
            text: String::new(),
            x0: g.x,
            x1: g.x,
            y: g.y,
            size: g.size,
            chars: 0,
            bold: 0,
            size_sum: 0.0,
        });
        s.text.push(g.c);
        s.x1 = s.x1.max(g.x + g.w.max(0.5 * g.size));
        s.size = s.size.max(g.size);
        s.chars += 1;
        s.bold += usize::from(g.bold);
        s.size_sum += g.size;
        prev = Some(g);
    }
    out.extend(seg.filter(|s| !s.text.trim().is_empty()).map(finish));
}

fn finish(mut s: Segment) -> Segment {
    let trimmed = s.text.trim_end().len();
    s.text.truncate(trimmed);
    s
}

/// Recursive XY cut of `segs` into reading-order blocks.
fn xy_cut(segs: Vec<Segment>, em: f32, out: &mut Vec<Vec<Segment>>, depth: usize) {
    if segs.len() <= 1 || depth > 64 {
        if !segs.is_empty() {
            out.push(segs);
        }
        return;
    }
    if let Some(at) = column_cut(&segs, em) {
        let (left, right): (Vec<Segment>, Vec<Segment>) =
            segs.into_iter().partition(|s| s.x1 <= at);
        xy_cut(left, em, out, depth + 1);
        xy_cut(right, em, out, depth + 1);
        return;
    }
    if let Some(at) = row_cut(&segs, em) {
        let (above, below): (Vec<Segment>, Vec<Segment>) =
            segs.into_iter().partition(|s| s.bottom() >= at);
        xy_cut(above, em, out, depth + 1);
        xy_cut(below, em, out, depth + 1);
        return;
    }
    if let Some(at) = boxes::cut(&segs, em) {
        let (left, right): (Vec<Segment>, Vec<Segment>) =
            segs.into_iter().partition(|s| s.x1 <= at);
        xy_cut(left, em, out, depth + 1);
        xy_cut(right, em, out, depth + 1);
        return;
    }
    out.push(segs);
}

/// The x of a gutter: a gap at least 0.6 em wide that no segment crosses, with prose on both
/// sides (a median segment of 15 characters or more, so a table's cell columns are not read
/// one after the other; three segments a side under an em, as a river of word spaces in a
/// short paragraph could line up). The widest such gap wins.
///
/// One sort and one pass: a gap no segment crosses splits the segments sorted by their start
/// into a prefix (left) and a suffix (right), so both sides' counts come from running totals.
/// (Testing each gap by filtering every segment was quadratic: a fuzzed page of thousands of
/// short number runs spent seconds here.)
fn column_cut(segs: &[Segment], em: f32) -> Option<f32> {
    let mut spans: Vec<(f32, f32, bool)> =
        segs.iter().map(|s| (s.x0, s.x1, s.chars < 15)).collect();
    spans.sort_by(|a, b| a.0.total_cmp(&b.0));
    let short_total = spans.iter().filter(|s| s.2).count();
    let mut best: Option<(f32, f32)> = None;
    let mut reach = spans[0].1;
    let mut short_left = usize::from(spans[0].2);
    for (i, &(x0, x1, short)) in spans.iter().enumerate().skip(1) {
        if x0 - reach >= 0.6 * em {
            let width = x0 - reach;
            let need = if width < em { 3 } else { 2 };
            let (left, right) = (i, spans.len() - i);
            let prose = |n: usize, short: usize| n >= need && median_is_prose(n, short);
            if prose(left, short_left)
                && prose(right, short_total - short_left)
                && best.is_none_or(|(w, _)| width > w)
            {
                best = Some((width, (x0 + reach) / 2.0));
            }
        }
        reach = reach.max(x1);
        short_left += usize::from(short);
    }
    best.map(|(_, at)| at)
}

/// Whether the median length of `n` segments, `short` of them under 15 characters, is 15 or
/// more: in sorted order the short ones come first, so the median (index `n / 2`) is long
/// exactly when no more than `n / 2` are short.
fn median_is_prose(n: usize, short: usize) -> bool {
    n > 0 && short <= n / 2
}

/// The y of the widest horizontal gap that no segment crosses, if it is at least 0.5 em and
/// wider than 1.5 times the usual gap between a line and the next one below it in the same
/// column (so loosely set lines stay one block).
fn row_cut(segs: &[Segment], em: f32) -> Option<f32> {
    let mut order: Vec<&Segment> = segs.iter().collect();
    // Top to bottom.
    order.sort_by(|a, b| b.top().total_cmp(&a.top()));
    let mut best: Option<(f32, f32)> = None;
    let mut low = order[0].bottom();
    for s in &order[1..] {
        let gap = low - s.top();
        if gap > 0.0 && best.is_none_or(|(w, _)| gap > w) {
            best = Some((gap, (low + s.top()) / 2.0));
        }
        low = low.min(s.bottom());
    }
    let (gap, at) = best?;
    // The usual leading: from each segment to the next one below that shares some x.
    let mut leading: Vec<f32> = Vec::new();
    for (i, s) in order.iter().enumerate() {
        let below = order[i + 1..]
            .iter()
            .take(64)
            .find(|t| t.top() < s.bottom() + 0.5 * s.size && t.x0 < s.x1 && s.x0 < t.x1);
        if let Some(t) = below {
            leading.push((s.bottom() - t.top()).max(0.0));
        }
    }
    leading.sort_by(f32::total_cmp);
    // The lower median: with two samples, one ordinary leading and one gap, the leading.
    let usual = leading
        .get(leading.len().saturating_sub(1) / 2)
        .copied()
        .unwrap_or(0.0);
    (gap >= 0.5 * em && gap > 1.5 * usual).then_some(at)
}

/// The paragraphs of one block, top to bottom: a new one where the pitch opens up or the
/// size changes.
fn block_lines(mut segs: Vec<Segment>) -> Vec<Vec<Line>> {
    segs.sort_by(|a, b| b.y.total_cmp(&a.y).then(a.x0.total_cmp(&b.x0)));
    // Segments sharing a baseline make one line, left to right.
    let mut lines: Vec<(f32, Line)> = Vec::new();
    let mut i = 0;
    while i < segs.len() {
        let base = segs[i].y;
        let tol = 0.4 * segs[i].size;
        let mut j = i + 1;
        while j < segs.len() && base - segs[j].y <= tol {
            j += 1;
        }
        let mut row: Vec<&Segment> = segs[i..j].iter().collect();
        row.sort_by(|a, b| a.x0.total_cmp(&b.x0));
        let text = row
            .iter()
            .map(|s| s.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        let mut cells = Vec::new();
        if row.len() > 1 {
            let mut at = 0;
            for s in &row {
                cells.push((s.x0, at));
                at += s.text.len() + 1;
            }
        }
        let size = row.iter().map(|s| s.size).fold(0.0, f32::max);
        let chars: usize = row.iter().map(|s| s.chars).sum();
        let bold: usize = row.iter().map(|s| s.bold).sum();
        let size_sum: f32 = row.iter().map(|s| s.size_sum).sum();
        let x0 = row.iter().map(|s| s.x0).fold(f32::INFINITY, f32::min);
        lines.push((
            base,
            Line {
                text,
                size,
                mean_size: if chars > 0 {
                    size_sum / chars as f32
                } else {
                    size
                },
                bold: 2 * bold > chars,
                x0,
                segments: row.len(),
                cells,
            },
        ));
        i = j;
    }
    let mut pitches: Vec<f32> = lines.windows(2).map(|w| w[0].0 - w[1].0).collect();
    pitches.sort_by(f32::total_cmp);
    let usual = pitches
        .get(pitches.len().saturating_sub(1) / 2)
        .copied()
        .unwrap_or(0.0);
    let mut out: Vec<Vec<Line>> = Vec::new();
    let mut prev: Option<(f32, f32)> = None;
    for (y, line) in lines {
        let size = line.size;
        let opens = prev.is_none_or(|(py, psize)| {
            py - y > 1.3 * usual.max(0.5 * size) || (psize - size).abs() > 0.15 * size
        });
        prev = Some((y, size));
        match out.last_mut() {
            Some(para) if !opens => para.push(line),
            _ => out.push(vec![line]),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_keys_sort_as_total_cmp_does() {
        let xs = [
            f32::NEG_INFINITY,
            -1e30,
            -72.5,
            -0.0,
            0.0,
            1e-40,
            0.5,
            72.5,
            612.0,
            f32::INFINITY,
            f32::NAN,
        ];
        for a in xs {
            for b in xs {
                assert_eq!(order_key(a).cmp(&order_key(b)), a.total_cmp(&b), "{a} {b}");
            }
        }
    }

    /// Glyphs of `text` set upright from (x, y) at `size`, every glyph 0.5 em wide.
    fn set(text: &str, x: f32, y: f32, size: f32) -> Vec<Placed> {
        text.chars()
            .enumerate()
            .map(|(i, c)| Placed {
                c,
                x: x + i as f32 * 0.5 * size,
                y,
                w: 0.5 * size,
                size,
                rotation: 0.0,
                bold: false,
            })
            .collect()
    }

    #[test]
    fn the_radix_sort_orders_as_sort_unstable() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for len in [0usize, 3, 255, 256, 1_000, 5_000] {
            let keyed: Vec<(u64, u32)> = (0..len as u32)
                .map(|i| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    // Few characters and few positions: many equal keys.
                    let c = [u64::from('e'), u64::from('é'), u64::from('中'), 0x1F600]
                        [(seed % 4) as usize];
                    let x = order_key(((seed >> 8) % 40) as f32 - 10.0);
                    ((c << 32) | u64::from(x), i)
                })
                .collect();
            let mut expected = keyed.clone();
            expected.sort_unstable();
            let mut sorted = keyed;
            sort_keyed(&mut sorted);
            assert_eq!(sorted, expected, "{len} pairs");
        }
    }

    #[test]
    fn words_are_spaced_from_gaps_and_space_glyphs() {
        let mut g = set("Hello", 10.0, 700.0, 10.0);
        g.extend(set("world", 10.0 + 5.0 * 5.0 + 3.0, 700.0, 10.0));
        g.extend(set("again now", 100.0, 700.0, 10.0));
        assert_eq!(page_text(&g), "Hello world again now");
    }

    #[test]
    fn kerned_glyphs_stay_one_word() {
        let mut g = set("AV", 10.0, 700.0, 10.0);
        g[1].x -= 0.8; // kerning pulls V under A
        g.extend(set("es", 10.0 + 10.0 + 0.5, 700.0, 10.0));
        assert_eq!(page_text(&g), "AVes");
    }

    #[test]
    fn an_overprinted_copy_is_dropped_but_doubled_letters_are_kept() {
        let mut g = set("Saint-Sauveur ill", 100.0, 400.0, 10.0);
        // A halo: the same glyphs again, shifted by about a point both ways.
        let halo: Vec<Placed> = g
            .iter()
            .map(|p| Placed {
                x: p.x + 0.9,
                y: p.y - 0.95,
                ..*p
            })
            .collect();
        g.extend(halo);
        assert_eq!(page_text(&g), "Saint-Sauveur ill");
    }

    #[test]
    fn rotated_text_reads_along_its_direction() {
        // Running up the page, glyph positions known but no advance widths.
        let word = "Sauveur";
        let mut g: Vec<Placed> = word
            .chars()
            .enumerate()
            .map(|(i, c)| Placed {
                c,
                x: 500.0,
                y: 100.0 + 7.5 * i as f32,
                w: 0.0,
                size: 14.0,
                rotation: 90.0,
                bold: false,
            })
            .collect();
        g.extend(set("Upright words on the page body.", 50.0, 700.0, 10.0));
        assert_eq!(page_text(&g), "Upright words on the page body.\n\nSauveur");
    }

    #[test]
    fn two_columns_are_read_one_after_the_other() {
        let mut g = set(
            "A Title Spanning Both Columns Of The Page",
            50.0,
            760.0,
            14.0,
        );
        for i in 0..6 {
            let y = 700.0 - 12.0 * i as f32;
            g.extend(set(
                &format!("left column line number {i} here"),
                50.0,
                y,
                10.0,
            ));
            g.extend(set(
                &format!("right column line number {i} here"),
                230.0,
                y,
                10.0,
            ));
        }
        let text = page_text(&g);
        let left = text.find("left column line number 5").unwrap();
        let right = text.find("right column line number 0").unwrap();
        assert!(text.starts_with("A Title"), "{text}");
        assert!(left < right, "{text}");
    }

    #[test]
    fn a_table_is_read_row_by_row() {
        let mut g = Vec::new();
        for (i, (a, b)) in [("Item", "Price"), ("Tea", "3,00"), ("Coffee", "4,50")]
            .iter()
            .enumerate()
        {
            let y = 700.0 - 14.0 * i as f32;
            g.extend(set(a, 50.0, y, 10.0));
            g.extend(set(b, 200.0, y, 10.0));
        }
        assert_eq!(page_text(&g), "Item Price\nTea 3,00\nCoffee 4,50");
    }

    /// The page's text with every run of whitespace one space.
    fn flat(g: &[Placed]) -> String {
        page_text(g)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn side_by_side_boxes_are_read_one_after_the_other() {
        // An invoice's addressee beside its order details: each box keeps its own pitch,
        // so their baselines interleave (the lines were read across, one of each in turn).
        let mut g = set("Invoice to:", 50.0, 700.0, 8.0);
        for (i, line) in ["Northwind Traders", "12 Harbour Road", "Portsmouth PO1"]
            .iter()
            .enumerate()
        {
            g.extend(set(line, 50.0, 688.0 - 12.0 * i as f32, 12.0));
        }
        g.extend(set("Invoice", 320.0, 697.0, 16.0));
        for (i, line) in ["Customer 2056981", "Reference 9855", "Order date 16.02"]
            .iter()
            .enumerate()
        {
            g.extend(set(line, 320.0, 684.0 - 13.5 * i as f32, 10.0));
        }
        assert_eq!(
            flat(&g),
            "Invoice to: Northwind Traders 12 Harbour Road Portsmouth PO1 \
             Invoice Customer 2056981 Reference 9855 Order date 16.02"
        );
    }

    #[test]
    fn a_seller_and_a_buyer_whose_lines_drift_apart_are_two_boxes() {
        // Same first baselines, then each box's own leading (the buyer's lines set a little
        // wider): fewer than half the lines share a baseline and the shift is not steady.
        let seller = [
            "Seller",
            "Test Ltd",
            "11 Duck Lane",
            "91-504 Lodz",
            "VAT 531941",
        ];
        let buyer = [
            "Buyer",
            "Media Group SA",
            "16 Wigury St",
            "02-092 Warsaw",
            "VAT 527264",
        ];
        let drift = [0.0, 0.0, 0.7, 1.0, 3.0];
        let mut g = Vec::new();
        for i in 0..5 {
            let y = 700.0 - 11.0 * i as f32;
            g.extend(set(seller[i], 40.0, y, 8.0));
            g.extend(set(buyer[i], 320.0, y - drift[i], 8.0));
        }
        assert_eq!(
            flat(&g),
            "Seller Test Ltd 11 Duck Lane 91-504 Lodz VAT 531941 \
             Buyer Media Group SA 16 Wigury St 02-092 Warsaw VAT 527264"
        );
    }

    #[test]
    fn labels_set_a_steady_shift_below_their_values_stay_rows() {
        // A form whose labels sit 1.5 pt lower than their values on every row: one steady
        // shift is a row's cells in two fonts, not two boxes.
        let rows = [
            ("Telephone", "+31 73 645 6500"),
            ("Telefax", "+31 73 645 6510"),
            ("E-mail", "sales@example.com"),
        ];
        let mut g = Vec::new();
        for (i, (label, value)) in rows.iter().enumerate() {
            let y = 700.0 - 12.5 * i as f32;
            g.extend(set(label, 240.0, y - 1.5, 10.0));
            g.extend(set(value, 300.0, y, 10.0));
        }
        assert_eq!(
            page_text(&g),
            "Telephone +31 73 645 6500\nTelefax +31 73 645 6510\nE-mail sales@example.com"
        );
    }

    #[test]
    fn a_table_with_a_wrapped_cell_is_read_row_by_row() {
        // The right cell of the first row wraps onto a second line: every row still starts
        // on a shared baseline, so the columns are one table.
        let mut g = Vec::new();
        let rows: [(&str, &[&str]); 3] = [
            ("Motor", &["AC worm gear motor", "with flange"]),
            ("Power", &["0.18 kW"]),
            ("Speed", &["1350 r/min"]),
        ];
        let mut y = 700.0;
        for (label, values) in rows {
            g.extend(set(label, 50.0, y, 10.0));
            for v in values {
                g.extend(set(v, 200.0, y, 10.0));
                y -= 12.0;
            }
        }
        assert_eq!(
            flat(&g),
            "Motor AC worm gear motor with flange Power 0.18 kW Speed 1350 r/min"
        );
    }

    #[test]
    fn a_wider_pitch_starts_a_paragraph() {
        let mut g = set("first paragraph line one", 50.0, 700.0, 10.0);
        g.extend(set("first paragraph line two", 50.0, 688.0, 10.0));
        g.extend(set("first paragraph line three", 50.0, 676.0, 10.0));
        g.extend(set("second paragraph", 50.0, 656.0, 10.0));
        assert_eq!(
            page_text(&g),
            "first paragraph line one\nfirst paragraph line two\nfirst paragraph line three\n\nsecond paragraph"
        );
    }

    #[test]
    fn vertical_columns_with_gaps_are_not_table_cells() {
        // Three columns, each broken by a wide gap: turned, each is a line of two segments,
        // which on an upright page would be a row of cells.
        let mut g = Vec::new();
        for x in [300.0, 320.0, 340.0] {
            for (i, c) in "一二三四五六七八".chars().enumerate() {
                let gap = if i >= 4 { 40.0 } else { 0.0 };
                g.push(Placed {
                    c,
                    x,
                    y: 700.0 - 10.0 * i as f32 - gap,
                    w: 10.0,
                    size: 10.0,
                    rotation: 0.0,
                    bold: false,
                });
            }
        }
        let lines: Vec<Line> = page_lines(&g).into_iter().flatten().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines.iter().all(|l| l.cells.is_empty()));
        assert!(lines.iter().all(|l| l.segments == 2));
    }

    #[test]
    fn vertical_cjk_reads_columns_right_to_left() {
        // Two columns of four glyphs each: the right one is read first, top to bottom.
        let column = |text: &str, x: f32| -> Vec<Placed> {
            text.chars()
                .enumerate()
                .map(|(i, c)| Placed {
                    c,
                    x,
                    y: 700.0 - 10.0 * i as f32,
                    w: 10.0,
                    size: 10.0,
                    rotation: 0.0,
                    bold: false,
                })
                .collect()
        };
        let mut g = column("縦書き文", 300.0);
        g.extend(column("右から左", 320.0));
        assert_eq!(page_text(&g), "右から左\n縦書き文");
        // Horizontal CJK prose stays on its lines.
        let mut h = set("横書きの文章です", 50.0, 700.0, 10.0);
        h.extend(set("二行目の文章です", 50.0, 686.0, 10.0));
        for p in &mut h {
            p.w = 10.0;
        }
        let h: Vec<Placed> = h
            .iter()
            .enumerate()
            .map(|(i, p)| Placed {
                x: 50.0 + 10.0 * (i % 8) as f32,
                ..*p
            })
            .collect();
        assert_eq!(page_text(&h), "横書きの文章です\n二行目の文章です");
    }

    #[test]
    fn hostile_numbers_do_not_panic() {
        let g = vec![
            Placed {
                c: 'a',
                x: f32::NAN,
                y: 1.0,
                w: 1.0,
                size: 10.0,
                rotation: 0.0,
                bold: false,
            },
            Placed {
                c: 'b',
                x: 1e30,
                y: -1e30,
                w: f32::INFINITY,
                size: 0.0,
                rotation: 1e9,
                bold: false,
            },
            Placed {
                c: 'c',
                x: 0.0,
                y: 0.0,
                w: -5.0,
                size: -3.0,
                rotation: -90.0,
                bold: false,
            },
        ];
        let _ = page_text(&g);
    }

    /// The gutter test as first written, one filter of every segment per gap: the oracle the
    /// one-pass `column_cut` must agree with.
    fn column_cut_by_filtering(segs: &[Segment], em: f32) -> Option<f32> {
        let median = |mut v: Vec<usize>| -> usize {
            v.sort_unstable();
            v.get(v.len() / 2).copied().unwrap_or(0)
        };
        let mut spans: Vec<(f32, f32)> = segs.iter().map(|s| (s.x0, s.x1)).collect();
        spans.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut best: Option<(f32, f32)> = None;
        let mut reach = spans[0].1;
        for &(x0, x1) in &spans[1..] {
            if x0 - reach >= 0.6 * em {
                let mid = (x0 + reach) / 2.0;
                let width = x0 - reach;
                let need = if width < em { 3 } else { 2 };
                let left: Vec<usize> = segs
                    .iter()
                    .filter(|s| s.x1 <= mid)
                    .map(|s| s.chars)
                    .collect();
                let right: Vec<usize> = segs
                    .iter()
                    .filter(|s| s.x0 >= mid)
                    .map(|s| s.chars)
                    .collect();
                let prose = left.len() >= need
                    && right.len() >= need
                    && median(left) >= 15
                    && median(right) >= 15;
                if prose && best.is_none_or(|(w, _)| width > w) {
                    best = Some((width, mid));
                }
            }
            reach = reach.max(x1);
        }
        best.map(|(_, at)| at)
    }

    #[test]
    fn the_one_pass_gutter_agrees_with_filtering_every_segment() {
        // A small xorshift: the same pseudo-random pages on every run.
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let mut cuts = 0;
        for _ in 0..3000 {
            let count = 1 + next(40) as usize;
            let segs: Vec<Segment> = (0..count)
                .map(|_| {
                    let x0 = next(60) as f32 * 10.0;
                    let chars = 1 + next(30) as usize;
                    Segment {
                        text: "x".repeat(chars),
                        x0,
                        x1: x0 + 5.0 + next(120) as f32,
                        y: next(50) as f32 * 12.0,
                        size: 10.0,
                        chars,
                        bold: 0,
                        size_sum: 10.0 * chars as f32,
                    }
                })
                .collect();
            let want = column_cut_by_filtering(&segs, 10.0);
            assert_eq!(column_cut(&segs, 10.0), want, "{segs:?}");
            cuts += usize::from(want.is_some());
        }
        // Both outcomes are exercised, not only "no gutter".
        assert!(cuts > 100, "{cuts} cuts");
    }

    #[test]
    fn thousands_of_short_runs_with_gaps_are_laid_out() {
        // The shape of the fuzzed page that took seconds: short number runs, each starting at
        // its own x with a gap before the next, so every one of 20,000 gaps is a candidate
        // gutter (filtering every segment per gap was 4 x 10^8 steps). The text is all there.
        let mut g = Vec::new();
        for i in 0..20_000 {
            g.extend(set(
                "12",
                i as f32 * 20.0,
                800.0 - (i % 50) as f32 * 12.0,
                10.0,
            ));
        }
        let text = page_text(&g);
        assert_eq!(text.matches("12").count(), 20_000);
    }
}
