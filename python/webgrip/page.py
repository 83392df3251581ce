"""The results of the structured API: :class:`Page` (a fetched document) and :class:`Download`."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["EXTRACT_MODES", "Download", "Page"]

#: The views :meth:`webgrip.WebClient.fetch` can produce.
EXTRACT_MODES: tuple[str, ...] = ("markdown", "text", "html", "links", "tables")


@dataclass(frozen=True)
class Page:
    """A fetched document converted to one view (``extract``).

    ``content`` is always the text an agent reads: Markdown, plain text, HTML, a Markdown list
    of links, or the tables as JSON. For ``links`` and ``tables`` the structured items are also
    in ``data``.
    """

    url: str
    """The URL requested, after tracking parameters and the fragment were removed."""
    final_url: str
    """The URL the content came from, after redirects."""
    status: int
    content_type: str | None
    """Media type, lower-cased (``text/html``); ``None`` if the server sent none."""
    extract: str
    """The view: one of :data:`EXTRACT_MODES`."""
    content: str = field(repr=False)
    title: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    """Document metadata for HTML (title, description, canonical_url, language, author, ...)."""
    data: tuple[Mapping[str, Any], ...] | None = field(default=None, repr=False)
    """For ``links``: ``{url, text, rel}`` items; for ``tables``: ``{caption, headers, rows}``."""
    main_content: bool = False
    """Whether only the main content (no navigation, ads, footers) was kept."""
    rendered: bool = False
    """Whether the page's scripts ran in the guarded browser before extraction."""
    render_reason: str | None = None
    """Why it was rendered: ``"always"`` (``render="always"``), the core's shell reason when
    ``render="auto"`` found a script shell (``"app-root #root"``, ``"noscript"``, ``"empty
    body with scripts"``, ...: :func:`webgrip.render.script_shell_reason`), or the bot check's
    kind (``"challenge"``, ``"captcha"``) when ``auto`` rendered past one; ``None`` for a
    static page."""
    script_shell: str | None = field(default=None, repr=False)
    """The core's shell reason when the static page was built by its scripts but they did
    not run (no browser here, an upstream proxy, ``render="never"``, or the render failed):
    its text is likely missing. ``None`` otherwise."""
    fetched_at: float | None = field(default=None, repr=False, compare=False)
    """When the server sent this content (Unix time): when it was fetched, or when the copy
    in the persistent cache was stored or last revalidated. ``None`` for a page not fetched
    (``extract_html`` and the like)."""
    from_cache: bool = field(default=False, repr=False, compare=False)
    """Whether this call was answered from a cache (the in-memory page cache or the
    persistent one) without asking the server; :attr:`fetched_at` says how old it is."""

    @property
    def length(self) -> int:
        """Length of :attr:`content` in characters (what ``start_index`` counts)."""
        return len(self.content)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of every field plus ``length``."""
        out = dataclasses.asdict(self)
        out["metadata"] = dict(self.metadata)
        out["data"] = None if self.data is None else [dict(d) for d in self.data]
        out["length"] = self.length
        return out


def _evolve(page: Page, **changes: Any) -> Page:
    """``dataclasses.replace(page, **changes)`` at a third of its cost (7 µs a fetch): the
    fields are copied as they stand, none re-validated, which is all ``replace`` does for a
    ``Page`` (no ``__post_init__``, no init-only fields) beyond checking the names given."""
    unknown = changes.keys() - _PAGE_FIELDS
    if unknown:
        raise TypeError(f"Page has no field {sorted(unknown)[0]!r}")
    new = object.__new__(Page)
    fields = new.__dict__  # a frozen dataclass blocks setattr, not its instance dict
    fields.update(page.__dict__)
    fields.update(changes)
    return new


@dataclass(frozen=True)
class Download:
    """A file saved by :meth:`webgrip.WebClient.download`."""

    path: str
    """Absolute path of the saved file."""
    size: int
    """Bytes written."""
    content_type: str | None
    sha256: str
    """Hex SHA-256 of the file's content."""
    url: str
    """The URL requested (tracking parameters removed)."""
    final_url: str
    """The URL the file came from, after redirects."""
    renamed: bool = False
    """True if a file with the preferred name existed, so a ``name (N).ext`` was chosen."""
    replaced: bool = False
    """True if an existing file was overwritten (only with ``overwrite=True``)."""
    preferred_name: str = ""
    """The name asked for (or given by the server or the URL); :attr:`filename` differs from
    it when :attr:`renamed`."""

    @property
    def filename(self) -> str:
        """The saved file's name, without its folder."""
        import os

        return os.path.basename(self.path)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of every field plus ``filename``."""
        out = dataclasses.asdict(self)
        out["filename"] = self.filename
        return out


_PAGE_FIELDS = frozenset(f.name for f in dataclasses.fields(Page))
