"""Download file names and destinations, without the network: naming, sanitising, placement."""

from __future__ import annotations

import os
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st
from webgrip.downloads import (
    choose_filename,
    filename_from_content_disposition,
    open_destination,
    place_file,
    sanitize_filename,
)
from webgrip.errors import DownloadError


# -- Content-Disposition -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ('attachment; filename="report.pdf"', "report.pdf"),
        ("attachment; filename=report.pdf", "report.pdf"),
        ("attachment; filename*=UTF-8''na%C3%AFve%20caf%C3%A9.txt", "naïve café.txt"),
        (
            "attachment; filename=\"fallback.txt\"; filename*=UTF-8''%E2%82%AC%20rates.txt",
            "€ rates.txt",
        ),
        ("attachment; filename*=UTF-8''%E2%82%AC.txt; filename=\"plain.txt\"", "€.txt"),
        ("attachment; filename*=iso-8859-1'en'%A3%20rates.txt", "£ rates.txt"),
        ('attachment; filename="a \\"quoted\\" name.txt"', 'a "quoted" name.txt'),
        ("attachment; filename*=UTF-8''%FF%FE.txt; filename=ok.txt", "ok.txt"),  # bad UTF-8
        ("attachment; filename*=koi8-r''%C1.txt; filename=ok.txt", "ok.txt"),
        ("attachment", None),
        ("", None),
        ('inline; FILENAME="UPPER.TXT"', "UPPER.TXT"),
    ],
)
def test_content_disposition(header, expected):
    assert filename_from_content_disposition(header) == expected


def test_content_disposition_raw_utf8_read_as_latin1():
    header = 'attachment; filename="' + "résumé.pdf".encode().decode("latin-1") + '"'
    assert filename_from_content_disposition(header) == "résumé.pdf"


# -- sanitising --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("../../etc/passwd", "passwd"),
        ("..\\..\\windows\\system.ini", "system.ini"),
        ("/etc/shadow", "shadow"),
        ("C:\\Users\\x\\evil.exe", "evil.exe"),
        ("..", "download"),
        (".", "download"),
        ("", "download"),
        (".bashrc", "bashrc"),
        ("...hidden", "hidden"),
        ("name. . .", "name"),
        ("CON", "_CON"),
        ("nul.txt", "_nul.txt"),
        ("com1.tar.gz", "_com1.tar.gz"),
        ("LPT9", "_LPT9"),
        ("console.txt", "console.txt"),
        ("a\x00b\x1fc.txt", "a_b_c.txt"),
        ("evil\u202etxt.exe", "evil_txt.exe"),  # right-to-left override
        ("zero\u200bwidth.txt", "zero_width.txt"),
        ("fullwidth\uff0f..\uff0fescape.txt", "escape.txt"),  # NFKC: ／ -> /
        ("division\u2215slash.txt", "slash.txt"),
        ('what?*:<>|".txt', "what_______.txt"),
        ("~root", "_root"),
        ("___", "download"),
        ("\u00a0spaced\u00a0name\u00a0", "spaced name"),
    ],
)
def test_sanitize(raw, expected):
    assert sanitize_filename(raw) == expected


def test_long_name_capped_keeping_extension():
    name = sanitize_filename("é" * 300 + ".pdf")
    assert name.endswith(".pdf")
    assert len(name.encode()) <= 200
    name.encode().decode("utf-8")  # no broken multibyte sequence


@given(st.text(max_size=400))
def test_sanitize_never_yields_a_path(raw):
    name = sanitize_filename(raw)
    assert name and name not in (".", "..")
    assert "/" not in name and "\\" not in name and "\x00" not in name
    assert not name.startswith(".") and not name.endswith((".", " "))
    assert len(name.encode()) <= 200
    assert os.path.basename(name) == name


# -- choosing ----------------------------------------------------------------------------
def test_choose_prefers_argument_then_header_then_url_then_type():
    assert (
        choose_filename(
            "../x.txt",
            content_disposition='attachment; filename="h.txt"',
            url="https://e.test/u.txt",
        )
        == "x.txt"
    )
    assert (
        choose_filename(
            None, content_disposition='attachment; filename="h.txt"', url="https://e.test/u.txt"
        )
        == "h.txt"
    )
    assert choose_filename(None, url="https://e.test/dir/na%C3%AFve%20file.csv?x=1") == (
        "naïve file.csv"
    )
    assert choose_filename(None, url="https://e.test/", content_type="application/pdf") == (
        "download.pdf"
    )
    assert choose_filename(None, url="https://e.test/") == "download"
    assert choose_filename(None, url="https://e.test/get", content_type="image/png") == ("get.png")
    assert choose_filename(None, url="https://e.test/a/..%2F..%2Fetc%2Fpasswd") == "passwd"


# -- destination -------------------------------------------------------------------------
def test_destination_inside_root_and_created(tmp_path):
    root = tmp_path / "dl"
    with open_destination(str(root / "papers" / "2024"), (str(root),)) as dest:
        assert dest.path == os.path.join(os.path.realpath(root), "papers", "2024")
        assert os.path.isdir(dest.path)
    with open_destination("papers", (str(root),)) as dest:  # relative: inside the first root
        assert dest.path.endswith(os.path.join("dl", "papers"))
    with open_destination("", (str(root),)) as dest:
        assert dest.path == os.path.realpath(root)


@pytest.mark.parametrize("target", ["/etc", "{root}/../elsewhere", "../outside", "{root}2"])
def test_destination_outside_refused(tmp_path, target):
    root = tmp_path / "dl"
    root.mkdir()
    with pytest.raises(DownloadError) as info:
        open_destination(target.format(root=root), (str(root),))
    assert info.value.reason == "outside-download-dirs"
    assert not (tmp_path / "elsewhere").exists() and not (tmp_path / "outside").exists()


def test_destination_symlinked_subfolder_refused(tmp_path):
    root, outside = tmp_path / "dl", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "link").symlink_to(outside)
    for target in (root / "link", root / "link" / "deeper"):
        with pytest.raises(DownloadError) as info:
            open_destination(str(target), (str(root),))
        assert info.value.reason == "symlink"
    assert list(outside.iterdir()) == []


def test_destination_root_itself_may_be_a_symlink(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "alias").symlink_to(real)
    with open_destination(str(tmp_path / "alias"), (str(tmp_path / "alias"),)) as dest:
        assert dest.path == os.path.realpath(real)


def test_destination_file_in_place_of_folder_refused(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(DownloadError) as info:
        open_destination(str(tmp_path / "file"), (str(tmp_path),))
    assert info.value.reason == "not-a-directory"


def test_no_download_dirs_refuses(tmp_path):
    with pytest.raises(DownloadError):
        open_destination(str(tmp_path), ())


# -- placing -----------------------------------------------------------------------------
def make_temp(dest_path: str, content: bytes, tag: str = "") -> str:
    path = os.path.join(dest_path, f".webgrip-test{tag}.part")
    with open(path, "wb") as fh:
        fh.write(content)
    return path


def test_place_numbers_existing_names_and_removes_temp(tmp_path):
    (tmp_path / "r.pdf").write_bytes(b"old")
    with open_destination(str(tmp_path), (str(tmp_path),)) as dest:
        path, renamed, replaced = place_file(dest, make_temp(dest.path, b"new"), "r.pdf")
        assert (os.path.basename(path), renamed, replaced) == ("r (1).pdf", True, False)
        path2, _, _ = place_file(dest, make_temp(dest.path, b"newer"), "r.pdf")
        assert os.path.basename(path2) == "r (2).pdf"
    assert (tmp_path / "r.pdf").read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r (1).pdf", "r (2).pdf", "r.pdf"]


def test_place_overwrite_replaces(tmp_path):
    (tmp_path / "r.pdf").write_bytes(b"old")
    with open_destination(str(tmp_path), (str(tmp_path),)) as dest:
        _path, renamed, replaced = place_file(
            dest, make_temp(dest.path, b"new"), "r.pdf", overwrite=True
        )
    assert (renamed, replaced) == (False, True)
    assert (tmp_path / "r.pdf").read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["r.pdf"]


def test_place_never_writes_through_symlink(tmp_path):
    root, victim = tmp_path / "dl", tmp_path / "victim.txt"
    root.mkdir()
    victim.write_bytes(b"precious")
    (root / "r.txt").symlink_to(victim)
    with open_destination(str(root), (str(root),)) as dest:
        path, renamed, _ = place_file(dest, make_temp(dest.path, b"new"), "r.txt")
        assert renamed and os.path.basename(path) == "r (1).txt"
        with pytest.raises(DownloadError) as info:
            place_file(dest, make_temp(dest.path, b"new"), "r.txt", overwrite=True)
        assert info.value.reason == "symlink"
    assert victim.read_bytes() == b"precious"
    assert os.path.islink(root / "r.txt")
    assert sorted(p.name for p in root.iterdir()) == ["r (1).txt", "r.txt"]


def test_concurrent_placements_get_distinct_names(tmp_path):
    with open_destination(str(tmp_path), (str(tmp_path),)) as dest:
        temps = [make_temp(dest.path, str(i).encode(), str(i)) for i in range(8)]
        results: list[str] = []
        barrier = threading.Barrier(len(temps))

        def worker(temp: str) -> None:
            barrier.wait()
            results.append(place_file(dest, temp, "same.bin")[0])

        threads = [threading.Thread(target=worker, args=(t,)) for t in temps]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert len(set(results)) == 8
    contents = sorted((tmp_path / os.path.basename(p)).read_bytes() for p in results)
    assert contents == sorted(str(i).encode() for i in range(8))
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]
