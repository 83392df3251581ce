"""The core's reduction of images on refused hosts against the Python code it replaced.

``fetch`` reduces every Markdown image whose target is an internal host to its alt text
(see test_markdown_images.py for why). That pass moved from ``webgrip.page_builder`` (a regular
expression over the finished Markdown) into the Rust core (``urls::reduce_images``, asked for
with ``extract_document(..., refuse_internal_images=True)``); the Python code is kept here as
the reference the core must agree with, byte for byte, on generated pages.
"""

from __future__ import annotations

import html
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from webgrip import _core

# -- the reference: webgrip.page_builder before the pass moved into the core ----------------------
_MD_IMAGE = re.compile(r"!\[((?:\\.|[^\\\]\n])*)\]\((<[^>\n]*>|(?:[^\s()]|\([^\s()]*\))+)\)")


def _reference_refuse(markdown: str) -> str:
    if "![" not in markdown:
        return markdown
    return _MD_IMAGE.sub(
        lambda m: m.group(1) if _reference_refused(m.group(2).strip("<>")) else m.group(0),
        markdown,
    )


def _reference_refused(url: str) -> bool:
    if not url[:8].lower().startswith(("http://", "https://", "//")):
        return False
    host = _core.url_host(url if not url.startswith("//") else "http:" + url)
    if host is None:
        return True
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return _core.check_ip(host) is not None
    except ValueError:
        return False


# -- generated pages ----------------------------------------------------------------------------
PAGE_URL = "http://10.9.8.7/dir/page.html"  # relative images resolve onto a private host
TARGETS = [
    "http://127.0.0.1/x.png",
    "HTTP://0x7f.1/x.png",
    "http://2130706433/a",
    "//10.0.0.1/b.png",
    "http://[::ffff:10.0.0.1]/c",
    "https://[::1]:8443/d",
    "http://localhost./e",
    "http://cam.LOCALHOST/f",
    "http://169.254.169.254/latest",
    "https://100.64.0.1/g",
    "https://example.com/ok.png",
    "https://93.184.216.34/ok.png",
    "http://ex.com/a(1).png",
    "http://10.0.0.2/a(1).png",
    "http://10.0.0.3/a b (c.png",
    "https://ex.com/sp ace.png",
    "http://10.0.0.4/x\u00a0y.png",
    "http://10.0.0.5/x\u2003y",
    "http://10.0.0.6/<>.png",
    "http://[::1/broken",
    "http://exa mple.com/x",
    "https://host:99999/x",
    "http://%31%30.0.0.1/",
    "data:image/png;base64,AAAA",
    "ftp://10.0.0.1/x.png",
    "mailto:a@b.c",
    "/rel.png",
    "rel.png",
    "?q=1",
    "#frag",
    "http://10.0.0.7/a)b",
    "http://10.0.0.8/\\x",
    "https://xn--nxasmq6b.com/i",
]
ALT_PIECES = [
    "pic",
    " ",
    "[x]",
    "]",
    "[",
    "\\",
    "*",
    "_",
    "`",
    "!",
    "(",
    ")",
    "<",
    ">",
    "é",
    "\n",
    "\u00a0",
    "|",
    "#",
    "1.",
    "-",
    "![a](b)",
]
# Raw text (code spans, preformatted blocks, plain text): the reference also reduced image
# syntax written as text, so the core must find the same spans there.
RAW_PIECES = [
    "![",
    "](",
    ")",
    "(",
    "<",
    ">",
    "\\",
    "]",
    "[",
    "\n",
    " ",
    "\u00a0",
    "\u001f",
    "alt",
    "http://127.0.0.1/p",
    "https://ex.com/q",
    "//10.0.0.1/r",
    "http://[::1",
    "(1)",
    "!",
    "x",
]


def _text(pieces: list[str]) -> str:
    return html.escape("".join(pieces), quote=True)


@st.composite
def fragments(draw) -> str:
    kind = draw(st.sampled_from(["img", "linked", "cell", "code", "pre", "text"]))
    alt = _text(draw(st.lists(st.sampled_from(ALT_PIECES), max_size=5)))
    src = html.escape(draw(st.sampled_from(TARGETS)), quote=True)
    img = f'<img src="{src}" alt="{alt}">'
    if kind == "img":
        return f"<p>before {img} after</p>"
    if kind == "linked":
        href = html.escape(draw(st.sampled_from(TARGETS)), quote=True)
        return f'<p><a href="{href}">{img} {alt}</a></p>'
    if kind == "cell":
        return f"<table><tr><th>h</th></tr><tr><td>{img}</td></tr></table>"
    raw = _text(draw(st.lists(st.sampled_from(RAW_PIECES), max_size=12)))
    if kind == "code":
        return f"<p>see <code>{raw}</code> here</p>"
    if kind == "pre":
        return f"<pre>{raw}</pre>"
    return f"<p>{raw}</p>"


@settings(max_examples=400, deadline=None)
@given(st.lists(fragments(), min_size=1, max_size=6), st.booleans())
def test_core_agrees_with_the_python_reference(parts: list[str], main_content: bool) -> None:
    page = f"<html><head><title>t</title></head><body>{''.join(parts)}</body></html>"

    def markdown(refuse: bool) -> str:
        doc = _core.extract_document(
            page,
            url=PAGE_URL,
            modes=["markdown"],
            main_content=main_content,
            refuse_internal_images=refuse,
        )
        return doc["markdown"]

    assert markdown(True) == _reference_refuse(markdown(False)), page


def test_only_markdown_is_reduced_and_only_when_asked() -> None:
    page = (
        '<p><img src="http://127.0.0.1/a.png" alt="A"> and '
        '<img src="https://example.com/b.png" alt="B"></p>'
    )
    kept = _core.extract_document(page, modes=["markdown", "text"])
    reduced = _core.extract_document(page, modes=["markdown", "text"], refuse_internal_images=True)
    assert kept["markdown"].strip() == (
        "![A](http://127.0.0.1/a.png) and ![B](https://example.com/b.png)"
    )
    assert reduced["markdown"].strip() == "A and ![B](https://example.com/b.png)"
    assert reduced["text"] == kept["text"]
