#!/usr/bin/env python3
"""Train and evaluate a readable-mode block scorer, out of fold, and export the one the core ships.

Reads the development corpora (``../shared/corpus``: WCXB dev and the article dev set, loaded
and scored exactly as ``benches/quality.py`` does), splits every page into the readable
selection's text blocks with their features (``webgrip._core.readable_blocks``), labels each
block from the page's ground truth, and trains scikit-learn's HistGradientBoostingClassifier
over pages grouped into 5 folds (``GroupKFold``, group = page): every page is scored by a
model that never saw it. Its size (``max_iter`` x ``max_leaf_nodes``) is chosen from a small
grid by the same folds' mean page F1; the figures reported are those folds' predictions for
the chosen size (the choice among a handful of sizes is the one thing the folds tune).

Each block weighs its word count in training (``--weight tokens``, the default): the page
metric counts tokens, not blocks; ``--weight page`` divides that by the page's words (times the
mean page's), so every page weighs alike, as in the mean page F1.

Features (``--features``): ``base`` (the default) is the block's own numbers, flags and tag,
its ancestors' flags and the page's facts; ``context`` adds its neighbours' (the blocks two
before and two after: the rules' verdict, size, link share, relative depth; and a window of
five either side: the share of its text the rules keep, its link share, its size); ``text``
adds page-text columns (how often the block's text recurs on the page, its share of the first
heading's words, its distance from that heading and from the nearest block the rules keep,
its digits). ``--stack`` refits the chosen size over the features and the first model's
out-of-fold scores of the page's blocks. None of these, nor page weights, moved the figures
above ``base``'s (docs/history/benchmarks.md). ``core`` is the core's own rows
(``_core.readable_features``): what the shipped scorer reads, every block kept so the rows line
up; ``--train-on in-scope`` fits on the blocks the rules keep only, the ones the shipped scorer
judges.
``core-context`` adds the core's development columns (``_core.READABLE_CONTEXT_NAMES``: the
blocks before and after, the runs the block is part of, the page's kind as the rules read it);
no column of the shipped scorer, so it measures and does not export. ``--group site`` folds by
site (``benches/quality.py``'s ``site_fold``) instead of by page.

Labels (``--labels``, both over lowercase ``\\w+`` tokens, threshold ``--label-overlap``, 0.5):
- ``ngram`` (default): a block is main content when at least half of its token 3-grams occur
  in the ground truth's set of 3-grams, so its words must come in the ground truth's order; a
  block of one or two tokens must occur whole as a contiguous run of the ground truth;
- ``bag``: when at least half of its tokens occur in the ground
  truth's token bag (multiset overlap: a token counts at most as often as the ground truth
  has it), which also passes boilerplate made of common words.
The model's page text is the concatenation, in document order, of the blocks it scores at
least 0.5.

Compared, per WCXB page type, overall, and on the articles (each corpus with its own metric):
- ``rules``: ``extract_document(..., main_content=True)["text"]``, today's readable text;
- ``rules-blocks``: the blocks the rules keep (``in_scope``), joined as the model's are (how
  faithfully the blocks stand for the selection);
- ``labels``: the blocks labelled main content (what a perfect block scorer would score);
- ``model``: the blocks the model keeps;
- ``F1-decoded``: per page, the blocks that maximise its expected token F1 under the model's
  scores (:func:`f1_decode`) instead of those scored 0.5 or more;
- ``gated`` (with ``--gate``): per page, the rules' text or the model's, as a page-level
  classifier (:func:`gate_columns`) trained on the other folds' pages chooses;
- ``CRF`` (with ``--crf``): the blocks whose marginal is 0.5 or more under a linear-chain CRF
  over each page's blocks in order (:func:`crf_items`: the model's out-of-fold scores, the
  rules' verdicts, sizes and tags, two blocks either side), trained on the other folds' pages;
- ``shipped`` (with ``--features core``): the core's own readable text with each page's blocks
  judged by their out-of-fold scores (:func:`core_text`: the in-scope blocks scored below a
  threshold leave, as the default ``readable_model=True`` does), the threshold chosen per
  fold from ``SHIP_LOW`` on the other folds' pages;
- ``labels, drop`` (with ``--features core``): the same path with the labels as the scores:
  what a scorer that only drops would reach if it judged every in-scope block as the labels
  do (its ceiling);
- ``corrected``: the rules corrected by the model: the in-scope blocks, minus those the model
  scores below a low threshold, plus out-of-scope blocks it scores above a high one. The pair
  is chosen per fold from a small grid (``LOW`` x ``HIGH``) by mean page F1 on the other folds'
  pages, from their out-of-fold scores: a fold's pages never take part in choosing its pair.
Block accuracy is against the labels, for the rules' ``in_scope`` and for the model.

``--export DIR`` (with ``core``) fits the chosen size on every page and writes the model the
core ships (``DIR/blocks.txt``, compiled in; the default, ``readable_model=False`` turns it off) and
``DIR/parity.txt``, rows with scikit-learn's probabilities that a Rust test scores the same.
Needs the ``train`` extra (scikit-learn, numpy; python-crfsuite for ``--crf``)::

    python training/readable.py                # everything (a few minutes)
    python training/readable.py --sample 200   # a quick look on fewer pages
    python training/readable.py --features core --size 50,15 --train-on in-scope \\
        --export rust/extract/src/readable/model    # the shipped model
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.model_selection import GroupKFold
from threadpoolctl import threadpool_limits
from webgrip import _core

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benches"))
import quality as q  # noqa: E402  (benches/quality.py: the corpora's loaders and metrics)

SEED = 33
NGRAM = 3  # ``--labels ngram``: n of the token n-grams matched against the ground truth
# Thresholds tried by ``rules-corrected``: drop an in-scope block the model scores below LOW,
# add an out-of-scope block it scores above HIGH (0 and 1.01: never).
LOW = (0.0, 0.05, 0.1, 0.2, 0.3)
HIGH = (0.7, 0.8, 0.9, 0.95, 1.01)
# Thresholds tried for the shipped scorer (``core`` features), which only drops in-scope
# blocks scored below one of them, measured on the core's own text (see ``shipped`` below).
SHIP_LOW = (0.05, 0.1, 0.15, 0.2, 0.3)
# Model sizes tried: leaves per tree, and the number of boosting rounds, read from one fit of
# the largest per leaf count (`staged_predict_proba`).
LEAVES = (15, 63)
ROUNDS = (50, 100, 200)
# The core's feature columns (``_core.READABLE_FEATURE_NAMES``), which BASE repeats: the
# block's numbers (the keys of ``readable_blocks``' dicts), then ratios the trees would
# otherwise approximate with many splits and two page-level facts (how much text the page
# has, how much of it the rules keep), then the flag bits and the tag.
CORE = list(_core.READABLE_FEATURE_NAMES)
NUMERIC = CORE[: CORE.index("link_share")]
DERIVED = CORE[CORE.index("link_share") : CORE.index("flag_invisible")]
FLAGS = list(_core.READABLE_FLAG_NAMES)
# The tags the ``tag`` column numbers, as the core numbers them (index; any other: the length).
TAGS = list(_core.READABLE_TAGS)
# Context: the neighbouring blocks in document order (offsets), and a window either side
# summed by characters: a paragraph among kept paragraphs reads differently from one alone in
# a footer.
OFFSETS = (-2, -1, 1, 2)
WINDOW = 5
CONTEXT = [
    *(f"{name}_{d:+d}" for d in OFFSETS for name in ("scope", "log_chars", "links", "depth")),
    "window_scope",
    "window_links",
    "window_log_chars",
]
# Page text: how often the block's text recurs on the page (menus and footers repeat, items of
# a listing do not), how much it shares with the page's first heading, where it stands from
# that heading, how far it is from the nearest block the rules keep, and its share of digits.
PAGE_TEXT = [
    "log_repeats",
    "heading_share",
    "from_heading",
    "log_to_scope",
    "digit_share",
]
BASE = [
    *NUMERIC,
    *DERIVED,
    *(f"flag_{f}" for f in FLAGS),
    *(f"anc_{f}" for f in FLAGS),
    "tag",
]
# ``--features``: the column groups after BASE.
EXTRA = {"base": [], "context": CONTEXT, "text": [*CONTEXT, *PAGE_TEXT], "core": []}
# ``--features core-context``: the core's rows, then its development columns of the blocks
# before and after, the runs the block is part of and the page's kind (docs generator, blog
# archive, shop, discussion), ``_core.readable_features(..., context=True)``; no column of the
# shipped scorer, so a model over them cannot be exported.
CORE_CONTEXT = list(_core.READABLE_CONTEXT_NAMES)
# ``--features core`` reads the core's own rows (``_core.readable_features``), what the shipped
# scorer reads: the same columns as BASE with the tag a plain number rather than a category.


@dataclass
class PageData:
    corpus: str  # "wcxb" or "articles"
    page: q.Page
    blocks: list[dict[str, Any]]
    labels: np.ndarray
    rules_text: str
    # ``--features core``: the core's feature rows of ``blocks``.
    rows: np.ndarray | None = None


def tokens(text: str) -> Counter[str]:
    return Counter(q.WORD.findall(text.lower()))


def label_blocks_bag(blocks: list[dict[str, Any]], ref: str, share: float) -> np.ndarray:
    """1 where at least ``share`` of the block's tokens are in the ground truth's bag."""
    ref_bag = tokens(ref)
    out = np.zeros(len(blocks), dtype=np.int8)
    for i, b in enumerate(blocks):
        bag = tokens(b["text"])
        n = sum(bag.values())
        if n and sum((bag & ref_bag).values()) >= share * n:
            out[i] = 1
    return out


def label_blocks_ngram(
    blocks: list[dict[str, Any]], ref: str, share: float, n: int = NGRAM
) -> np.ndarray:
    """1 where at least ``share`` of the block's token ``n``-grams occur, in that order, in
    the ground truth; a block shorter than ``n`` tokens must occur whole as a contiguous run
    of the ground truth."""
    ref_toks = q.WORD.findall(ref.lower())
    grams: set[tuple[str, ...]] = set()
    for k in range(1, n + 1):
        grams.update(tuple(ref_toks[i : i + k]) for i in range(len(ref_toks) - k + 1))
    out = np.zeros(len(blocks), dtype=np.int8)
    for i, b in enumerate(blocks):
        toks = q.WORD.findall(b["text"].lower())
        if not toks:
            continue
        if len(toks) < n:
            out[i] = tuple(toks) in grams
            continue
        own = [tuple(toks[j : j + n]) for j in range(len(toks) - n + 1)]
        if sum(g in grams for g in own) >= share * len(own):
            out[i] = 1
    return out


def context(blocks: list[dict[str, Any]], i: int) -> list[float]:
    """The CONTEXT columns of block ``i``: each neighbour's verdict, size, link share and
    depth relative to the block (zeros past the page's ends), then the window's in-scope and
    link shares of its characters and its size."""
    b = blocks[i]
    row: list[float] = []
    for d in OFFSETS:
        j = i + d
        if 0 <= j < len(blocks):
            n = blocks[j]
            row += [
                float(n["in_scope"]) * 2 - 1,
                float(np.log1p(n["chars"])),
                n["link_chars"] / n["chars"] if n["chars"] else 0.0,
                float(n["depth"] - b["depth"]),
            ]
        else:
            row += [0.0, 0.0, 0.0, 0.0]
    near = blocks[max(0, i - WINDOW) : i + WINDOW + 1]
    chars = sum(n["chars"] for n in near) or 1
    row += [
        sum(n["chars"] for n in near if n["in_scope"]) / chars,
        sum(n["link_chars"] for n in near) / chars,
        float(np.log1p(chars)),
    ]
    return row


def page_text(blocks: list[dict[str, Any]]) -> np.ndarray:
    """The PAGE_TEXT columns of every block of a page."""
    n = len(blocks)
    texts = [" ".join(b["text"].lower().split()) for b in blocks]
    repeats = Counter(texts)
    heading = next((i for i, b in enumerate(blocks) if b["tag"] == "h1"), None)
    head_words = set(tokens(blocks[heading]["text"])) if heading is not None else set()
    scope = [i for i, b in enumerate(blocks) if b["in_scope"]]
    out = np.zeros((n, len(PAGE_TEXT)), dtype=np.float32)
    k = 0
    for i, (b, t) in enumerate(zip(blocks, texts, strict=True)):
        words = tokens(b["text"])
        while k + 1 < len(scope) and abs(scope[k + 1] - i) <= abs(scope[k] - i):
            k += 1
        out[i] = [
            np.log1p(repeats[t] - 1),
            sum(w in head_words for w in words) / max(1, len(head_words)) if head_words else -1,
            (i - heading) / n if heading is not None else -2,
            np.log1p(abs(scope[k] - i)) if scope else -1,
            sum(c.isdigit() for c in t) / max(1, len(t)),
        ]
    return out


def stack_columns(prob: np.ndarray, chars: np.ndarray) -> np.ndarray:
    """``--stack``'s columns for one page's blocks from their first-stage scores: the block's
    own, the two before and after (-1 past the page's ends), a window of five either side and
    the page, each averaged by characters, the page's highest score and the block's rank."""
    n = len(prob)
    out = np.full((n, 9), -1.0, dtype=np.float32)
    if n == 0:
        return out
    w = chars + 1.0
    page = float(np.average(prob, weights=w))
    order = np.argsort(-prob, kind="stable")
    rank = np.empty(n)
    rank[order] = np.arange(n) / n
    for i in range(n):
        out[i, 0] = prob[i]
        for k, d in enumerate((-2, -1, 1, 2)):
            if 0 <= i + d < n:
                out[i, 1 + k] = prob[i + d]
        lo, hi = max(0, i - WINDOW), i + WINDOW + 1
        out[i, 5] = np.average(prob[lo:hi], weights=w[lo:hi])
        out[i, 6] = page
        out[i, 7] = prob.max()
        out[i, 8] = rank[i]
    return out


def features(blocks: list[dict[str, Any]], kind: str) -> np.ndarray:
    """One row per block: the BASE columns, then ``EXTRA[kind]``'s."""
    page_chars = sum(b["chars"] for b in blocks) or 1
    kept = sum(b["chars"] for b in blocks if b["in_scope"])
    tag_code = {t: i for i, t in enumerate(TAGS)}
    rows = np.zeros((len(blocks), len(BASE)), dtype=np.float32)
    for i, b in enumerate(blocks):
        row = [float(b[k]) for k in NUMERIC]
        chars, words = b["chars"], max(b["words"], 1)
        row += [
            b["link_chars"] / chars if chars else 0.0,
            b["punct"] / words,
            chars / words,
            chars / page_chars,
            float(np.log1p(page_chars)),
            kept / page_chars,
        ]
        row += [float(b["flags"] >> k & 1) for k in range(len(FLAGS))]
        row += [float(b["ancestor_flags"] >> k & 1) for k in range(len(FLAGS))]
        row.append(float(tag_code.get(b["tag"], len(TAGS))))
        rows[i] = row
    parts = [rows]
    if kind in ("context", "text"):
        parts.append(np.array([context(blocks, i) for i in range(len(blocks))], np.float32))
    if kind == "text":
        parts.append(page_text(blocks))
    return np.hstack(parts)


def load(
    corpus: Path,
    sample: int | None,
    share: float,
    labels: str,
    core: bool = False,
    context: bool = False,
) -> list[PageData]:
    """The corpora's pages with their blocks and labels; with ``core``, every block the core
    scores (none left out, so its rows line up) and the core's feature rows (with
    ``context``, followed by its ``CORE_CONTEXT`` columns)."""
    label_blocks = label_blocks_ngram if labels == "ngram" else label_blocks_bag
    rules = q.ours_text(readable_model=False)
    out = []
    sets = [
        ("wcxb", q.load_wcxb(corpus / "wcxb-dev", sample, "all")),
        ("articles", q.load_articles(corpus / "article-bench-dev", sample, "all")),
    ]
    for name, pages in sets:
        for page in pages:
            blocks = _core.readable_blocks(page.html, page.url)
            rows = None
            if core:
                raw = _core.readable_features(page.html, page.url, context=context)
                width = len(CORE) + (len(CORE_CONTEXT) if context else 0)
                rows = np.frombuffer(raw, dtype="<f4").reshape(len(blocks), width)
            else:
                blocks = [b for b in blocks if q.WORD.search(b["text"])]
            out.append(
                PageData(
                    corpus=name,
                    page=page,
                    blocks=blocks,
                    labels=label_blocks(blocks, page.ref, share),
                    rules_text=rules(page),
                    rows=rows,
                )
            )
    return out


def f1_decode(prob: np.ndarray, words: np.ndarray) -> np.ndarray:
    """The page's blocks that maximise its expected token F1 under the model's scores.

    Taking each block as main content with probability ``p_i``, independently, a selection S
    expects about ``2 * sum_S(p w) / (sum_S(w) + sum_all(p w))`` (``w``: the block's words).
    The best S is the top-k blocks by score for some k (a block belongs in it when its score
    exceeds half the F1 reached), so every k is tried in one pass over the sorted scores.
    Unlike a fixed 0.5, a page whose content blocks all score 0.3 keeps them: dropping them
    scores 0, keeping them about 0.5 if the model is calibrated.
    """
    keep = np.zeros(len(prob), dtype=bool)
    if len(prob) == 0:
        return keep
    w = np.maximum(words, 1.0)
    order = np.argsort(-prob, kind="stable")
    gain = np.cumsum(prob[order] * w[order])
    size = np.cumsum(w[order])
    expected = 2.0 * gain / (size + float(np.sum(prob * w)))
    k = int(np.argmax(expected)) + 1
    keep[order[:k]] = True
    return keep


def crf_items(blocks: list[dict[str, Any]], prob: np.ndarray) -> list[dict[str, float]]:
    """A page's blocks as a linear-chain CRF's items: each block's first-stage score (as is
    and in tenths), the rules' verdict, its size, and the same for the two blocks either side,
    so the chain's transitions judge the page's blocks together."""
    items = []
    n = len(blocks)
    for i, b in enumerate(blocks):
        p = float(prob[i])
        item = {
            "bias": 1.0,
            "p": p,
            f"p{min(int(p * 10), 9)}": 1.0,
            "rules": float(b["in_scope"]),
            "rules*p": p * b["in_scope"],
            "words": float(np.log1p(b["words"])),
            f"tag={b['tag']}": 1.0,
        }
        for d in (-2, -1, 1, 2):
            j = i + d
            if 0 <= j < n:
                item[f"{d}:p"] = float(prob[j])
                item[f"{d}:rules"] = float(blocks[j]["in_scope"])
            else:
                item[f"{d}:edge"] = 1.0
        items.append(item)
    return items


def crf_out_of_fold(
    data: list[PageData], prob: np.ndarray, spans: np.ndarray, page_fold: np.ndarray
) -> np.ndarray:
    """Each block's marginal probability of being main content under a linear-chain CRF
    (python-crfsuite, L-BFGS with L1 and L2) trained on the other folds' pages."""
    import tempfile

    import pycrfsuite

    items = [crf_items(d.blocks, prob[spans[i] : spans[i + 1]]) for i, d in enumerate(data)]
    labels = [[str(int(v)) for v in d.labels] for d in data]
    out = np.zeros(len(prob))
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(int(page_fold.max()) + 1):
            trainer = pycrfsuite.Trainer(verbose=False)
            for i in np.flatnonzero(page_fold != k):
                if items[i]:
                    trainer.append(items[i], labels[i])
            trainer.set_params({"c1": 0.1, "c2": 0.01, "max_iterations": 150})
            path = f"{tmp}/fold{k}.crfsuite"
            trainer.train(path)
            tagger = pycrfsuite.Tagger()
            tagger.open(path)
            if "1" in tagger.labels():  # else no training page had content: every score 0
                for i in np.flatnonzero(page_fold == k):
                    if items[i]:
                        tagger.set(items[i])
                        out[spans[i] : spans[i + 1]] = [
                            tagger.marginal("1", t) for t in range(len(items[i]))
                        ]
            tagger.close()
    return out


def gate_columns(blocks: list[dict[str, Any]], prob: np.ndarray) -> list[float]:
    """A page's facts for choosing between the rules' text and the model's: its size, what
    each keeps, where they disagree and how sure the model is on either side."""
    chars = np.array([float(b["chars"]) for b in blocks], dtype=float)
    total = float(chars.sum()) or 1.0
    rules = np.array([bool(b["in_scope"]) for b in blocks], dtype=bool)
    model = prob >= 0.5

    def share(mask: np.ndarray) -> float:
        return float(chars[mask].sum()) / total

    def mean_prob(mask: np.ndarray) -> float:
        weight = float(chars[mask].sum())
        return float((prob[mask] * chars[mask]).sum()) / weight if weight else -1.0

    return [
        float(np.log1p(len(blocks))),
        float(np.log1p(total)),
        share(rules),
        share(model),
        share(model & ~rules),
        share(rules & ~model),
        mean_prob(rules),
        mean_prob(~rules),
        float(prob.max()) if len(prob) else 0.0,
        float(np.mean(prob >= 0.9)) if len(prob) else 0.0,
    ]


def gate_out_of_fold(
    data: list[PageData],
    prob: np.ndarray,
    spans: np.ndarray,
    page_fold: np.ndarray,
    model_texts: list[str],
) -> list[str]:
    """Per page, the rules' own text or the model's, whichever a page-level classifier
    trained on the other folds' pages expects to score higher (each training page weighing
    what choosing wrongly costs it)."""
    f_rules = np.array([page_f1(d, d.rules_text) for d in data])
    f_model = np.array([page_f1(d, t) for d, t in zip(data, model_texts, strict=True)])
    pages = np.array(
        [gate_columns(d.blocks, prob[spans[i] : spans[i + 1]]) for i, d in enumerate(data)]
    )
    better = f_model > f_rules
    cost = np.abs(f_model - f_rules) + 1e-3
    use_model = np.zeros(len(data), dtype=bool)
    for k in range(int(page_fold.max()) + 1):
        train, test = page_fold != k, page_fold == k
        gate = HistGradientBoostingClassifier(
            max_iter=100, max_leaf_nodes=7, learning_rate=0.05, random_state=SEED
        )
        gate.fit(pages[train], better[train], sample_weight=cost[train])
        use_model[test] = gate.predict_proba(pages[test])[:, 1] >= 0.5
    print(
        f"gate: the model's text on {use_model.mean():.3f} of the pages "
        f"(better on {better.mean():.3f}; the best of the two per page would score "
        f"{np.maximum(f_rules, f_model).mean():.3f} on the token metric)"
    )
    return [m if u else d.rules_text for d, m, u in zip(data, model_texts, use_model, strict=True)]


def core_text(page: q.Page, scores: np.ndarray, low: float) -> str:
    """The core's readable text of ``page`` with its blocks judged by ``scores`` (one per
    block, in order): the in-scope blocks scored below ``low`` leave the selection, as the
    shipped scorer's do, and everything after (JSON-LD supplement, fallback) runs as shipped."""
    out = _core.extract_document(
        page.html,
        url=page.url,
        modes=["text"],
        main_content=True,
        readable_scores=([float(v) for v in scores], low),
    )
    return out["text"] or ""


def shipped_out_of_fold(
    data: list[PageData], prob: np.ndarray, spans: np.ndarray, page_fold: np.ndarray
) -> tuple[list[str], list[float], float, dict[float, list[str]]]:
    """The shipped scorer out of fold, through the core's own path: each page's text with its
    blocks' out-of-fold scores (:func:`core_text`) at the threshold from ``SHIP_LOW`` that
    scores best on the other folds' pages. Also the thresholds chosen per fold, the one best
    over every page (what ``--export`` ships) and the texts at each threshold in every fold."""
    texts: dict[float, list[str]] = {}
    f1: dict[float, np.ndarray] = {}
    for low in SHIP_LOW:
        texts[low] = [
            core_text(d.page, prob[spans[i] : spans[i + 1]], low) for i, d in enumerate(data)
        ]
        f1[low] = np.array([page_f1(d, t) for d, t in zip(data, texts[low], strict=True)])
    out = [""] * len(data)
    chosen = []
    for k in range(int(page_fold.max()) + 1):
        others = page_fold != k
        low = max(SHIP_LOW, key=lambda v: f1[v][others].mean())
        chosen.append(low)
        for i in np.flatnonzero(page_fold == k):
            out[i] = texts[low][i]
    return out, chosen, max(SHIP_LOW, key=lambda v: f1[v].mean()), texts


def export(
    folder: Path,
    x: np.ndarray,
    y: np.ndarray,
    weight: np.ndarray,
    size: tuple[int, int],
    low: float,
) -> None:
    """Fit ``size`` on every page and write the core's model file (``blocks.txt``: a header,
    then each tree's nodes in scikit-learn's order, ``leaf VALUE`` or ``split FEATURE
    THRESHOLD MISSING_LEFT LEFT RIGHT``) and ``parity.txt``: 64 rows spread over the data with
    scikit-learn's probability for each, which the core's test scores to the same."""
    model = HistGradientBoostingClassifier(
        max_iter=size[0],
        max_leaf_nodes=size[1],
        learning_rate=0.1,
        early_stopping=False,
        random_state=SEED,
    )
    model.fit(x, y, sample_weight=weight)
    lines = [
        "webgrip block model 1",
        f"features {x.shape[1]}",
        f"low {low!r}",
        f"base {float(np.ravel(model._baseline_prediction)[0])!r}",
        f"trees {len(model._predictors)}",
    ]
    for (tree,) in model._predictors:
        lines.append(f"tree {len(tree.nodes)}")
        for node in tree.nodes:
            if node["is_leaf"]:
                lines.append(f"leaf {float(node['value'])!r}")
            else:
                lines.append(
                    f"split {int(node['feature_idx'])} {float(node['num_threshold'])!r} "
                    f"{int(node['missing_go_to_left'])} {int(node['left'])} {int(node['right'])}"
                )
    (folder / "blocks.txt").write_text("\n".join(lines) + "\n")
    pick = np.linspace(0, len(x) - 1, 64).astype(int)
    expected = model.predict_proba(x[pick])[:, 1]
    rows = [
        " ".join([repr(float(p)), *(repr(float(v)) for v in x[i])])
        for p, i in zip(expected, pick, strict=True)
    ]
    (folder / "parity.txt").write_text("\n".join(rows) + "\n")


def joined(blocks: list[dict[str, Any]], keep: np.ndarray) -> str:
    return "\n".join(b["text"] for b, k in zip(blocks, keep, strict=True) if k)


def page_f1(data: PageData, text: str) -> float:
    return q.wcxb_page(text, data.page.ref)[2]


def summarize(data: list[PageData], texts: list[str]) -> dict[str, float]:
    """Mean page F1 per WCXB page type and overall (WCXB metric), and the article set's F1
    (its own metric)."""
    by_type: dict[str, list[float]] = defaultdict(list)
    art = q.Scores("articles")
    for d, text in zip(data, texts, strict=True):
        if d.corpus == "wcxb":
            f = q.score_wcxb(d.page, text)["f"]
            by_type[d.page.page_type].append(f)
            by_type["wcxb overall"].append(f)
        else:
            art.pages.append(q.score_article(d.page, text))
    out = {k: q.mean(v) for k, v in sorted(by_type.items())}
    if art.pages:
        out["articles"] = q.article_summary(art)["f"]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=q.DEFAULT_CORPUS)
    ap.add_argument("--sample", type=int, default=None, help="pages per corpus (default: all)")
    ap.add_argument(
        "--labels",
        choices=("ngram", "bag"),
        default="ngram",
        help=f"ngram: share of the block's {NGRAM}-grams in the ground truth's (in order); "
        "bag: share of its tokens in the ground truth's token bag",
    )
    ap.add_argument(
        "--features",
        choices=("base", "context", "text", "core", "core-context"),
        default="base",
        help="base: the block's own, its ancestors' and its page's; context: and its "
        "neighbours'; text: and the page-text columns (neither moved the figures); core: the "
        "core's rows; core-context: and its neighbour and page-kind columns",
    )
    ap.add_argument(
        "--group",
        choices=("page", "site"),
        default="page",
        help="folds by page (GroupKFold), or by site (benches/quality.py's site_fold: every "
        "page of a host in one fold, so no fold is scored by a model that saw its site)",
    )
    ap.add_argument(
        "--stack",
        action="store_true",
        help="refit over the features and the first model's out-of-fold scores of the page",
    )
    ap.add_argument(
        "--crf",
        action="store_true",
        help="also score the page's blocks together: a linear-chain CRF over the model's "
        "out-of-fold scores and the rules' verdicts (needs python-crfsuite)",
    )
    ap.add_argument(
        "--gate",
        action="store_true",
        help="also choose per page between the rules' text and the model's, by a page-level "
        "model trained on the other folds' pages",
    )
    ap.add_argument(
        "--size",
        help="ROUNDS,LEAVES: train this size instead of choosing one from the grid",
    )
    ap.add_argument(
        "--export",
        type=Path,
        help="with --features core: fit the chosen size on every page and write the model the "
        "core ships (rust/extract/src/readable/model/blocks.txt) and its parity fixture",
    )
    ap.add_argument(
        "--train-on",
        choices=("all", "in-scope"),
        default="all",
        help="in-scope: fit on the blocks the rules keep only, the ones the shipped scorer "
        "judges (it only drops)",
    )
    ap.add_argument("--label-overlap", type=float, default=0.5)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--weight", choices=("tokens", "page", "none"), default="tokens")
    ap.add_argument("--threads", type=int, default=1, help="OpenMP threads per fit")
    args = ap.parse_args()

    t0 = time.perf_counter()
    core = args.features in ("core", "core-context")
    context = args.features == "core-context"
    if args.export and args.features != "core":
        ap.error("--export needs --features core: the core scores its own rows")
    data = load(args.corpus, args.sample, args.label_overlap, args.labels, core, context)
    columns = (
        [*CORE, *CORE_CONTEXT] if context else CORE if core else [*BASE, *EXTRA[args.features]]
    )
    x = np.concatenate(
        [
            d.rows if d.rows is not None else features(d.blocks, args.features)
            for d in data
            if d.blocks
        ]
    )
    y = np.concatenate([d.labels for d in data if d.blocks])
    groups = np.concatenate([np.full(len(d.blocks), i) for i, d in enumerate(data) if d.blocks])
    spans = np.cumsum([0] + [len(d.blocks) for d in data])
    n_wcxb = sum(d.corpus == "wcxb" for d in data)
    print(
        f"labels {args.labels}, features {args.features}: {len(data)} pages ({n_wcxb} WCXB, "
        f"{len(data) - n_wcxb} articles), {len(y)} blocks, "
        f"{y.mean():.3f} positive, {x.shape[1]} features; "
        f"loaded in {time.perf_counter() - t0:.1f} s",
        flush=True,
    )

    # The page metric counts tokens, so a block weighs its tokens: a 200-word paragraph
    # misjudged costs what 200 one-word menu items do ("none": every block alike).
    words = np.concatenate([[float(b["words"]) for b in d.blocks] for d in data if d.blocks])
    # "page": a block weighs its share of its page's tokens, so every page weighs alike, as
    # every page does in the mean page F1.
    weight = np.maximum(words, 1.0) if args.weight != "none" else np.ones(len(y))
    if args.weight == "page":
        # Scaled by the mean page's tokens, so a leaf's summed weight stays where the fit's
        # minimum hessian expects it.
        scale = weight.sum() / max(1, sum(1 for d in data if d.blocks))
        for s_, e_ in pairwise(spans):
            weight[s_:e_] *= scale / (weight[s_:e_].sum() or 1.0)
    x_chars = np.concatenate([[float(b["chars"]) for b in d.blocks] for d in data if d.blocks])
    if args.group == "site":
        # Every page of a host in one fold: a fold's pages are scored by models (and
        # thresholds) that never saw their site, as the rules are checked (quality.py --folds).
        page_site = np.array([q.site_fold(d.page.url, args.folds) for d in data])[groups]
        folds = [
            (np.flatnonzero(page_site != k), np.flatnonzero(page_site == k))
            for k in range(args.folds)
        ]
    else:
        folds = list(GroupKFold(n_splits=args.folds).split(x, y, groups))
    rounds_grid, leaves_grid = ROUNDS, LEAVES
    if args.size:
        r_, l_ = (int(v) for v in args.size.split(","))
        rounds_grid, leaves_grid = (r_,), (l_,)
    # The core's trees split the tag's number as any other (no category sets to evaluate).
    categorical = [c == "tag" and not core for c in columns]

    in_scope = np.array([b["in_scope"] for d in data for b in d.blocks], dtype=bool)
    # The rows a model is fitted on: every block, or those the shipped scorer judges.
    fitted = in_scope if args.train_on == "in-scope" else np.ones(len(y), dtype=bool)

    def out_of_fold(
        leaves: int, x: np.ndarray = x, categorical: list[bool] = categorical
    ) -> dict[int, np.ndarray]:
        """Each round count's out-of-fold probabilities, from one fit per fold."""
        prob = {r: np.zeros(len(y)) for r in rounds_grid}
        for train, test in folds:
            model = HistGradientBoostingClassifier(
                max_iter=max(rounds_grid),
                max_leaf_nodes=leaves,
                learning_rate=0.1,
                early_stopping=False,
                categorical_features=categorical,
                random_state=SEED,
            )
            train = train[fitted[train]]
            model.fit(x[train], y[train], sample_weight=weight[train])
            for rounds, p in enumerate(model.staged_predict_proba(x[test]), start=1):
                if rounds in prob:
                    prob[rounds][test] = p[:, 1]
        return prob

    def page_texts(keep: np.ndarray) -> list[str]:
        return [joined(d.blocks, keep[spans[i] : spans[i + 1]]) for i, d in enumerate(data)]

    best: tuple[float, tuple[int, int], np.ndarray] | None = None
    print("\nsize (max_iter, max_leaf_nodes): out-of-fold mean page F1 (WCXB metric), all pages")
    for leaves in leaves_grid:
        t1 = time.perf_counter()
        # One thread: OpenMP's spinning threads slow the fit several times over on a machine
        # whose cores are busy with other work.
        with threadpool_limits(args.threads):
            probs = out_of_fold(leaves)
        for rounds, prob in probs.items():
            texts = page_texts(prob >= 0.5)
            score = q.mean(page_f1(d, t) for d, t in zip(data, texts, strict=True))
            print(f"  ({rounds}, {leaves}): {score:.4f}", flush=True)
            if best is None or score > best[0]:
                best = (score, (rounds, leaves), prob)
        print(f"  ({time.perf_counter() - t1:.0f} s for {leaves} leaves)", flush=True)
    assert best is not None
    _, size, prob = best
    first_stage = prob
    if args.stack:
        # Stacked: the same size refitted over the features and the first stage's out-of-fold
        # scores of the page's blocks (the block's own, its neighbours', the page's), so a
        # block is judged with how its page was judged.
        stacked = np.concatenate(
            [stack_columns(prob[s_:e_], x_chars[s_:e_]) for s_, e_ in pairwise(spans)]
        )
        with threadpool_limits(args.threads):
            prob = out_of_fold(
                size[1],
                np.hstack([x, stacked]),
                categorical + [False] * stacked.shape[1],
            )[size[0]]
    keep = prob >= 0.5
    # Each page's blocks chosen for its expected F1 rather than by a fixed threshold.
    f1_kept = np.concatenate([f1_decode(prob[s_:e_], words[s_:e_]) for s_, e_ in pairwise(spans)])

    # Rules corrected: the rules' in-scope blocks, minus those the model scores below `low`,
    # plus out-of-scope blocks it scores above `high`. The pair is chosen per fold from the
    # grid by mean page F1 on the other folds' pages (their out-of-fold scores): the pages a
    # fold is scored on never take part in choosing its thresholds.
    page_fold = np.zeros(len(data), dtype=int)
    for k, (_, test) in enumerate(folds):
        page_fold[np.unique(groups[test])] = k
    grid = [(lo, hi) for lo in LOW for hi in HIGH]
    grid_f1 = {}
    for lo, hi in grid:
        kept = np.where(in_scope, prob >= lo, prob > hi)
        texts = page_texts(kept)
        grid_f1[lo, hi] = np.array([page_f1(d, t) for d, t in zip(data, texts, strict=True)])
    corrected = np.zeros(len(y), dtype=bool)
    chosen = []
    for k in range(len(folds)):
        others = page_fold != k
        lo, hi = max(grid, key=lambda g: grid_f1[g][others].mean())
        chosen.append((lo, hi))
        for i in np.flatnonzero(page_fold == k):
            s_, e_ = spans[i], spans[i + 1]
            corrected[s_:e_] = np.where(in_scope[s_:e_], prob[s_:e_] >= lo, prob[s_:e_] > hi)
    labelled = y.astype(bool)
    crf = crf_out_of_fold(data, prob, spans, page_fold) if args.crf else None
    model_texts = page_texts(keep)
    gated = gate_out_of_fold(data, prob, spans, page_fold, model_texts) if args.gate else None

    shipped = shipped_out_of_fold(data, prob, spans, page_fold) if core else None
    # The ceiling of a scorer that only drops: the labels' own verdicts on the in-scope
    # blocks, through the core's path (a label of 0 falls below any threshold).
    drop_ceiling = [core_text(d.page, d.labels.astype(float), 0.5) for d in data] if core else None

    results = {
        "rules": summarize(data, [d.rules_text for d in data]),
        **({"shipped": summarize(data, shipped[0])} if shipped is not None else {}),
        **({"labels, drop": summarize(data, drop_ceiling)} if drop_ceiling is not None else {}),
        "rules-blocks": summarize(data, page_texts(in_scope)),
        "labels": summarize(data, page_texts(labelled)),
        **({"stage 1": summarize(data, page_texts(first_stage >= 0.5))} if args.stack else {}),
        "model": summarize(data, model_texts),
        "F1-decoded": summarize(data, page_texts(f1_kept)),
        "corrected": summarize(data, page_texts(corrected)),
        **({"CRF": summarize(data, page_texts(crf >= 0.5))} if crf is not None else {}),
        **({"gated": summarize(data, gated)} if gated is not None else {}),
    }
    counts: Counter[str] = Counter()
    for d in data:
        counts["wcxb overall" if d.corpus == "wcxb" else "articles"] += 1
        if d.corpus == "wcxb":
            counts[d.page.page_type] += 1

    print(f"\nchosen size: max_iter={size[0]}, max_leaf_nodes={size[1]}")
    print(
        f"block accuracy: rules (in_scope) {np.mean(in_scope == y):.3f}, "
        f"model (out of fold) {np.mean(keep == y):.3f}, corrected {np.mean(corrected == y):.3f}; "
        f"weighted by words: rules {np.average(in_scope == y, weights=words + 1):.3f}, "
        f"model {np.average(keep == y, weights=words + 1):.3f}, "
        f"corrected {np.average(corrected == y, weights=words + 1):.3f}"
    )
    print("rules-corrected thresholds (low, high) per fold: " + ", ".join(map(str, chosen)))
    print("\nout-of-fold page F1 (WCXB: token-bag F1 mean; articles: shingle F1 of means)")
    names = list(results)
    print(f"{'':<16}{'pages':>6}" + "".join(f"{n:>14}" for n in names))
    keys = [k for k in results["rules"] if k not in ("wcxb overall", "articles")]
    for k in [*keys, "wcxb overall", "articles"]:
        if k not in results["rules"]:
            continue
        print(f"{k:<16}{counts[k]:>6}" + "".join(f"{results[n][k]:>14.4f}" for n in names))
    if shipped is not None:
        print(
            "shipped thresholds per fold: "
            + ", ".join(map(str, shipped[1]))
            + f"; over every page: {shipped[2]}"
        )
        for low in SHIP_LOW:
            at = summarize(data, shipped[3][low])
            print(
                f"  shipped at {low} in every fold: WCXB {at['wcxb overall']:.4f}, "
                f"articles {at.get('articles', float('nan')):.4f}"
            )
    if args.export and shipped is not None:
        with threadpool_limits(args.threads):
            export(args.export, x[fitted], y[fitted], weight[fitted], size, shipped[2])
        print(f"wrote {args.export / 'blocks.txt'} and {args.export / 'parity.txt'}")
    print(f"\ntotal {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
