"""Sitemaps for the site-map tests and bench: well-formed ones, and the bombs real sites set.

- :func:`urlset`, :func:`index`: the sitemaps.org XML of page URLs and of sitemap URLs;
- :func:`gzip_zeros`: a gzip stream of ``mib`` MiB of zeros, made in ~1 KiB per MiB (each MiB
  compressed once after a full flush, then repeated), so a 10 GiB bomb is ~10 MiB on the wire
  and costs the server nothing to send;
- :data:`ENTITY_BOMB` ("billion laughs": ten levels of ten references, 10^9 ``lol`` if
  expanded) and :func:`external_entity` (an entity naming a file and a URL to read).
"""

from __future__ import annotations

import gzip
import html
import zlib
from collections.abc import Iterable, Iterator

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'


def urlset(urls: Iterable[str]) -> bytes:
    items = "".join(f"<url><loc>{html.escape(u)}</loc></url>" for u in urls)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset {NS}>{items}</urlset>'.encode()


def index(urls: Iterable[str]) -> bytes:
    items = "".join(f"<sitemap><loc>{html.escape(u)}</loc></sitemap>" for u in urls)
    head = '<?xml version="1.0" encoding="UTF-8"?>\n'
    return f"{head}<sitemapindex {NS}>{items}</sitemapindex>".encode()


def gz(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


def gzip_zeros(mib: int) -> Iterator[bytes]:
    """A gzip member of ``mib`` MiB of zeros, streamed (its trailer's CRC is not that of the
    zeros: a reader that respects its cap never gets there)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    zeros = bytes(1 << 20)
    yield packer.compress(zeros) + packer.flush(zlib.Z_FULL_FLUSH)
    block = packer.compress(zeros) + packer.flush(zlib.Z_FULL_FLUSH)
    for _ in range(mib - 1):
        yield block
    yield packer.flush()


ENTITY_BOMB = (
    b'<?xml version="1.0"?>\n<!DOCTYPE urlset [\n<!ENTITY lol "lol">\n'
    + b"".join(
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">\n'.encode()
        for i in range(1, 10)
    )
    + b"]>\n<urlset "
    + NS.encode()
    + b"><url><loc>http://example.com/&lol9;</loc></url></urlset>"
)


def external_entity(file_path: str, url: str) -> bytes:
    """A sitemap whose ``<loc>`` entities would read ``file_path`` and fetch ``url``."""
    return (
        f'<?xml version="1.0"?>\n<!DOCTYPE urlset [\n'
        f'<!ENTITY file SYSTEM "file://{file_path}">\n<!ENTITY web SYSTEM "{url}">\n]>\n'
        f"<urlset {NS}><url><loc>&file;</loc></url><url><loc>&web;</loc></url></urlset>"
    ).encode()
