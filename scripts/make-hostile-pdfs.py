#!/usr/bin/env python3
"""Write the hostile PDF fixtures (tests/fixtures/pdf/hostile-*.pdf): one file per shape that
once crashed, pinned a core or took gigabytes (issues 29 and 45). Each is a few KiB at most (the
encrypted bomb 80 KiB); the fuzz run takes them as seeds (fuzz/seeds.py reads every fixture PDF).

The encrypted ones (issue 45) are encrypted here with the standard security handler, written
from ISO 32000 independently of the Rust side: RC4 (a few lines below) and MD5 for revisions 2
to 4, AES from the `cryptography` package for AES-128 and AES-256 (revision 6), IVs and salts
derived from fixed seeds so every run writes the same bytes.

    python scripts/make-hostile-pdfs.py        # rewrites them byte-identically
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "pdf"
PAGE = (
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
    b"/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
    b">> >> >> %s >>"
)


def pdf(objects: list[bytes], trailer: bytes = b"") -> bytes:
    """``objects`` numbered from 1, a valid xref table, ``trailer`` entries after /Root."""
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R %s >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        trailer,
        xref,
    )
    return bytes(out)


def stream(content: bytes, *, compress: bool = False) -> bytes:
    if compress:
        content = zlib.compress(content, 9)
        return b"<< /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream" % (
            len(content),
            content,
        )
    return b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content)


def one_page(content: bytes, page_extra: bytes = b"", trailer: bytes = b"") -> bytes:
    return pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            PAGE % page_extra,
            content,
        ],
        trailer,
    )


def with_form(page_content: bytes, form_content: bytes) -> bytes:
    """One page whose content is ``page_content``, with a Form XObject ``/X`` drawing
    ``form_content`` in Helvetica (both streams compressed)."""
    font = b"/Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >>"
    form = zlib.compress(form_content, 9)
    return pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
            b"/Resources << " + font + b" /XObject << /X 5 0 R >> >> >>",
            stream(page_content, compress=True),
            b"<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << "
            + font
            + b" >> /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream" % (len(form), form),
        ]
    )


# The standard security handler (ISO 32000-1 7.6.3; ISO 32000-2 7.6.4 for revision 6).
PAD = bytes.fromhex("28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a")
FILE_ID = hashlib.md5(b"webgrip hostile encrypted").digest()
PERMISSIONS = -4  # every permission


def rc4(key: bytes, data: bytes) -> bytes:
    s = list(range(256))
    j = 0
    for i in range(256):
        j = (j + s[i] + key[i % len(key)]) % 256
        s[i], s[j] = s[j], s[i]
    out = bytearray()
    i = j = 0
    for byte in data:
        i = (i + 1) % 256
        j = (j + s[i]) % 256
        s[i], s[j] = s[j], s[i]
        out.append(byte ^ s[(s[i] + s[j]) % 256])
    return bytes(out)


def _aes_cbc(key: bytes, iv: bytes, data: bytes) -> bytes:
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    return encryptor.update(data) + encryptor.finalize()


def _aes_ecb(key: bytes, data: bytes) -> bytes:
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    encryptor = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return encryptor.update(data) + encryptor.finalize()


def _pkcs7(data: bytes) -> bytes:
    n = 16 - len(data) % 16
    return data + bytes([n]) * n


class Security:
    """One document's encryption: ``key_bytes`` of RC4 (revision 2 or 3), AES-128 (revision 4,
    AESV2) or AES-256 (revision 6, AESV3); the user password is empty."""

    def __init__(self, kind: str, owner: bytes = b"owner") -> None:
        self.kind = kind
        if kind == "aes256":
            self.key = hashlib.sha256(b"webgrip file key").digest()
            self.dictionary = self._revision6(owner)
            return
        self.revision, self.n = {"rc4-40": (2, 5), "rc4-128": (3, 16), "aes128": (4, 16)}[kind]
        o_key = hashlib.md5(owner + PAD[: 32 - len(owner)]).digest()
        if self.revision >= 3:
            for _ in range(50):
                o_key = hashlib.md5(o_key[: self.n]).digest()
        o_value = rc4(o_key[: self.n], PAD)
        if self.revision >= 3:
            for i in range(1, 20):
                o_value = rc4(bytes(b ^ i for b in o_key[: self.n]), o_value)
        # Algorithm 2: the file key from the (empty) user password.
        key = hashlib.md5(PAD + o_value + struct.pack("<i", PERMISSIONS) + FILE_ID).digest()
        if self.revision >= 3:
            for _ in range(50):
                key = hashlib.md5(key[: self.n]).digest()
        self.key = key[: self.n]
        if self.revision == 2:
            u_value = rc4(self.key, PAD)
        else:
            u_value = rc4(self.key, hashlib.md5(PAD + FILE_ID).digest())
            for i in range(1, 20):
                u_value = rc4(bytes(b ^ i for b in self.key), u_value)
            u_value += bytes(16)
        version, filters = {2: (1, b""), 3: (2, b""), 4: (4, b"")}[self.revision]
        if self.revision == 4:
            filters = (
                b" /CF << /StdCF << /CFM /AESV2 /Length 16 /AuthEvent /DocOpen >> >>"
                b" /StmF /StdCF /StrF /StdCF"
            )
        self.dictionary = (
            b"<< /Filter /Standard /V %d /R %d /Length %d /P %d /O <%s> /U <%s>%s >>"
            % (
                version,
                self.revision,
                self.n * 8,
                PERMISSIONS,
                o_value.hex().encode(),
                u_value.hex().encode(),
                filters,
            )
        )

    def _revision6(self, owner: bytes) -> bytes:
        def hash_2b(password: bytes, salt: bytes, udata: bytes) -> bytes:
            k = hashlib.sha256(password + salt + udata).digest()
            i = 0
            while True:
                k1 = (password + k + udata) * 64
                e = _aes_cbc(k[:16], k[16:32], k1)
                k = {0: hashlib.sha256, 1: hashlib.sha384, 2: hashlib.sha512}[sum(e[:16]) % 3](
                    e
                ).digest()
                i += 1
                if i >= 64 and e[-1] <= i - 32:
                    return k[:32]

        seed = hashlib.sha256(b"webgrip salts").digest()
        u_valid, u_key, o_valid, o_key = seed[:8], seed[8:16], seed[16:24], seed[24:32]
        u_value = hash_2b(b"", u_valid, b"") + u_valid + u_key
        ue = _aes_cbc(hash_2b(b"", u_key, b""), bytes(16), self.key)
        o_value = hash_2b(owner, o_valid, u_value) + o_valid + o_key
        oe = _aes_cbc(hash_2b(owner, o_key, u_value), bytes(16), self.key)
        perms = _aes_ecb(self.key, struct.pack("<i", PERMISSIONS) + b"\xff" * 4 + b"Tadb" + b"wgrp")
        return (
            b"<< /Filter /Standard /V 5 /R 6 /Length 256 /P %d /O <%s> /U <%s> /OE <%s> /UE <%s>"
            b" /Perms <%s> /CF << /StdCF << /CFM /AESV3 /Length 32 /AuthEvent /DocOpen >> >>"
            b" /StmF /StdCF /StrF /StdCF >>"
            % (
                PERMISSIONS,
                o_value.hex().encode(),
                u_value.hex().encode(),
                oe.hex().encode(),
                ue.hex().encode(),
                perms.hex().encode(),
            )
        )

    def encrypt(self, number: int, data: bytes) -> bytes:
        """``data`` of object ``number`` (generation 0) encrypted (Algorithm 1's object key)."""
        iv = hashlib.md5(b"iv %d" % number).digest()
        if self.kind == "aes256":
            return iv + _aes_cbc(self.key, iv, _pkcs7(data))
        salt = b"sAlT" if self.kind == "aes128" else b""
        digest = hashlib.md5(self.key + struct.pack("<i", number)[:3] + b"\0\0" + salt).digest()
        key = digest[: min(self.n + 5, 16)]
        if self.kind == "aes128":
            return iv + _aes_cbc(key, iv, _pkcs7(data))
        return rc4(key, data)

    def trailer(self, encrypt_number: int) -> bytes:
        return b"/Encrypt %d 0 R /ID [<%s> <%s>]" % (
            encrypt_number,
            FILE_ID.hex().encode(),
            FILE_ID.hex().encode(),
        )


def encrypted_stream(sec: Security, number: int, content: bytes, dictionary: bytes = b"") -> bytes:
    """Object ``number``: ``content`` compressed, then encrypted, after ``dictionary``."""
    body = sec.encrypt(number, zlib.compress(content, 9))
    return b"<< %s /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream" % (
        dictionary,
        len(body),
        body,
    )


FONT = b"/Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >>"


def encrypted_form(sec: Security, page_content: bytes, form_content: bytes) -> bytes:
    """:func:`with_form`, encrypted: the page's content (object 4) paints form 5."""
    return pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
            b"/Resources << " + FONT + b" /XObject << /X 5 0 R >> >> >>",
            encrypted_stream(sec, 4, page_content),
            encrypted_stream(
                sec,
                5,
                form_content,
                b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << " + FONT + b" >>",
            ),
            sec.dictionary,
        ],
        sec.trailer(6),
    )


def encrypted_page(sec: Security, content: bytes) -> bytes:
    """One page whose content (object 4) is ``content``, encrypted."""
    return pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            PAGE % b"",
            encrypted_stream(sec, 4, content),
            sec.dictionary,
        ],
        sec.trailer(5),
    )


def encrypted_object_stream(sec: Security, resources: bytes) -> bytes:
    """One page whose ``/Resources`` (object 6) sits in an encrypted object stream (object 5),
    found through a cross-reference stream (object 7, never encrypted)."""
    content = b"BT /F1 12 Tf 72 720 Td (Page text) Tj ET"
    head = b"6 0 "
    packed = sec.encrypt(5, zlib.compress(head + resources, 9))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources 6 0 R >>",
        encrypted_stream(sec, 4, content),
        b"<< /Type /ObjStm /N 1 /First %d /Filter /FlateDecode /Length %d >>\nstream\n%s\n"
        b"endstream" % (len(head), len(packed), packed),
    ]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    encrypt_at = len(out)
    out += b"8 0 obj\n%s\nendobj\n" % sec.dictionary
    xref_at = len(out)
    rows = [b"\x00" + struct.pack(">IH", 0, 65535)]
    rows += [b"\x01" + struct.pack(">IH", off, 0) for off in offsets]
    rows += [b"\x02" + struct.pack(">IH", 5, 0)]  # object 6: the object stream's first
    rows += [b"\x01" + struct.pack(">IH", xref_at, 0), b"\x01" + struct.pack(">IH", encrypt_at, 0)]
    table = b"".join(rows)
    out += b"7 0 obj\n<< /Type /XRef /Size 9 /W [1 4 2] /Root 1 0 R %s /Length %d >>\nstream\n" % (
        sec.trailer(8),
        len(table),
    )
    out += table + b"\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % xref_at
    return bytes(out)


def bomb_stream(size: int) -> bytes:
    """``size`` bytes of spaces, compressed (in pieces: the whole is never in memory)."""
    packer = zlib.compressobj(9)
    piece = b" " * (1 << 20)
    return b"".join(packer.compress(piece) for _ in range(size >> 20)) + packer.flush()


def encrypted_bomb(sec: Security, size: int) -> bytes:
    body = sec.encrypt(4, bomb_stream(size))
    return pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            PAGE % b"",
            b"<< /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream" % (len(body), body),
            sec.dictionary,
        ],
        sec.trailer(5),
    )


def shared_content(pages: int, content: bytes, *, varied: bool) -> bytes:
    """``pages`` page objects naming one compressed content stream: alike entry for entry, or
    each with its own ``/StructParents`` (pages that differ, so none is read as another)."""
    content_number = 3 + pages
    page = (
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R "
        b"/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
        b">> >> >> %s >>"
    )
    kids = b" ".join(b"%d 0 R" % (3 + i) for i in range(pages))
    return pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, pages),
            *(
                page % (content_number, b"/StructParents %d" % i if varied else b"")
                for i in range(pages)
            ),
            stream(content, compress=True),
        ]
    )


# Six lines of text (the first two and last two are running lines on pages this alike) after
# 3.96 MB of path operators.
SHARED = (
    b"10 20 m 30 40 l\n" * 248_000
    + b"BT /F1 12 Tf 72 700 Td 14 TL "
    + b"".join(b"(Line %d of the page that every page names) '" % n for n in range(1, 7))
    + b" ET"
)

DEEP = b"[" * 30_000
SHAPES = {
    # Nested arrays as a content-stream operand (compressed: 721 bytes did it).
    "hostile-nested-content.pdf": one_page(stream(b"BT /F1 12 Tf " + DEEP + b" ET", compress=True)),
    # Nested dictionaries in the page dictionary, and arrays in the trailer.
    "hostile-nested-page.pdf": one_page(stream(b"BT ET"), b"/X " + b"<< /A " * 20_000),
    "hostile-nested-trailer.pdf": one_page(stream(b"BT ET"), trailer=b"/X " + DEEP),
    # Behind an unclosed string: the content parser fails on it and reads on one byte later.
    "hostile-nested-in-string.pdf": one_page(stream(b"BT (" + DEEP + b" ET", compress=True)),
    # A page tree whose /Pages node is its own kid, twice.
    "hostile-page-tree-loop.pdf": pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [2 0 R 2 0 R 3 0 R] /Count 3 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>",
        ]
    ),
    # 200,000 operands and no operator: the content parser rereads the operation from each
    # next byte (41 s of one core for 160,000 before the page scan refused it).
    "hostile-operands-no-operator.pdf": one_page(
        stream(b"BT /F1 12 Tf " + b"1 " * 200_000, compress=True)
    ),
    # A million one-character strings drawn on one page: about 18 KiB compressed.
    "hostile-text-flood.pdf": one_page(
        stream(b"BT /F1 1 Tf " + b"(x) Tj " * 1_000_000 + b"ET", compress=True)
    ),
    # A 1.25 MB run of digits in a text object (a fuzzed 9.7 KB file): the content parser
    # fails on it and reads it again from each next byte, 1,024 times.
    "hostile-long-token.pdf": one_page(
        stream(
            b"BT /F1 1 Tf (x) Tj (x)" + b" " * 1000 + b"1" * 1_250_000 + b"T  f ET", compress=True
        )
    ),
    # A string never closed, holding 100,000 `(`: each restart inside it opens a string that
    # runs on to the end (a fuzzed 6.4 KB file took 20 s).
    "hostile-unclosed-string.pdf": one_page(
        stream(b"BT /F1 1 Tf (x) Tj " + b"((((( x" * 20_000, compress=True)
    ),
    # 1,000 operands, 4 MiB of spaces, then a stray `)` (the shape of a fuzzed 9.6 KB file):
    # the content parser starts again after each operand byte, up to 1,024 times, and every
    # restart reads the spaces again (2.6 s a MiB; the operands' count alone looked harmless).
    "hostile-spaces-reread.pdf": one_page(
        stream(b"BT /F1 1 Tf (x) Tj " + b"1 " * 1000 + b" " * (4 << 20) + b" ) ET", compress=True)
    ),
    # 15,000 short runs, each at its own x with a gap before the next: every gap a candidate
    # column gutter (the layout tested each by filtering every run: seconds of CPU; the shape
    # of a fuzzed 66 KB file).
    # Set at 0.02 pt, 0.04 pt apart, so all of them fit across the page.
    "hostile-gutters.pdf": one_page(
        stream(
            b"BT /F1 0.02 Tf "
            + b"".join(
                b"1 0 0 1 %.2f %d Tm (12) Tj " % (10 + i * 0.04, 780 - i % 60 * 12)
                for i in range(15_000)
            )
            + b"ET",
            compress=True,
        )
    ),
    # One page painting one Form XObject 600 times, each under its own matrix, the form
    # drawing 20,000 one-character strings: the parser reads a form again for every matrix
    # and keeps every glyph (a 2.4 KB file ran the fuzzing build out of memory). The page's
    # own content is small; the forms it paints are charged to it (rust/pdf/src/forms.rs).
    "hostile-form-repeat.pdf": with_form(
        b"".join(b"q 1 0 0 1 %d 0 cm /X Do Q " % i for i in range(1, 601)),
        b"BT /F1 1 Tf " + b"(x) Tj " * 20_000 + b"ET",
    ),
    # hostile-text-flood.pdf's million strings moved into a form painted once.
    "hostile-form-flood.pdf": with_form(b"/X Do", b"BT /F1 1 Tf " + b"(x) Tj " * 1_000_000 + b"ET"),
    # Fifty page objects naming one content stream of 3.96 MB (a 16 KB file): each page paid
    # for reading it again, 50 times (9 s; 26 s in the fuzzing build, past its timeout).
    # Alike pages are read once (rust/pdf/src/repeats.rs); pages that differ stop at the
    # document's content budget (`Limits::max_content_bytes`), saying so.
    "hostile-shared-content.pdf": shared_content(50, SHARED, varied=False),
    "hostile-shared-content-varied.pdf": shared_content(50, SHARED, varied=True),
}

RC4_40 = Security("rc4-40")
READABLE = (
    b"BT /F1 14 Tf 72 720 Td (An encrypted document that reads) Tj 0 -20 Td "
    b"(with the empty user password.) Tj ET"
)
ENCRYPTED = {
    # Issue 45, F2: nesting the pre-pass could not see through RC4-40 with the empty user
    # password (1,627 and 1,909 bytes killed the process with SIGSEGV).
    "hostile-encrypted-nested-form.pdf": encrypted_form(
        RC4_40, b"/X Do", b"BT /F1 12 Tf " + b"[" * 500_000 + b" ET"
    ),
    "hostile-encrypted-nested-objstm.pdf": encrypted_object_stream(RC4_40, b"[" * 1_000_000),
    # F3: the charges encryption switched off. 100,000 nested arrays (the worker kept
    # spending 13 CPU-s after the call returned), hostile-form-repeat.pdf's form painted 599
    # times (+2.2 GiB), and an 80 MiB stream of spaces (one stream may inflate to 64 MiB).
    "hostile-encrypted-nested-100k.pdf": encrypted_object_stream(RC4_40, b"[" * 100_000),
    "hostile-encrypted-form-repeat.pdf": encrypted_form(
        RC4_40,
        b"".join(b"q 1 0 0 1 %d 0 cm /X Do Q " % i for i in range(1, 600)),
        b"BT /F1 1 Tf " + b"(x) Tj " * 20_000 + b"ET",
    ),
    "hostile-encrypted-bomb.pdf": encrypted_bomb(RC4_40, 80 << 20),
    # Benign documents under each handler the pre-passes decrypt: they must still read.
    "encrypted-rc4-128.pdf": encrypted_page(Security("rc4-128"), READABLE),
    "encrypted-aes-128.pdf": encrypted_page(Security("aes128"), READABLE),
    "encrypted-aes-256.pdf": encrypted_page(Security("aes256"), READABLE),
    "encrypted-objstm-rc4-40.pdf": encrypted_object_stream(RC4_40, b"<< " + FONT + b" >>"),
}


def main() -> None:
    for name, data in {**SHAPES, **ENCRYPTED}.items():
        (OUT / name).write_bytes(data)
        print(f"{name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
