#!/usr/bin/env python3
"""PDF text quality, speed and robustness: webgrip next to pymupdf, pypdfium2, pdftotext, pypdf and
pdfminer.six.

``webgrip`` is the text view; ``webgrip-md`` the Markdown view with its markup stripped (page
marks, leading ``#``s, ``- `` list markers, table pipes and rules, start-of-line escapes), so
both are scored on the same words.

Two corpora from ``../shared/corpus/`` (see their READMEs):

- ``pdf-dev/``: 88 PDFs whose text is known. Metric: the article benchmark's case-sensitive
  4-token shingle multisets (``shingles`` from ``quality.py``); precision averaged over
  documents with output, recall over all, F1 the harmonic mean of the two; plus ms per
  document (extraction only, one process; pdftotext is a process per file by nature).
- ``pdf-samples/``: real PDFs that break extractors. Each (tool, file) runs in its own process
  with a time limit: crashes (exit by signal or unexpected exception), hangs (time limit hit),
  peak RSS of that process, and agreement with ``pdftotext``: per-file F1 of the 4-token
  shingles (as above), averaged over the files where pdftotext finds at least 20 words (the
  corpus README's definition).

Usage (from the repository root; needs ``pip install -e .[bench]`` and ``pdftotext``)::

    python benches/pdf_quality.py                        # both corpora, every tool available
    python benches/pdf_quality.py --only dev --repeat 3  # speed: fastest of 3 passes
    python benches/pdf_quality.py --tools webgrip,pymupdf --sample 30
    python benches/pdf_quality.py --only dev --tools webgrip,webgrip-md

Scores are reported, never asserted. A tool that is not installed is skipped with a note.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from quality import shingles

REPO = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus"
TOOLS = ("webgrip", "webgrip-md", "pymupdf", "pypdfium2", "pdftotext", "pypdf", "pdfminer")
WORD = re.compile(r"\w+")
PAGE_MARK = re.compile(r"^<!-- page \d+ of \d+ -->$")
TABLE_RULE = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?$")


# --------------------------------------------------------------------------- extractors


def _webgrip() -> Callable[[bytes, Path], str]:
    import webgrip

    def run(data: bytes, path: Path) -> str:
        return webgrip.extract_pdf(data, mode="text")

    return run


def strip_markdown(md: str) -> str:
    """The text of webgrip's Markdown view: page marks, table rules, leading ``#``s, list
    markers, table pipes and start-of-line escapes removed, so it scores like plain text."""
    out = []
    for line in md.splitlines():
        t = line.strip()
        if PAGE_MARK.match(t) or (t.startswith("|") and TABLE_RULE.match(t)):
            continue
        t = re.sub(r"^#{1,6} ", "", t)
        t = re.sub(r"^- ", "", t)
        t = re.sub(r"^\\(?=[#>|+<`~=*_0-9-])", "", t)
        if t.startswith("|"):
            t = " ".join(cell.strip() for cell in t.strip("|").split("|"))
        out.append(t)
    return "\n".join(out)


def _webgrip_md() -> Callable[[bytes, Path], str]:
    import webgrip

    def run(data: bytes, path: Path) -> str:
        return strip_markdown(webgrip.extract_pdf(data, mode="markdown"))

    return run


def _pymupdf() -> Callable[[bytes, Path], str]:
    import pymupdf

    def run(data: bytes, path: Path) -> str:
        with pymupdf.open(stream=data, filetype="pdf") as doc:
            return "\n".join(page.get_text() for page in doc)

    return run


def _pypdfium2() -> Callable[[bytes, Path], str]:
    """PDFium (Chrome's reader, permissive licence) through pypdfium2: each page's text page
    read whole, as py-pdf/benchmarks reads it."""
    import pypdfium2

    def run(data: bytes, path: Path) -> str:
        doc = pypdfium2.PdfDocument(data)
        try:
            texts = []
            for page in doc:
                textpage = page.get_textpage()
                texts.append(textpage.get_text_range())
                textpage.close()
                page.close()
            return "\n".join(texts)
        finally:
            doc.close()

    return run


def _pdftotext() -> Callable[[bytes, Path], str]:
    if shutil.which("pdftotext") is None:
        raise ImportError("pdftotext not on PATH (Debian: apt-get install poppler-utils)")

    def run(data: bytes, path: Path) -> str:
        out = subprocess.run(
            ["pdftotext", "-enc", "UTF-8", str(path), "-"],
            capture_output=True,
            timeout=60,
            check=False,
        )
        return out.stdout.decode("utf-8", "replace")

    return run


def _pypdf() -> Callable[[bytes, Path], str]:
    import io

    import pypdf

    def run(data: bytes, path: Path) -> str:
        reader = pypdf.PdfReader(io.BytesIO(data))
        return "\n".join(page.extract_text() or "" for page in reader.pages)

    return run


def _pdfminer() -> Callable[[bytes, Path], str]:
    import io

    from pdfminer.high_level import extract_text

    def run(data: bytes, path: Path) -> str:
        return extract_text(io.BytesIO(data))

    return run


LOADERS: dict[str, Callable[[], Callable[[bytes, Path], str]]] = {
    "webgrip": _webgrip,
    "webgrip-md": _webgrip_md,
    "pymupdf": _pymupdf,
    "pypdfium2": _pypdfium2,
    "pdftotext": _pdftotext,
    "pypdf": _pypdf,
    "pdfminer": _pdfminer,
}


def load_tools(names: list[str]) -> dict[str, Callable[[bytes, Path], str]]:
    tools = {}
    for name in names:
        try:
            tools[name] = LOADERS[name]()
        except ImportError as exc:
            print(f"  (skipping {name}: {exc})", file=sys.stderr)
    return tools


# --------------------------------------------------------------------------- pdf-dev


def cpu_seconds() -> float:
    """CPU time so far of this process (every thread), of its finished children (pdftotext
    runs as one) and of webgrip's live PDF reader processes (it reads in those)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)  # microseconds, unlike os.times
    return time.process_time() + children.ru_utime + children.ru_stime + _readers_cpu()


def _readers_cpu() -> float:
    """CPU seconds of webgrip's live PDF reader processes (Linux ``/proc``; 0 elsewhere)."""
    pool = sys.modules.get("webgrip._pdfpool")
    total = 0.0
    for pid in pool.worker_pids() if pool else ():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # ended meanwhile: its time is in RUSAGE_CHILDREN once reaped
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def bench_dev(corpus: Path, names: list[str], sample: int | None, repeat: int) -> None:
    truth = json.loads((corpus / "ground-truth.json").read_text(encoding="utf-8"))
    ids = sorted(truth)[:sample] if sample else sorted(truth)
    docs = [(i, corpus / "pdf" / f"{i}.pdf") for i in ids]
    docs = [(i, p, p.read_bytes()) for i, p in docs if p.exists()]
    tools = load_tools(names)
    print(
        f"\npdf-dev ({len(docs)} PDFs): 4-shingle F1 / P / R, wall and CPU ms per document "
        f"(wall: fastest of {repeat} per file; CPU: fastest of {repeat} whole passes, this "
        "process's threads and its children's)"
    )
    print(
        f"  {'tool':<10} {'F1':>6} {'P':>6} {'R':>6} {'ms/doc':>8} {'cpu ms':>8} {'empty':>5}"
        "  worst"
    )
    for name, run in tools.items():
        # CPU is taken around whole passes: a reader process's CPU is read from /proc in clock
        # ticks (10 ms), coarser than one document, so per-file minima would round to zero.
        best = [float("inf")] * len(docs)
        texts = [""] * len(docs)
        passes = []
        for _ in range(repeat):
            c0 = cpu_seconds()
            for k, (doc_id, path, data) in enumerate(docs):
                t0 = time.perf_counter()
                try:
                    texts[k] = run(data, path)
                except Exception as exc:  # scored as empty output
                    texts[k] = ""
                    print(f"    {name} {doc_id}: {type(exc).__name__}: {exc}", file=sys.stderr)
                best[k] = min(best[k], time.perf_counter() - t0)
            passes.append(cpu_seconds() - c0)
        seconds, cpu = sum(best), min(passes)
        precisions, recalls, empty, worst = [], [], 0, []
        for (doc_id, _, _), text in zip(docs, texts, strict=True):
            ps, rs = shingles(text), shingles(truth[doc_id]["text"])
            overlap = sum((ps & rs).values())
            n_pred, n_ref = sum(ps.values()), sum(rs.values())
            if n_pred:
                precisions.append(overlap / n_pred)
            else:
                empty += 1
            recall = overlap / n_ref if n_ref else 0.0
            recalls.append(recall)
            worst.append((recall, doc_id, truth[doc_id].get("layout")))
        p = sum(precisions) / len(precisions) if precisions else 0.0
        r = sum(recalls) / len(recalls) if recalls else 0.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        worst.sort()
        low = ", ".join(f"{d}({lay}) r={x:.2f}" for x, d, lay in worst[:2])
        print(
            f"  {name:<10} {f:6.3f} {p:6.3f} {r:6.3f} {1000 * seconds / len(docs):8.1f} "
            f"{1000 * cpu / len(docs):8.1f} {empty:5d}  {low}"
        )


# --------------------------------------------------------------------------- pdf-samples


def one_file(tool: str, path: str) -> None:
    """Child process: extract one file, print JSON with the words and this process's peak RSS."""
    run = LOADERS[tool]()
    data = Path(path).read_bytes()
    error = None
    text = ""
    try:
        text = run(data, Path(path))
    except Exception as exc:  # a clean refusal (encrypted, broken) is not a crash
        error = f"{type(exc).__name__}: {str(exc)[:120]}"
    pool = sys.modules.get("webgrip._pdfpool")
    if pool is not None:  # webgrip read it in a reader process: reaped, its peak is a child's
        pool.stop_workers()
    whose = (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    rss_kb = max(resource.getrusage(who).ru_maxrss for who in whose)
    print(json.dumps({"text": text, "error": error, "rss_kb": rss_kb}))


def shingle_f1(pred: str, ref: str) -> float:
    ps, rs = shingles(pred), shingles(ref)
    overlap = sum((ps & rs).values())
    if not overlap:
        return 0.0
    p, r = overlap / sum(ps.values()), overlap / sum(rs.values())
    return 2 * p * r / (p + r)


def bench_samples(corpus: Path, names: list[str], time_limit: float) -> None:
    files = sorted(corpus.rglob("*.pdf"))
    print(
        f"\npdf-samples ({len(files)} PDFs): each file in its own process, {time_limit:.0f} s limit"
    )
    results: dict[str, dict[Path, dict]] = {}
    for name in names:
        if name != "pdftotext":
            try:
                LOADERS[name]()
            except ImportError as exc:
                print(f"  (skipping {name}: {exc})", file=sys.stderr)
                continue
        results[name] = {}
        for f in files:
            t0 = time.perf_counter()
            try:
                proc = subprocess.run(
                    [sys.executable, __file__, "--one", name, str(f)],
                    capture_output=True,
                    timeout=time_limit,
                    check=False,
                )
            except subprocess.TimeoutExpired:
                results[name][f] = {"status": "hang", "text": "", "rss_kb": 0}
                continue
            secs = time.perf_counter() - t0
            if proc.returncode != 0:
                err = proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
                results[name][f] = {
                    "status": "crash",
                    "text": "",
                    "rss_kb": 0,
                    "why": f"exit {proc.returncode} {err}",
                }
                continue
            out = json.loads(proc.stdout)
            status = "error" if out["error"] else "ok"
            results[name][f] = {
                "status": status,
                "text": out["text"],
                "rss_kb": out["rss_kb"],
                "why": out["error"],
                "secs": secs,
            }
    ref = results.get("pdftotext", {})
    print(
        f"  {'tool':<10} {'ok':>3} {'err':>3} {'crash':>5} {'hang':>4} {'peakRSS':>8} {'agree':>6}"
    )
    for name, rows in results.items():
        counts = Counter(r["status"] for r in rows.values())
        peak = max((r["rss_kb"] for r in rows.values()), default=0)
        agree = [
            shingle_f1(rows[f]["text"], ref[f]["text"])
            for f in files
            if f in ref and len(WORD.findall(ref[f]["text"])) >= 20
        ]
        mean = sum(agree) / len(agree) if agree else float("nan")
        print(
            f"  {name:<10} {counts['ok']:3d} {counts['error']:3d} {counts['crash']:5d} "
            f"{counts['hang']:4d} {peak / 1024:6.0f}MB {mean:6.3f}"
        )
        for f, r in rows.items():
            if r["status"] in ("crash", "hang"):
                print(f"      {r['status']}: {f.relative_to(corpus)} {r.get('why') or ''}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--only", choices=("dev", "samples"))
    ap.add_argument("--tools", default=",".join(TOOLS))
    ap.add_argument("--sample", type=int, help="first N pdf-dev documents (by id)")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--time-limit", type=float, default=30.0)
    ap.add_argument("--one", nargs=2, metavar=("TOOL", "FILE"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        one_file(*args.one)
        return
    names = [t.strip() for t in args.tools.split(",") if t.strip()]
    for n in names:
        if n not in LOADERS:
            ap.error(f"unknown tool {n!r}; expected some of {', '.join(TOOLS)}")
    # Each sample is read in a child of this interpreter: it must import the webgrip this
    # process would (an installed wheel, an editable install, or the source tree's own build),
    # never the source tree's modules without their compiled `_core` beside an installed one.
    spec = importlib.util.find_spec("webgrip")
    if spec is not None and spec.origin is not None:
        os.environ.setdefault("PYTHONPATH", str(Path(spec.origin).parent.parent))
    if args.only in (None, "dev"):
        bench_dev(args.corpus / "pdf-dev", names, args.sample, args.repeat)
    if args.only in (None, "samples"):
        bench_samples(args.corpus / "pdf-samples", names, args.time_limit)


if __name__ == "__main__":
    main()
