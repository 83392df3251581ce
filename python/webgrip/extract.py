"""Turn HTML into what an agent reads: Markdown, plain text, links, tables or metadata.

The page is parsed once by the Rust core (its own HTML5 parser) with the GIL released;
every view is derived from that one tree.
"""

from __future__ import annotations

from . import _core

TYPE_CHECKING = False  # typing itself is not imported: ``import webgrip`` loads this module
if TYPE_CHECKING:
    from typing import Any

MODES = ("markdown", "text", "links", "tables", "metadata")


def extract(
    html: str | bytes,
    *,
    url: str | None = None,
    mode: str = "markdown",
    main_content: bool = False,
    readable_model: bool = True,
) -> Any:
    """Extract one view of an HTML page.

    ``html`` may be ``str`` or ``bytes`` (bytes are decoded by BOM, ``<meta charset>`` or
    detection). ``url`` is the page's address: relative links and images are made absolute
    against ``<base href>`` and then this URL. ``main_content=True`` narrows ``markdown`` and
    ``text`` to the page's main content (links, tables and metadata always cover the page):
    rules choose it, then a learned block scorer takes out the blocks it judges boilerplate
    (``readable_model=False``: the rules alone; docs/benchmarks.md has both's figures).

    ``mode`` selects the result:

    - ``"markdown"`` → ``str``: GitHub-flavoured Markdown.
    - ``"text"`` → ``str``: plain text that keeps headings, paragraphs, lists and table rows.
    - ``"links"`` → ``list[dict]``: ``{"url", "text", "rel"}`` per distinct absolute link.
    - ``"tables"`` → ``list[dict]``: ``{"caption", "headers", "rows", "markdown"}`` per data
      table; ``rows`` are ``{header: cell}`` dicts.
    - ``"metadata"`` → ``dict``: ``title``, ``description``, ``canonical_url``, ``language``,
      ``author``, ``published``, ``site_name`` (each ``str | None``).

    >>> extract("<h1>Hi</h1><p>See <a href='/doc'>the docs</a>.</p>", url="https://ex.com/")
    '# Hi\\n\\nSee [the docs](https://ex.com/doc).\\n'
    >>> extract("<ul><li>one<li>two</ul>", mode="text")
    '- one\\n- two\\n'
    >>> extract("<a href='b'>B</a>", url="https://ex.com/a/", mode="links")
    [{'url': 'https://ex.com/a/b', 'text': 'B', 'rel': None}]
    >>> extract("<title>T</title>", mode="metadata")["title"]
    'T'
    """
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}: expected one of {', '.join(MODES)}")
    if not isinstance(html, (str, bytes)):
        raise TypeError(f"html must be str or bytes, not {type(html).__name__}")
    doc = _core.extract_document(
        html, url=url, modes=(mode,), main_content=main_content, readable_model=readable_model
    )
    return doc[mode]
