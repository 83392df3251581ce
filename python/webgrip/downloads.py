"""Safe downloads on disk: choosing a file name, checking the folder, placing the file.

- :func:`choose_filename`: the ``filename`` argument, else ``Content-Disposition`` (RFC 6266;
  ``filename*`` per RFC 8187 preferred), else the URL path, else ``download`` plus an extension
  from the content type — always passed through :func:`sanitize_filename`.
- :func:`open_destination`: the folder must lie inside one of the allowed roots; every
  component below the root is opened with ``O_NOFOLLOW|O_DIRECTORY`` (missing ones are
  created), so no symlink is ever followed there.
- :func:`place_file`: the completed temp file is linked to its final name atomically
  (``name (1).ext``, ``name (2).ext``, … when the name is taken) or, with ``overwrite``,
  renamed over it. The temp file is always removed (when the folder still allows it).
- :func:`sweep_temp_files`: removes the temp files a killed process left behind
  (``.webgrip-<16 hex>.part``, regular, ours, untouched for :data:`STALE_TEMP_SECONDS`);
  :meth:`WebClient.download <webgrip.client.WebClient.download>` runs it once per folder and
  process.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import mimetypes
import os
import re
import stat
import threading
import time
import unicodedata
from dataclasses import dataclass
from typing import NoReturn
from urllib.parse import unquote, urlsplit

from .errors import DownloadError

__all__ = [
    "Destination",
    "choose_filename",
    "filename_from_content_disposition",
    "open_destination",
    "place_file",
    "sanitize_filename",
    "sweep_temp_files",
]

logger = logging.getLogger("webgrip.downloads")

MAX_NAME_BYTES = 200
_FALLBACK = "download"
_RESERVED = frozenset(
    {"CON", "PRN", "AUX", "NUL", "CLOCK$", "CONIN$", "CONOUT$"}
    | {f"{p}{i}" for p in ("COM", "LPT") for i in [*"0123456789", "¹", "²", "³"]}
)
# Characters replaced by "_" (besides control/format/unassigned ones): Windows-illegal and
# shell-surprising characters, and slash look-alikes NFKC leaves alone.
_UNSAFE = set('"*:<>?|~\\/') | {"\u2215", "\u2044", "\u29f8", "\u29f9", "\u2216", "\ufe68"}
_PREFERRED_EXT = {
    "text/plain": ".txt",
    "image/jpeg": ".jpg",
    "text/html": ".html",
    "application/xml": ".xml",
    "text/csv": ".csv",
    "application/json": ".json",
    "text/markdown": ".md",
    "application/gzip": ".gz",
    "audio/mpeg": ".mp3",
    "image/svg+xml": ".svg",
}
# Pieces of a header parameter, each matched at one position only (``match(s, pos)``).
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_SPACE = re.compile(r"\s*")
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')


def _past_space(text: str, pos: int) -> int:
    """The index after the blanks at ``pos`` (``_SPACE`` matches anywhere, if only "")."""
    blanks = _SPACE.match(text, pos)
    assert blanks is not None
    return blanks.end()


def _disposition_params(params: str) -> list[tuple[str, str]]:
    """``name=value`` pairs of a header's parameters (``a=1; b="x;y"``), value unstripped.

    One pass, each piece matched where the last one ended. Why not one ``finditer`` pattern
    (``\\s*(token+)\\s*=...``): started at every position of a long token or blank run, it
    re-read the rest of the run each time; 64 KiB of ``a`` (a header the client accepts) took
    over a minute. A piece that does not fit skips past itself, where the pattern would
    have found the same failure from each of its positions.
    """
    out: list[tuple[str, str]] = []
    i, n = 0, len(params)
    while i < n:
        token = _TOKEN.match(params, _past_space(params, i))
        if token is None:
            i = _past_space(params, i) + 1
            continue
        eq = _past_space(params, token.end())
        if eq >= n or params[eq] != "=":
            i = token.end()
            continue
        start = _past_space(params, eq + 1)
        quoted = _QUOTED.match(params, start)
        if quoted is not None:
            after = _past_space(params, quoted.end())
            if after >= n or params[after] == ";":
                out.append((token.group(), quoted.group()))
                i = after + 1
                continue
        semi = params.find(";", start)
        end = n if semi < 0 else semi
        out.append((token.group(), params[start:end]))
        i = end + 1
    return out


# -- names -------------------------------------------------------------------------------
def filename_from_content_disposition(value: str | None) -> str | None:
    """The file name a ``Content-Disposition`` header proposes, unsanitised.

    ``filename*`` (RFC 8187, UTF-8 or ISO-8859-1, percent-encoded) wins over ``filename``; a
    malformed ``filename*`` is ignored. Returns ``None`` when neither is usable.
    """
    if not value:
        return None
    _, _, params = value.partition(";")
    plain: str | None = None
    extended: str | None = None
    for key, value in _disposition_params(params):
        name, raw = key.lower(), value.strip()
        if name == "filename*":
            extended = _decode_ext_value(raw.strip('"')) or extended
        elif name == "filename" and plain is None:
            if len(raw) >= 2 and raw[0] == raw[-1] == '"':
                raw = re.sub(r"\\(.)", r"\1", raw[1:-1])
            plain = _fix_mojibake(raw) or None
    return extended or plain


def _decode_ext_value(raw: str) -> str | None:
    charset, sep, rest = raw.partition("'")
    _lang, sep2, encoded = rest.partition("'")
    if not (sep and sep2):
        return None
    charset = charset.strip().lower()
    if charset not in ("utf-8", "iso-8859-1", "latin-1", "latin1"):
        return None
    try:
        data = unquote(encoded, encoding="latin-1").encode("latin-1")
        return data.decode("utf-8" if charset == "utf-8" else "latin-1", errors="strict") or None
    except (UnicodeDecodeError, UnicodeEncodeError):
        return None


def _fix_mojibake(text: str) -> str:
    """Headers are often raw UTF-8 read as Latin-1; undo that when it is clearly the case."""
    try:
        fixed = text.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return text
    return fixed


def sanitize_filename(name: str | None, *, fallback: str = _FALLBACK) -> str:
    """A safe base name for ``name``: never a path, hidden file, device or over-long name.

    NFKC-normalises, keeps the last path segment (``/``, ``\\`` and look-alikes), replaces
    control, format (bidi), unassigned and Windows-illegal characters with ``_``, trims
    whitespace and dots at both ends, prefixes Windows device names with ``_`` and caps the
    name at 200 UTF-8 bytes, keeping the extension. Returns ``fallback`` if nothing is left.
    """
    text = unicodedata.normalize("NFKC", name or "")
    for sep in ("\\", "\u2215", "\u2044", "\u29f8", "\u29f9", "\u2216", "\ufe68"):
        text = text.replace(sep, "/")
    text = text.rsplit("/", 1)[-1]
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in _UNSAFE or cat[0] == "C" or cat in ("Zl", "Zp"):
            out.append("_")
        elif cat == "Zs":
            out.append(" ")
        else:
            out.append(ch)
    text = "".join(out).strip(" .")
    if not text.strip("_-. "):
        return fallback
    stem = text.partition(".")[0]
    if stem.rstrip(" ").upper() in _RESERVED or text.lower() in ("desktop.ini", "thumbs.db"):
        text = "_" + text
    return _cap_length(text, MAX_NAME_BYTES) or fallback


def _cap_length(name: str, limit: int) -> str:
    if len(name.encode("utf-8")) <= limit:
        return name
    stem, ext = os.path.splitext(name)
    if len(ext.encode("utf-8")) > 20:
        stem, ext = name, ""
    budget = limit - len(ext.encode("utf-8"))
    cut = stem.encode("utf-8")[:budget].decode("utf-8", errors="ignore").rstrip(" .")
    return cut + ext if cut else ""


def extension_for(content_type: str | None) -> str:
    """The usual file extension for a media type, or ``""``."""
    media = (content_type or "").split(";", 1)[0].strip().lower()
    if not media or media in ("application/octet-stream", "binary/octet-stream"):
        return ""
    return _PREFERRED_EXT.get(media) or mimetypes.guess_extension(media, strict=False) or ""


def choose_filename(
    filename: str | None,
    *,
    content_disposition: str | None = None,
    url: str = "",
    content_type: str | None = None,
) -> str:
    """The sanitised name to save a download under (see the module docstring for the order).

    A name taken from the URL (or the fallback) without an extension gets one from
    ``content_type`` when that type is specific; names given by the caller or the server are
    kept as they are (after sanitising).
    """
    if filename:
        return sanitize_filename(filename)
    proposed = filename_from_content_disposition(content_disposition)
    if proposed:
        return sanitize_filename(proposed)
    path = urlsplit(url).path
    name = sanitize_filename(unquote(path.rsplit("/", 1)[-1], errors="replace") if path else "")
    if "." not in name.lstrip("_"):
        ext = extension_for(content_type)
        if ext:
            name = _cap_length(name, MAX_NAME_BYTES - len(ext)) + ext
    return name


# -- destination folder ------------------------------------------------------------------
@dataclass
class Destination:
    """An open, checked download folder. Close it (or use ``with``) when done."""

    path: str
    """Absolute path of the folder (the root's real path plus the checked components)."""
    fd: int
    """A descriptor of the folder, opened without following symlinks below the root."""

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> Destination:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
#: The most new folders one download may create below an allowed folder. ``save_to`` comes
#: from a model: one call made 2,040 nested folders. Deeper trees that already exist are
#: fine; a deeper new one must be made in steps (or by the user).
MAX_NEW_FOLDERS = 8
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def open_destination(save_to: str, allowed_dirs: tuple[str, ...] | list[str]) -> Destination:
    """Check ``save_to`` against ``allowed_dirs`` and open it; create missing folders below.

    ``save_to`` may be absolute, ``~``-relative or relative (to the first allowed folder).
    It must be one of the allowed folders or lie below one (compared after ``expanduser`` and
    ``realpath`` of the root; the path below the root is normalised and then walked one
    component at a time without following symlinks). Raises
    :class:`~webgrip.errors.DownloadError` with reason ``outside-download-dirs``, ``symlink``
    or ``not-a-directory``.
    """
    roots = [d for d in allowed_dirs if d]
    if not roots:
        raise DownloadError(
            "downloads are disabled: no download_dirs configured", reason="outside-download-dirs"
        )
    raw = os.path.expanduser(str(save_to or roots[0]))
    if not os.path.isabs(raw):
        raw = os.path.join(os.path.expanduser(roots[0]), raw)
    target = os.path.normpath(raw)
    for root in roots:
        root_abs = os.path.normpath(os.path.abspath(os.path.expanduser(root)))
        root_real = os.path.realpath(root_abs)
        for base in dict.fromkeys((root_abs, root_real)):
            rel = _relative_inside(target, base)
            if rel is not None:
                try:
                    return _walk(root_real, rel, save_to)
                except DownloadError:
                    raise
                except OSError as exc:
                    raise DownloadError(
                        f"cannot use the folder {target}: {exc.strerror or exc}",
                        reason="os-error",
                    ) from None
    allowed = ", ".join(roots)
    raise DownloadError(
        f"{save_to!r} is outside the allowed download folders ({allowed})",
        reason="outside-download-dirs",
    )


def _relative_inside(target: str, base: str) -> list[str] | None:
    if target == base:
        return []
    prefix = base if base.endswith(os.sep) else base + os.sep
    if not target.startswith(prefix):
        return None
    parts = [p for p in target[len(prefix) :].split(os.sep) if p and p != "."]
    return None if ".." in parts else parts


def _walk(root_real: str, parts: list[str], shown: str) -> Destination:
    os.makedirs(root_real, exist_ok=True)
    fd = os.open(root_real, _DIR_FLAGS)
    path = root_real
    try:
        for depth, part in enumerate(parts):
            path = os.path.join(path, part)
            try:
                nfd = os.open(part, _DIR_FLAGS | _NOFOLLOW, dir_fd=fd)
            except FileNotFoundError:
                missing = len(parts) - depth  # this one and every one below it
                if missing > MAX_NEW_FOLDERS:
                    # Refused before creating any, so a refusal leaves nothing behind.
                    raise DownloadError(
                        f"refusing to save into {_short(shown)!r}: it would create "
                        f"{missing} new nested folders, more than the {MAX_NEW_FOLDERS} one "
                        "download may create; choose a shallower or existing folder",
                        reason="too-many-folders",
                    ) from None
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o755, dir_fd=fd)
                nfd = os.open(part, _DIR_FLAGS | _NOFOLLOW, dir_fd=fd)
            except OSError as exc:
                _refuse_component(exc, fd, part, path, shown)
            os.close(fd)
            fd = nfd
    except BaseException:
        os.close(fd)
        raise
    return Destination(path=path, fd=fd)


def _short(path: str, limit: int = 200) -> str:
    """``path`` cut for a message (a model may send kilobytes of folders)."""
    return path if len(path) <= limit else path[: limit - 1] + "…"


def _refuse_component(exc: OSError, fd: int, part: str, path: str, shown: str) -> NoReturn:
    try:
        st = os.stat(part, dir_fd=fd, follow_symlinks=False)
    except OSError:
        st = None
    if st is not None and stat.S_ISLNK(st.st_mode):
        raise DownloadError(
            f"refusing to save into {shown!r}: {path} is a symbolic link", reason="symlink"
        ) from None
    if exc.errno in (errno.ENOTDIR, errno.ELOOP) or (st is not None):
        raise DownloadError(
            f"refusing to save into {shown!r}: {path} is not a folder", reason="not-a-directory"
        ) from None
    raise DownloadError(f"cannot open folder {path}: {exc.strerror}", reason="os-error") from None


# -- placing the file --------------------------------------------------------------------
def _numbered(name: str, n: int) -> str:
    if n == 0:
        return name
    stem, ext = os.path.splitext(name)
    if not stem:  # ".ext"-only names cannot occur after sanitising; be safe anyway
        stem, ext = name, ""
    suffix = f" ({n})"
    stem = _cap_length(stem, MAX_NAME_BYTES - len(suffix.encode()) - len(ext.encode())) or "_"
    return f"{stem}{suffix}{ext}"


def place_file(
    dest: Destination,
    temp_path: str,
    name: str,
    *,
    overwrite: bool = False,
    max_attempts: int = 1000,
) -> tuple[str, bool, bool]:
    """Give the completed temp file in ``dest`` its final ``name``; remove the temp name.

    ``temp_path`` is the temp file's name in ``dest`` (or its path there). Every step goes
    through ``dest.fd``; the folder's path must still lead to that folder (else
    ``folder-changed``), so the returned path names the file that was written.
    Returns ``(path, renamed, replaced)``. Without ``overwrite`` an existing name (file,
    folder or symlink) is never touched: ``name (1).ext``, ``name (2).ext``, … are tried with
    an atomic hard link. With ``overwrite`` the temp file is renamed over an existing regular
    file; a symlink or folder there is refused. The temp file must be a regular file directly
    inside ``dest``. Failures raise :class:`~webgrip.errors.DownloadError` (a folder made
    read-only meanwhile too: its message then names the temp file that could not be removed,
    which :func:`sweep_temp_files` removes later).
    """
    temp_name = os.path.basename(temp_path)
    try:
        placed = _place(dest, temp_path, temp_name, name, overwrite, max_attempts)
    except OSError as exc:
        error = DownloadError(
            f"could not save into {dest.path}: {exc.strerror or exc}", reason="os-error"
        )
        _remove_temp(dest, temp_name, error)
        raise error from None
    except DownloadError as exc:
        _remove_temp(dest, temp_name, exc)
        raise
    except BaseException:
        _remove_temp(dest, temp_name, None)
        raise
    _remove_temp(dest, temp_name, None)
    return placed


def _place(
    dest: Destination,
    temp_path: str,
    temp_name: str,
    name: str,
    overwrite: bool,
    max_attempts: int,
) -> tuple[str, bool, bool]:
    _check_temp(dest, temp_path, temp_name)
    if overwrite:
        try:
            st = os.stat(name, dir_fd=dest.fd, follow_symlinks=False)
        except FileNotFoundError:
            st = None
        if st is not None and not stat.S_ISREG(st.st_mode):
            kind = "a symbolic link" if stat.S_ISLNK(st.st_mode) else "not a regular file"
            raise DownloadError(
                f"refusing to overwrite {os.path.join(dest.path, name)}: it is {kind}",
                reason="symlink" if stat.S_ISLNK(st.st_mode) else "not-a-file",
            )
        os.replace(temp_name, name, src_dir_fd=dest.fd, dst_dir_fd=dest.fd)
        return os.path.join(dest.path, name), False, st is not None
    for n in range(max_attempts):
        candidate = _numbered(name, n)
        if _link_exclusive(dest, temp_name, candidate):
            return os.path.join(dest.path, candidate), n > 0, False
    raise DownloadError(f"no free name like {name!r} in {dest.path}", reason="name-taken")


def _remove_temp(dest: Destination, temp_name: str, error: DownloadError | None) -> None:
    """Remove the temp name (gone already is fine). When the folder refuses (made read-only
    during the download), say so in ``error``, or log it when the file was saved anyway."""
    try:
        os.unlink(temp_name, dir_fd=dest.fd)
    except FileNotFoundError:
        pass
    except OSError as exc:
        left = os.path.join(dest.path, temp_name)
        why = exc.strerror or str(exc)
        if error is None:
            logger.warning(
                "webgrip: could not remove the temporary file %s (%s); a later "
                "download into this folder removes it",
                left,
                why,
            )
            return
        error.message += (
            f"; the partial file {left} could not be removed ({why}): a later "
            "download into this folder removes it"
        )
        error.args = (error.message,)


def _check_temp(dest: Destination, temp_path: str, temp_name: str) -> None:
    """The temp file must be the regular file ``temp_name`` in ``dest``, and ``dest.path`` must
    still name the folder ``dest.fd`` (a folder swapped for a symlink meanwhile is refused)."""
    folder = os.path.dirname(temp_path)
    if folder and os.path.normpath(folder) != os.path.normpath(dest.path):
        raise DownloadError(
            f"temporary file {temp_path} is not inside {dest.path}", reason="temp-outside"
        )
    held = os.fstat(dest.fd)
    try:
        inside = os.stat(temp_name, dir_fd=dest.fd, follow_symlinks=False)
    except FileNotFoundError:
        if held.st_nlink == 0:  # the folder itself was deleted while the body streamed in
            raise DownloadError(
                f"the folder {dest.path} was removed during the download", reason="folder-changed"
            ) from None
        raise DownloadError(
            f"the temporary file {os.path.join(dest.path, temp_name)} was removed during the "
            "download",
            reason="temp-removed",
        ) from None
    try:
        by_path = os.stat(dest.path)
    except OSError:
        by_path = None
    if (
        not stat.S_ISREG(inside.st_mode)
        or by_path is None
        or (held.st_dev, held.st_ino) != (by_path.st_dev, by_path.st_ino)
    ):
        raise DownloadError(
            f"the folder {dest.path} changed during the download", reason="folder-changed"
        )


def _link_exclusive(dest: Destination, temp_name: str, candidate: str) -> bool:
    """Atomically create ``candidate`` for the temp file's content; False if it exists."""
    try:
        os.link(temp_name, candidate, src_dir_fd=dest.fd, dst_dir_fd=dest.fd, follow_symlinks=False)
        return True
    except FileExistsError:
        return False
    except OSError as exc:
        if exc.errno not in (
            errno.EPERM,
            errno.ENOTSUP,
            errno.EOPNOTSUPP,
            errno.EXDEV,
            errno.EMLINK,
        ):
            raise
    # No hard links here (FAT, some network shares): reserve the name, then rename onto it.
    try:
        fd = os.open(
            candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o644, dir_fd=dest.fd
        )
    except FileExistsError:
        return False
    os.close(fd)
    os.replace(temp_name, candidate, src_dir_fd=dest.fd, dst_dir_fd=dest.fd)
    return True


# -- leftovers of killed processes -------------------------------------------------------
#: A temp file untouched (no write) for this long belongs to no live download: a download
#: writes as its body arrives and ends at its deadline, so only a killed process leaves one.
STALE_TEMP_SECONDS = 3600.0
#: The names the core gives temp files (``rust/net/src/download.rs``, ``create_temp``).
TEMP_NAME = re.compile(r"\.webgrip-[0-9a-f]{16}\.part")
_swept: set[tuple[int, int]] = set()
_swept_lock = threading.Lock()


def sweep_temp_files(
    dest: Destination, *, older_than: float = STALE_TEMP_SECONDS, now: float | None = None
) -> list[str]:
    """Remove the temp files killed downloads left in ``dest``; return the names removed.

    Safe by construction: only names the core gives its temp files (:data:`TEMP_NAME`), only
    regular files (a symlink, folder or device of that name is left alone, and nothing is
    followed: ``lstat`` and ``unlink`` through the folder's descriptor), only files owned by
    this user, and only files untouched for ``older_than`` seconds. Errors skip the entry.
    """
    if os.listdir not in os.supports_fd or dest.fd < 0:
        return []
    now = time.time() if now is None else now
    uid = os.geteuid() if hasattr(os, "geteuid") else None
    removed = []
    try:
        names = os.listdir(dest.fd)
    except OSError:
        return []
    for name in names:
        if not TEMP_NAME.fullmatch(name):
            continue
        try:
            st = os.stat(name, dir_fd=dest.fd, follow_symlinks=False)
            if (
                not stat.S_ISREG(st.st_mode)
                or (uid is not None and st.st_uid != uid)
                or now - st.st_mtime < older_than
            ):
                continue
            os.unlink(name, dir_fd=dest.fd)
        except OSError:
            continue
        removed.append(name)
    if removed:
        logger.info(
            "webgrip: removed %d temporary file(s) left by interrupted downloads in %s",
            len(removed),
            dest.path,
        )
    return removed


def sweep_once(dest: Destination) -> list[str]:
    """:func:`sweep_temp_files` the first time this process downloads into ``dest``."""
    try:
        held = os.fstat(dest.fd)
    except OSError:
        return []
    with _swept_lock:
        if (held.st_dev, held.st_ino) in _swept:
            return []
        _swept.add((held.st_dev, held.st_ino))
    return sweep_temp_files(dest)
