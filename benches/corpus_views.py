"""Hash every view of every corpus page, to compare two builds of webgrip page by page.

Run it once per build (each in its own process, with that build's package on PYTHONPATH),
then compare the two outputs:

    PYTHONPATH=/tmp/basepkg/python python benches/corpus_views.py > /tmp/old.json
    PYTHONPATH=python python benches/corpus_views.py > /tmp/new.json
    python benches/corpus_views.py --compare /tmp/old.json /tmp/new.json

Two families of keys per page:

- ``core:<main>``: ``_core.extract_document`` with all five views, main content on or off
  (the raw core output, before any Python step);
- ``fetch:<extract>:<main>``: :func:`webgrip.page_builder.build_page`, the public fetch path
  after the network (tracking parameters stripped, links deduplicated, images refused),
  for every view: the whole :class:`~webgrip.page.Page` (``to_dict``), so the fields
  around the content are compared too.

Pages come from ``../shared/corpus/{wcxb-dev,article-bench-dev}`` (see its README), each
with its original URL so relative links resolve as they did on the site.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from webgrip.response import Response

CORPUS = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus"
MODES = ["markdown", "text", "links", "tables", "metadata"]


def pages(corpus: Path = CORPUS) -> Iterator[tuple[str, str, bytes]]:
    """``(page id, url, raw html bytes)`` for every page of both sets."""
    wcxb = corpus / "wcxb-dev"
    for path in sorted((wcxb / "html").glob("*.html.gz")):
        page_id = path.name.split(".")[0]
        truth = json.loads((wcxb / "ground-truth" / f"{page_id}.json").read_text())
        url = truth.get("url") or f"https://{page_id}.example/"  # one page has none
        yield f"wcxb/{page_id}", url, gzip.decompress(path.read_bytes())
    bench = corpus / "article-bench-dev"
    truth = json.loads((bench / "ground-truth.json").read_text())
    for path in sorted((bench / "html").glob("*.html.gz")):
        page_id = path.name.split(".")[0]
        yield f"article/{page_id}", truth[page_id]["url"], gzip.decompress(path.read_bytes())


def _digest(value: object) -> str:
    blob = json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def served(url: str, raw: bytes, status: int = 200) -> Response:
    """The :class:`~webgrip.response.Response` of a corpus page as a server would send it:
    ``text/html`` with no charset named (the page's own ``<meta>`` or a sniff decides), no
    redirect (the library's :func:`~webgrip.response.html_response`, which names UTF-8)."""
    from webgrip.response import html_response

    return dataclasses.replace(
        html_response(url, status, raw, elapsed=0.0),
        headers={"content-type": "text/html"},
        charset=None,
        remote_addr="127.0.0.1:80",
    )


def hash_page(url: str, raw: bytes) -> dict[str, str]:
    from webgrip import _core
    from webgrip.page_builder import build_page

    out: dict[str, str] = {}
    for main in (False, True):
        doc = _core.extract_document(
            raw, modes=MODES, main_content=main, url=url, content_type="text/html"
        )
        out[f"core:{main}"] = _digest(doc)
    response = served(url, raw)
    for extract in ("markdown", "text", "links", "tables"):
        for main in (False, True):
            page = build_page(response, url=url, extract=extract, main_content=main)
            out[f"fetch:{extract}:{main}"] = _digest(page.to_dict())
    return out


def compare(old_path: str, new_path: str) -> int:
    old = json.loads(Path(old_path).read_text())
    new = json.loads(Path(new_path).read_text())
    keys = sorted({k for page in old.values() for k in page})
    print(f"{len(old)} pages in {old_path}, {len(new)} in {new_path}")
    differing_pages = set()
    for key in keys:
        differ = [p for p in old if old[p].get(key) != new.get(p, {}).get(key)]
        differing_pages.update(differ)
        print(f"{key:24} {len(differ):5} pages differ  {' '.join(differ[:8])}")
    print(f"pages with any difference: {len(differing_pages)}")
    return 1 if differing_pages else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"))
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    result = {page_id: hash_page(url, raw) for page_id, url, raw in pages(args.corpus)}
    json.dump(result, sys.stdout, indent=0, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
