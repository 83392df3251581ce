#!/usr/bin/env python3
"""Readable-mode quality and speed on the shared corpora, next to trafilatura.

Scores ``extract_document(html, modes=["text"], main_content=True)["text"]`` (and the Markdown
view with link targets stripped) with each corpus's own metric, as its README describes:

- WCXB dev set: lowercase bag of ``\\w+`` tokens, per-page precision/recall/F1 (empty output
  scores 0), mean over pages, overall and per ``_internal.page_type.primary``; the share of
  ``with[]`` snippets found and of ``without[]`` snippets leaked; empty outputs.
- article-bench: case-sensitive ``\\w+`` tokens as multisets of 4-token shingles; precision
  averaged over pages with non-empty output, recall over all pages, F1 of the two averages.

Usage (from the repository root)::

    python benches/quality.py                 # both corpora, everything
    python benches/quality.py --sample 50     # deterministic subset (CI smoke test)
    python benches/quality.py --split odd     # held-out half (tuning used the even half)
    python benches/quality.py --whole-page --oracle   # per-page best-of-tools ceiling per type
    python benches/quality.py --only articles --repeat 5   # speed: fastest of 5 interleaved passes
    python benches/quality.py --only wcxb --type documentation --folds 5   # one type, site folds

Scores are reported, never asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import hashlib
import json
import random
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus"

WORD = re.compile(r"\w+")
# Markdown link targets are not content: keep the text, drop the URL; drop images outright.
MD_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
MD_AUTOLINK = re.compile(r"<(?:https?|mailto|ftp):[^>\s]*>")
MD_REFDEF = re.compile(r"^\s*\[[^\]]+\]:\s*\S+.*$", re.MULTILINE)
SPACE = re.compile(r"\s+")


def strip_markdown_links(md: str) -> str:
    md = MD_IMAGE.sub("", md)
    # Nested brackets ("[![img](src)](href)") resolve after the image is gone.
    md = MD_LINK.sub(r"\1", md)
    md = MD_AUTOLINK.sub("", md)
    return MD_REFDEF.sub("", md)


# --------------------------------------------------------------------------- metrics


def prf(overlap: int, n_pred: int, n_ref: int) -> tuple[float, float, float]:
    if n_pred == 0 or n_ref == 0:
        return 0.0, 0.0, 0.0
    p = overlap / n_pred
    r = overlap / n_ref
    f = 0.0 if p + r == 0 else 2 * p * r / (p + r)
    return p, r, f


def wcxb_page(pred: str, ref: str) -> tuple[float, float, float]:
    """WCXB: lowercase bag of ``\\w+`` tokens."""
    pt = Counter(WORD.findall(pred.lower()))
    rt = Counter(WORD.findall(ref.lower()))
    overlap = sum((pt & rt).values())
    return prf(overlap, sum(pt.values()), sum(rt.values()))


def norm_snippet(s: str) -> str:
    return SPACE.sub(" ", s).strip().lower()


def shingles(text: str, k: int = 4) -> Counter:
    toks = WORD.findall(text)
    if len(toks) < k:
        return Counter([tuple(toks)]) if toks else Counter()
    return Counter(tuple(toks[i : i + k]) for i in range(len(toks) - k + 1))


@dataclass
class Scores:
    """Per-page results of one extractor on one corpus."""

    name: str
    pages: list[dict] = field(default_factory=list)
    seconds: float = 0.0
    nbytes: int = 0

    @property
    def mbps(self) -> float:
        return self.nbytes / 1e6 / self.seconds if self.seconds else 0.0


def mean(xs: Iterable[float]) -> float:
    xs = list(xs)
    return sum(xs) / len(xs) if xs else 0.0


# --------------------------------------------------------------------------- corpora


@dataclass
class Page:
    id: str
    html: str
    url: str | None
    ref: str
    page_type: str = "article"
    with_: list[str] = field(default_factory=list)
    without: list[str] = field(default_factory=list)


def pick(ids: list[str], sample: int | None, split: str) -> list[str]:
    ids = sorted(ids)
    if split != "all":
        want = 0 if split == "even" else 1
        ids = [x for i, x in enumerate(ids) if i % 2 == want]
    if sample and sample < len(ids):
        ids = sorted(random.Random(4).sample(ids, sample))
    return ids


def wcxb_type(gt: dict) -> str:
    return gt.get("_internal", {}).get("page_type", {}).get("primary", "?")


def load_wcxb(
    root: Path, sample: int | None, split: str, page_type: str | None = None
) -> list[Page]:
    """The WCXB pages, all or those of one ``page_type`` (chosen before sampling)."""
    gt_dir = root / "ground-truth"
    all_ids = [p.stem for p in gt_dir.glob("*.json")]
    if page_type:
        all_ids = [
            pid
            for pid in all_ids
            if wcxb_type(json.loads((gt_dir / f"{pid}.json").read_text(encoding="utf-8")))
            == page_type
        ]
    ids = pick(all_ids, sample, split)
    pages = []
    for pid in ids:
        gt = json.loads((gt_dir / f"{pid}.json").read_text(encoding="utf-8"))
        html = gzip.decompress((root / "html" / f"{pid}.html.gz").read_bytes())
        g = gt["ground_truth"]
        pages.append(
            Page(
                id=pid,
                html=html.decode("utf-8", errors="replace"),
                url=gt.get("url"),
                ref=g.get("main_content") or "",
                page_type=wcxb_type(gt),
                with_=list(g.get("with") or []),
                without=list(g.get("without") or []),
            )
        )
    return pages


def load_articles(root: Path, sample: int | None, split: str) -> list[Page]:
    gt = json.loads((root / "ground-truth.json").read_text(encoding="utf-8"))
    ids = pick([k for k in gt if (root / "html" / f"{k}.html.gz").exists()], sample, split)
    pages = []
    for pid in ids:
        html = gzip.decompress((root / "html" / f"{pid}.html.gz").read_bytes())
        pages.append(
            Page(
                id=pid,
                html=html.decode("utf-8", errors="replace"),
                url=gt[pid].get("url"),
                ref=gt[pid].get("articleBody") or "",
            )
        )
    return pages


# --------------------------------------------------------------------------- extractors

Extractor = Callable[[Page], str]


def ours_text(main_content: bool = True, readable_model: bool = True) -> Extractor:
    """Readable text as shipped (the rules, then the learned block scorer); with
    ``readable_model=False`` the rules alone; with ``main_content=False`` the page's whole
    visible text, the floor a selector must beat."""
    from webgrip import _core

    def run(page: Page) -> str:
        out = _core.extract_document(
            page.html,
            url=page.url,
            modes=["text"],
            main_content=main_content,
            readable_model=readable_model,
        )
        return out["text"] or ""

    return run


def ours_markdown() -> Extractor:
    from webgrip import _core

    def run(page: Page) -> str:
        out = _core.extract_document(page.html, url=page.url, modes=["markdown"], main_content=True)
        return strip_markdown_links(out["markdown"] or "")

    return run


def trafilatura_text() -> Extractor:
    import trafilatura

    def run(page: Page) -> str:
        return (
            trafilatura.extract(
                page.html, url=page.url, include_comments=False, include_tables=True
            )
            or ""
        )

    return run


def predictions_file(path: Path) -> Extractor:
    """Development aid: pre-computed outputs, one JSON line ``{"id": ..., "text": ...}``."""
    table = {}
    for line in path.read_text(encoding="utf-8").split("\n"):
        if not line.strip():
            continue
        rec = json.loads(line)
        table[Path(rec["file"]).name.split(".")[0]] = rec["text"]

    def run(page: Page) -> str:
        return table.get(page.id, "")

    return run


PEERS_DIR = REPO / "benches" / "peers"
RUST_PEERS = ("dom_smoothie", "rs_trafilatura")


def rust_peers(pages: list[Page], html_dir: Path, score) -> list[Scores]:
    """The Rust-only peers (``benches/peers``: dom_smoothie, rs-trafilatura) on ``pages``.

    They have no wheels on PyPI, so a small release binary runs them; it reports each
    extraction's own time, measured around the call as ``run_extractor`` measures ours.
    """
    import subprocess

    manifest = str(PEERS_DIR / "Cargo.toml")
    build = ["cargo", "build", "--release", "--quiet", "--manifest-path", manifest]
    subprocess.run(build, check=True)
    binary = PEERS_DIR / "target" / "release" / "webgrip-peers"
    feed = "".join(
        json.dumps({"id": pg.id, "path": str(html_dir / f"{pg.id}.html.gz"), "url": pg.url or ""})
        + "\n"
        for pg in pages
    )
    proc = subprocess.run([binary], input=feed, capture_output=True, text=True, check=True)
    # One record per "\n": str.splitlines would also split at U+2028 and friends, which
    # JSON leaves unescaped inside strings.
    lines = [ln for ln in proc.stdout.split("\n") if ln.strip()]
    outputs = {rec["id"]: rec for rec in map(json.loads, lines)}
    results = []
    for name in RUST_PEERS:
        s = Scores(name.replace("_", "-"))
        for page in pages:
            rec = outputs.get(page.id, {})
            s.seconds += rec.get(f"t_{name}", 0.0)
            s.nbytes += len(page.html.encode("utf-8"))
            s.pages.append(score(page, rec.get(name, "")))
        results.append(s)
    return results


def run_extractor(name: str, fn: Extractor, pages: list[Page], score) -> Scores:
    s = Scores(name)
    for page in pages:
        t0 = time.perf_counter()
        try:
            pred = fn(page)
        except Exception as exc:  # an extractor crash scores as empty output
            print(f"  {name}: {page.id}: {type(exc).__name__}: {exc}", file=sys.stderr)
            pred = ""
        s.seconds += time.perf_counter() - t0
        s.nbytes += len(page.html.encode("utf-8"))
        s.pages.append(score(page, pred))
    return s


def retime(
    extractors: list[tuple[str, Extractor]], results: list[Scores], pages: list[Page], rounds: int
) -> None:
    """Time ``rounds`` more passes of every extractor, interleaved (this machine's speed
    drifts over tens of seconds), and keep each one's fastest pass."""
    for _ in range(rounds):
        for (_, fn), s in zip(extractors, results, strict=True):
            t0 = time.perf_counter()
            for page in pages:
                with contextlib.suppress(Exception):  # the scoring pass reported it
                    fn(page)
            s.seconds = min(s.seconds, time.perf_counter() - t0)


def score_wcxb(page: Page, pred: str) -> dict:
    p, r, f = wcxb_page(pred, page.ref)
    low = norm_snippet(pred)
    return {
        "id": page.id,
        "type": page.page_type,
        "p": p,
        "r": r,
        "f": f,
        "empty": not WORD.search(pred),
        "with_found": sum(norm_snippet(x) in low for x in page.with_),
        "with_total": len(page.with_),
        "without_leaked": sum(norm_snippet(x) in low for x in page.without),
        "without_total": len(page.without),
    }


def score_article(page: Page, pred: str) -> dict:
    ps, rs = shingles(pred), shingles(page.ref)
    overlap = sum((ps & rs).values())
    n_pred, n_ref = sum(ps.values()), sum(rs.values())
    return {
        "id": page.id,
        "p": overlap / n_pred if n_pred else None,  # None: empty output, left out of P
        "r": overlap / n_ref if n_ref else 0.0,
        "empty": n_pred == 0,
    }


# --------------------------------------------------------------------------- reports


def wcxb_summary(s: Scores) -> dict:
    by_type: dict[str, list[dict]] = defaultdict(list)
    for pg in s.pages:
        by_type[pg["type"]].append(pg)

    def agg(rows: list[dict]) -> dict:
        wt = sum(r["with_total"] for r in rows)
        wo = sum(r["without_total"] for r in rows)
        return {
            "n": len(rows),
            "f": mean(r["f"] for r in rows),
            "p": mean(r["p"] for r in rows),
            "r": mean(r["r"] for r in rows),
            "with": sum(r["with_found"] for r in rows) / wt if wt else float("nan"),
            "leak": sum(r["without_leaked"] for r in rows) / wo if wo else float("nan"),
            "empty": sum(r["empty"] for r in rows),
        }

    out = {"overall": agg(s.pages)}
    for t in sorted(by_type):
        out[t] = agg(by_type[t])
    return out


def article_summary(s: Scores) -> dict:
    ps = [pg["p"] for pg in s.pages if pg["p"] is not None]
    p = mean(ps)
    r = mean(pg["r"] for pg in s.pages)
    f = 0.0 if p + r == 0 else 2 * p * r / (p + r)
    return {"n": len(s.pages), "f": f, "p": p, "r": r, "empty": sum(pg["empty"] for pg in s.pages)}


def print_wcxb(results: list[Scores]) -> None:
    sums = [wcxb_summary(s) for s in results]
    keys = list(sums[0])
    head = f"{'page type':<14}{'n':>5}  " + "  ".join(
        f"{s.name + ' F1/P/R':<22}{'with':>6}{'leak':>6}{'empty':>6}" for s in results
    )
    print(head)
    print("-" * len(head))
    for k in keys:
        cells = []
        for sm in sums:
            a = sm.get(k)
            if a is None:
                cells.append(" " * 40)
                continue
            cells.append(
                f"{a['f']:.3f}/{a['p']:.3f}/{a['r']:.3f}    "
                f"{a['with']:>6.3f}{a['leak']:>6.3f}{a['empty']:>6d}"
            )
        print(f"{k:<14}{sums[0][k]['n']:>5}  " + "  ".join(cells))


def site_fold(url: str | None, folds: int) -> int:
    """The fold of a page's site (its host without ``www.``), stable across runs, so that
    every page of one site falls in one fold and rules tuned on the other folds never saw it."""
    from urllib.parse import urlsplit

    host = (urlsplit(url or "").hostname or "").removeprefix("www.")
    return int.from_bytes(hashlib.sha256(host.encode()).digest()[:4], "big") % folds


def print_folds(results: list[Scores], pages: list[Page], folds: int) -> None:
    """Mean F1 per site fold (for out-of-fold reporting: score fold k with rules tuned on
    the others)."""
    fold_of = {pg.id: site_fold(pg.url, folds) for pg in pages}
    print(f"per site fold ({folds} folds by host): n, then mean F1 of each extractor")
    print(f"{'fold':<6}{'n':>5}  " + "".join(f"{s.name:>14}" for s in results))
    for k in range(folds):
        rows = [[pg["f"] for pg in s.pages if fold_of[pg["id"]] == k] for s in results]
        print(f"{k:<6}{len(rows[0]):>5}  " + "".join(f"{mean(r):>14.3f}" for r in rows))


def print_article_folds(results: list[Scores], pages: list[Page], folds: int) -> None:
    """The article benchmark's F1 (precision and recall averaged first) per site fold."""
    fold_of = {pg.id: site_fold(pg.url, folds) for pg in pages}
    print(f"per site fold ({folds} folds by host): n, then 4-shingle F1 of each extractor")
    print(f"{'fold':<6}{'n':>5}  " + "".join(f"{s.name:>14}" for s in results))
    for k in range(folds):
        parts = [Scores(s.name, [pg for pg in s.pages if fold_of[pg["id"]] == k]) for s in results]
        n = len(parts[0].pages)
        print(f"{k:<6}{n:>5}  " + "".join(f"{article_summary(p)['f']:>14.3f}" for p in parts))


def print_oracle(results: list[Scores]) -> None:
    """Per page type, the mean of each page's best F1 among the extractors run: what choosing
    between them page by page with the answer in hand would score. It bounds what any rule
    that picks among these outputs can reach; "others" leaves our readable text out."""
    by_id = [{pg["id"]: pg for pg in s.pages} for s in results]
    others = [i for i, s in enumerate(results) if not s.name.startswith("ours")]
    rows: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for pid, pg in by_id[0].items():
        best = max(b[pid]["f"] for b in by_id)
        best_other = max((by_id[i][pid]["f"] for i in others), default=0.0)
        for key in ("overall", pg["type"]):
            rows[key].append((best, best_other))
    names = ", ".join(s.name for s in results)
    print(f"per-page oracle over {names} (best F1 of each page, mean)")
    print(f"{'page type':<14}{'n':>5}  {'all':>7}{'others':>8}")
    for key in ["overall", *sorted(k for k in rows if k != "overall")]:
        r = rows[key]
        print(f"{key:<14}{len(r):>5}  {mean(a for a, _ in r):>7.3f}{mean(b for _, b in r):>8.3f}")


def print_speed(results: list[Scores]) -> None:
    base = next((s for s in results if s.name == "trafilatura"), None)
    for s in results:
        ratio = f"  ({s.mbps / base.mbps:.1f}x trafilatura)" if base and base.mbps else ""
        print(f"  {s.name:<14}{s.mbps:8.2f} MB/s  {s.seconds:7.2f} s{ratio}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--sample", type=int, default=None, help="deterministic subset per corpus")
    ap.add_argument("--split", choices=["all", "even", "odd"], default="all")
    ap.add_argument("--no-trafilatura", action="store_true")
    ap.add_argument("--no-markdown", action="store_true")
    ap.add_argument(
        "--rust-peers",
        action="store_true",
        help="also run dom_smoothie and rs-trafilatura (builds benches/peers with cargo)",
    )
    ap.add_argument(
        "--whole-page", action="store_true", help="also score the whole page's text (no selection)"
    )
    ap.add_argument(
        "--oracle",
        action="store_true",
        help="print the per-page best-of-extractors ceiling per WCXB page type",
    )
    ap.add_argument(
        "--repeat",
        type=int,
        default=1,
        metavar="N",
        help="time N passes of each Python-side extractor, interleaved, and keep the fastest",
    )
    ap.add_argument("--only", choices=["wcxb", "articles"], default=None)
    ap.add_argument(
        "--type",
        dest="page_type",
        metavar="TYPE",
        help="WCXB: only pages of this page type (documentation, article, forum, ...)",
    )
    ap.add_argument(
        "--folds",
        type=int,
        default=0,
        metavar="K",
        help="also report F1 per fold, pages folded by site (host) into K folds",
    )
    ap.add_argument("--pred", type=Path, help=argparse.SUPPRESS)  # dev: JSONL predictions
    ap.add_argument("--dump", type=Path, help="write per-page scores (JSON) here")
    args = ap.parse_args(argv)

    extractors: list[tuple[str, Extractor]] = []
    if args.pred:
        extractors.append(("pred", predictions_file(args.pred)))
    else:
        extractors.append(("ours", ours_text()))
        if not args.no_markdown:
            extractors.append(("ours-md", ours_markdown()))
        if args.whole_page:
            extractors.append(("whole-page", ours_text(main_content=False)))
    if not args.no_trafilatura:
        try:
            extractors.append(("trafilatura", trafilatura_text()))
        except ImportError as exc:
            print(f"trafilatura unavailable ({exc}); skipped", file=sys.stderr)

    dump: dict = {}
    if args.only in (None, "wcxb"):
        pages = load_wcxb(args.corpus / "wcxb-dev", args.sample, args.split, args.page_type)
        results = [run_extractor(n, fn, pages, score_wcxb) for n, fn in extractors]
        retime(extractors, results, pages, args.repeat - 1)
        if args.rust_peers:
            results += rust_peers(pages, args.corpus / "wcxb-dev" / "html", score_wcxb)
        print(
            f"\nWCXB dev ({len(pages)} pages, split={args.split}): F1/P/R, with[] found, "
            "without[] leaked, empty outputs"
        )
        print_wcxb(results)
        print("throughput (HTML bytes / extraction time):")
        print_speed(results)
        if args.oracle:
            print_oracle(results)
        if args.folds:
            print_folds(results, pages, args.folds)
        dump["wcxb"] = {s.name: s.pages for s in results}
    if args.only in (None, "articles"):
        pages = load_articles(args.corpus / "article-bench-dev", args.sample, args.split)
        results = [run_extractor(n, fn, pages, score_article) for n, fn in extractors]
        retime(extractors, results, pages, args.repeat - 1)
        if args.rust_peers:
            results += rust_peers(pages, args.corpus / "article-bench-dev" / "html", score_article)
        print(f"\narticle-bench ({len(pages)} pages, split={args.split}): 4-shingle F1/P/R")
        for s in results:
            a = article_summary(s)
            print(
                f"  {s.name:<16}F1 {a['f']:.3f}  P {a['p']:.3f}  R {a['r']:.3f}  empty {a['empty']}"
            )
        print("throughput:")
        print_speed(results)
        if args.folds:
            print_article_folds(results, pages, args.folds)
        dump["articles"] = {s.name: s.pages for s in results}
    if args.dump:
        args.dump.write_text(json.dumps(dump, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
