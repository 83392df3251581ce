"""Throughput of webgrip's HTML extraction against common Python tools, one core.

    python benches/extract_speed.py [--corpus ../shared/corpus] [--limit 200] [--repeat 3]
                                    [--fast-repeat 9] [--skip-slow]

Datasets: (a) real pages from ``<corpus>/*/html/*.html.gz`` (decompressed in memory),
(b) one ~5 MB page concatenating 40+ corpus pages as they are, (c) the same size built from
corpus *bodies only*: each page's ``<head>``, ``<script>``, ``<style>`` and ``<noscript>``
elements removed and the bodies joined inside one ``<html><body>``, so a tool that skips script
text gains nothing from it, (d) a generated 10,000 x 8 table page.
Prints MB/s of input HTML per tool and mode, with the ratio to the spec's baseline
(BeautifulSoup html.parser + markdownify for Markdown, BeautifulSoup ``get_text`` for text).
Every tool runs on the same inputs in the same process, in interleaved rounds; best of
``--repeat`` runs for the pure-Python peers and ``--fast-repeat`` for the others, timed by
the process's CPU time (``time.process_time``: every tool here is single-threaded, and CPU time
is what a loaded machine disturbs least).
"""

from __future__ import annotations

import argparse
import gzip
import re
import time
from collections.abc import Callable
from pathlib import Path

from webgrip import extract as webgrip_extract

REPO = Path(__file__).resolve().parent.parent


def load_corpus(root: Path, limit: int | None) -> list[str]:
    files = sorted(root.glob("*/html/*.html.gz"))
    if limit:
        files = files[:limit]
    return [gzip.decompress(f.read_bytes()).decode("utf-8", "replace") for f in files]


def big_page(pages: list[str], target: int = 5_000_000, minimum: int = 40) -> str:
    parts, size = [], 0
    for p in pages:
        parts.append(p)
        size += len(p.encode())
        if size >= target and len(parts) >= minimum:
            break
    return "".join(parts)


# Elements whose text is not page text: dropped when building the body-only page.
_NOT_BODY = re.compile(
    r"<head\b.*?</head\s*>|<script\b.*?</script\s*>|<style\b.*?</style\s*>"
    r"|<noscript\b.*?</noscript\s*>",
    re.IGNORECASE | re.DOTALL,
)
_BODY = re.compile(r"<body\b[^>]*>(.*?)(?:</body\s*>|$)", re.IGNORECASE | re.DOTALL)


def body_only_page(pages: list[str], target: int = 5_000_000, minimum: int = 40) -> str:
    """Corpus bodies without head, scripts, styles and noscript, in one ``<body>``."""
    parts, size = [], 0
    for p in pages:
        stripped = _NOT_BODY.sub("", p)
        m = _BODY.search(stripped)
        body = m.group(1) if m else stripped
        parts.append(f"<div>{body}</div>")
        size += len(body.encode())
        if size >= target and len(parts) >= minimum:
            break
    return "<html><body>" + "".join(parts) + "</body></html>"


def table_page(rows: int = 10_000, cols: int = 8) -> str:
    head = "".join(f"<th>Column {c}</th>" for c in range(cols))
    body = "".join(
        "<tr>" + "".join(f"<td>r{r} c{c} <b>v</b></td>" for c in range(cols)) + "</tr>"
        for r in range(rows)
    )
    table = f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    return f"<html><body>{table}</body></html>"


def webgrip(mode: str) -> Callable[[str], object]:
    # The public API, as a user calls it (one view per call).
    return lambda html: webgrip_extract(html, url="https://example.com/", mode=mode)


def peers() -> dict[str, tuple[str, Callable[[str], object]]]:
    """name -> (mode, function). Missing optional packages are skipped."""
    tools: dict[str, tuple[str, Callable[[str], object]]] = {}
    try:
        from bs4 import BeautifulSoup
        from markdownify import MarkdownConverter

        def bs_md(parser: str) -> Callable[[str], object]:
            return lambda h: MarkdownConverter().convert_soup(BeautifulSoup(h, parser))

        tools["bs4(html.parser)+markdownify"] = ("markdown", bs_md("html.parser"))
        tools["bs4(lxml)+markdownify"] = ("markdown", bs_md("lxml"))
        tools["bs4(html.parser).get_text"] = (
            "text",
            lambda h: BeautifulSoup(h, "html.parser").get_text("\n"),
        )
        tools["bs4(lxml).get_text"] = ("text", lambda h: BeautifulSoup(h, "lxml").get_text("\n"))
    except ImportError:
        pass
    try:
        import html2text

        def h2t(h: str) -> str:
            conv = html2text.HTML2Text()
            conv.body_width = 0
            return conv.handle(h)

        tools["html2text"] = ("markdown", h2t)
    except ImportError:
        pass
    try:
        from selectolax.lexbor import LexborHTMLParser

        tools["selectolax(lexbor).text"] = (
            "text",
            lambda h: LexborHTMLParser(h).text(separator="\n"),
        )
    except ImportError:
        pass
    try:
        import turbohtml

        tools["turbohtml"] = ("markdown", lambda h: turbohtml.parse(h).to_markdown())
        tools["turbohtml.text"] = ("text", lambda h: turbohtml.parse(h).text)
    except ImportError:
        pass
    try:
        import html_to_markdown

        tools["html-to-markdown"] = ("markdown", lambda h: html_to_markdown.convert(h))
    except ImportError:
        pass
    return tools


def measure_all(
    tools: dict[str, tuple[str, Callable[[str], object]]],
    pages: list[str],
    repeats: dict[str, int],
) -> dict[str, float]:
    """Best MB/s per tool over all ``pages``. Rounds are interleaved (every tool once per
    round) so a slow spell of a shared machine hits every tool alike, not one."""
    size = sum(len(p.encode()) for p in pages)
    best = dict.fromkeys(tools, float("inf"))
    for r in range(max(repeats.values(), default=0)):
        for name, (_, fn) in tools.items():
            if r >= repeats[name]:
                continue
            t0 = time.process_time()
            for p in pages:
                fn(p)
            best[name] = min(best[name], time.process_time() - t0)
    return {name: size / 1e6 / t for name, t in best.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpus")
    ap.add_argument("--limit", type=int, default=200, help="corpus pages to use (0 = all)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per pure-Python peer")
    ap.add_argument(
        "--fast-repeat",
        type=int,
        default=9,
        help="runs per fast tool (webgrip, selectolax, html-to-markdown)",
    )
    ap.add_argument("--skip-slow", action="store_true", help="skip the pure-Python peers")
    args = ap.parse_args()

    all_pages = load_corpus(args.corpus, None)
    if not all_pages:
        raise SystemExit(f"no pages under {args.corpus}/*/html/*.html.gz")
    pages = all_pages[: args.limit] if args.limit else all_pages
    datasets = {
        f"corpus ({len(pages)} pages, {sum(len(p.encode()) for p in pages) / 1e6:.1f} MB)": pages,
        "big page": [big_page(all_pages)],
        "body-only page": [body_only_page(all_pages)],
        "table 10000x8": [table_page()],
    }
    datasets = {
        (
            f"{k} ({len(v[0].encode()) / 1e6:.1f} MB)"
            if k in ("big page", "body-only page")
            else f"table 10000x8 ({len(v[0].encode()) / 1e6:.1f} MB)"
            if k.startswith("table")
            else k
        ): v
        for k, v in datasets.items()
    }
    tools = {f"webgrip {m}": (m, webgrip(m)) for m in ("markdown", "text", "links", "tables")}
    slow = {
        "bs4(html.parser)+markdownify",
        "bs4(lxml)+markdownify",
        "html2text",
        "bs4(html.parser).get_text",
        "bs4(lxml).get_text",
    }
    for name, spec in peers().items():
        if not (args.skip_slow and name in slow):
            tools[name] = spec
    baseline = {"markdown": "bs4(html.parser)+markdownify", "text": "bs4(html.parser).get_text"}

    for ds_name, ds in datasets.items():
        print(f"\n## {ds_name}\n")
        print("| tool | mode | MB/s | x baseline |")
        print("| --- | --- | ---: | ---: |")
        repeats = {n: args.repeat if n in slow else args.fast_repeat for n in tools}
        results = measure_all(tools, ds, repeats)
        for name, (mode, _) in tools.items():
            base = results.get(baseline.get(mode, baseline["markdown"]))
            ratio = f"{results[name] / base:.1f}" if base else "-"
            print(f"| {name} | {mode} | {results[name]:.1f} | {ratio} |", flush=True)


if __name__ == "__main__":
    main()
