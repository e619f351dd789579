"""library/imagesize.py against Pillow-made files of every page format, and against broken ones."""
import os
import struct
import zlib

import pytest
from PIL import Image

from library import imagesize

SIZE = (37, 23)


def _save(path, fmt, size=SIZE, mode="RGB", **kw):
    Image.new(mode, size, (90, 120, 200) if mode == "RGB" else 0).save(path, fmt, **kw)
    return path


def _orientation(value):
    exif = Image.Exif()
    exif[0x0112] = value
    return exif


@pytest.mark.parametrize("name, fmt, kw, expected", [
    ("a.jpg", "JPEG", {}, SIZE),
    ("progressive.jpg", "JPEG", {"progressive": True}, SIZE),
    ("exif.jpg", "JPEG", {"exif": _orientation(1)}, SIZE),
    ("turned.jpg", "JPEG", {"exif": _orientation(6)}, SIZE[::-1]),
    ("turned8.jpg", "JPEG", {"exif": _orientation(8)}, SIZE[::-1]),
    ("mirrored.jpg", "JPEG", {"exif": _orientation(2)}, SIZE),
    ("big-icc.jpg", "JPEG", {"icc_profile": b"\x00" * 1_000_000}, SIZE),
    ("a.png", "PNG", {}, SIZE),
    ("a.gif", "GIF", {}, SIZE),
    ("lossy.webp", "WEBP", {}, SIZE),
    ("lossless.webp", "WEBP", {"lossless": True}, SIZE),
    ("extended.webp", "WEBP", {"exif": _orientation(1)}, SIZE),
    ("a.avif", "AVIF", {}, SIZE),
    ("turned.avif", "AVIF", {"exif": _orientation(6)}, SIZE[::-1]),
])
def test_it_reads_the_displayed_size_of_every_format(tmp_path, name, fmt, kw, expected):
    path = _save(tmp_path / name, fmt, **kw)
    assert imagesize.size(path) == expected


def test_it_reads_large_sizes_and_alpha(tmp_path):
    assert imagesize.size(_save(tmp_path / "wide.webp", "WEBP", size=(5000, 3), mode="RGBA")) == (5000, 3)
    assert imagesize.size(_save(tmp_path / "tall.png", "PNG", size=(3, 16000))) == (3, 16000)


def test_it_follows_a_jpeg_past_a_megabyte_of_exif(tmp_path):
    path = _save(tmp_path / "a.jpg", "JPEG")
    data = path.read_bytes()
    # 16 APP1 segments of ~64 KB each between SOI and the rest: the frame header starts past 1 MB.
    filler = b"".join(b"\xff\xe1\xff\xff" + b"\x00" * 65533 for _ in range(16))
    path.write_bytes(data[:2] + filler + data[2:])
    assert path.stat().st_size > 1_000_000
    assert imagesize.size(path) == SIZE


def _png_header(w, h):
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))


def test_it_reports_a_declared_size_without_decoding(tmp_path):
    path = tmp_path / "bomb.png"
    path.write_bytes(_png_header(100_000, 100_000))
    assert imagesize.size(path) == (100_000, 100_000)


@pytest.mark.parametrize("content", [
    b"", b"\xff\xd8", b"\xff\xd8\xff", b"GIF89a\x01", b"RIFF\x00\x00\x00\x00WEBPVP8 ",
    b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>",
    b"<!doctype html><title>x</title>", os.urandom(2048), b"\x00" * 100,
    _png_header(0, 10), b"\x89PNG\r\n\x1a\n" + b"\x00" * 20,
])
def test_it_returns_none_for_unreadable_headers(tmp_path, content):
    path = tmp_path / "bad.jpg"
    path.write_bytes(content)
    assert imagesize.size(path) is None


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "GIF", "WEBP", "AVIF"])
def test_it_never_raises_on_truncated_files(tmp_path, fmt):
    good = _save(tmp_path / f"good.{fmt.lower()}", fmt, size=(300, 200)).read_bytes()
    for cut in range(0, min(len(good), 400), 7):
        path = tmp_path / f"cut{cut}"
        path.write_bytes(good[:cut])
        assert imagesize.size(path) in (None, (300, 200))


def test_it_returns_none_for_missing_files_and_folders(tmp_path):
    assert imagesize.size(tmp_path / "missing.jpg") is None
    assert imagesize.size(tmp_path) is None


@pytest.mark.parametrize("head, kind", [
    (b"\xff\xd8\xff\xe0", "jpeg"), (b"\x89PNG\r\n\x1a\n", "png"), (b"GIF87a", "gif"),
    (b"RIFF\x10\x00\x00\x00WEBPVP8 ", "webp"),
    (b"\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1miaf", "avif"),
    (b"\x00\x00\x00\x1cftypmif1\x00\x00\x00\x00mif1avifmiaf", "avif"),
    (b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic", None),
    (b"<svg", None), (b"<html>", None), (b"PK\x03\x04", None), (b"", None),
])
def test_it_detects_formats_by_magic_bytes(head, kind):
    assert imagesize.detect(head) == kind
