"""Hostile and broken archives: each is a warning in the scan report, never a crash or a stall, and
the rest of the library is still read."""
import shutil
import struct
import zipfile
import zlib
from pathlib import Path

import pytest

from library import zipread
from library.scan import Scan
from tests.conftest import make_page
from tests.library.cbz import make_cbz, pages
from tests.library.images import png_bytes


def _scan(root, previous=None, **kw):
    index, report = Scan(root, previous, "full", **kw).run()
    assert report["error"] is None, report["error"]
    return index, report


def _warnings(report, path):
    return [(w["kind"], w["message"]) for w in report["warnings"] if w["path"].startswith(path)]


def _patch(path, old, new, count=-1):
    data = path.read_bytes()
    assert old in data
    path.write_bytes(data.replace(old, new, count))


def _zip64_end(path):
    """Rewrite a small ZIP's end record the ZIP64 way (0xFFFF / 0xFFFFFFFF and the ZIP64 records)."""
    data = path.read_bytes()
    at = data.rfind(b"PK\x05\x06")
    entries, cd_size, cd_offset = struct.unpack_from("<HII", data, at + 10)
    rec64 = struct.pack("<4sQHHIIQQQQ", b"PK\x06\x06", 44, 45, 45, 0, 0, entries, entries, cd_size, cd_offset)
    locator = struct.pack("<4sIQI", b"PK\x06\x07", 0, at, 1)
    end = struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    path.write_bytes(data[:at] + rec64 + locator + end)


def _many_empty_members(count):
    """A ZIP of `count` empty stored members, written directly (zipfile takes seconds for 100,000)."""
    local, central = [], []
    offset = 0
    for i in range(count):
        name = f"{i:06d}.png".encode()
        header = struct.pack("<4s5H3I2H", b"PK\x03\x04", 20, 0, 0, 0, 33, 0, 0, 0, len(name), 0) + name
        central.append(struct.pack("<4s6H3I5H2I", b"PK\x01\x02", 20, 20, 0, 0, 0, 33, 0, 0, 0, len(name), 0, 0, 0,
                                   0, 0, offset) + name)
        local.append(header)
        offset += len(header)
    directory = b"".join(central)
    end = struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, len(directory), offset, 0)
    rec64 = struct.pack("<4sQHHIIQQQQ", b"PK\x06\x06", 44, 45, 45, 0, 0, count, count, len(directory), offset)
    locator = struct.pack("<4sIQI", b"PK\x06\x07", 0, offset + len(directory), 1)
    return b"".join(local) + directory + rec64 + locator + end


@pytest.fixture
def manga(tmp_path):
    root = tmp_path / "library"
    make_page(root / "Fine" / "c0001" / "001.png")
    return root, root / "Hostile"


def test_it_reports_truncated_and_corrupt_archives_and_reads_the_rest(manga):
    root, m = manga
    whole = make_cbz(m / "c001.cbz", pages(3)).read_bytes()
    (m / "c002.cbz").write_bytes(whole[:len(whole) // 2])  # cut in the middle: no end record
    (m / "c003.cbz").write_bytes(whole[:-10])  # cut in the end record
    corrupt = bytearray(whole)
    cd = corrupt.rfind(b"PK\x01\x02")
    corrupt[cd:cd + 4] = b"XXXX"
    (m / "c004.cbz").write_bytes(bytes(corrupt))
    (m / "c005.cbz").write_bytes(b"")
    beyond = bytearray(whole)
    at = beyond.rfind(b"PK\x05\x06")
    beyond[at + 16:at + 20] = struct.pack("<I", len(whole) + 1000)  # the directory "lies" past the end
    (m / "c006.cbz").write_bytes(bytes(beyond))
    index, report = _scan(root)
    assert [c.id for c in index.get("Hostile").chapters()] == ["0/1"]
    assert index.get("Fine") is not None
    found = {path: _warnings(report, f"Hostile/{path}") for path in ("c002.cbz", "c003.cbz", "c004.cbz", "c005.cbz",
                                                                      "c006.cbz")}
    assert found["c002.cbz"] == [("unreadable-archive", "not read: it has no ZIP end record: it is truncated, "
                                                        "or not a ZIP archive")]
    assert "no ZIP end record" in found["c003.cbz"][0][1]
    assert "central directory is corrupt at entry" in found["c004.cbz"][0][1]
    assert "not a ZIP archive, or truncated" in found["c005.cbz"][0][1]
    assert "beyond the end of the file" in found["c006.cbz"][0][1]


def test_it_refuses_zip_bombs_by_ratio_size_and_total(manga, monkeypatch):
    root, m = manga
    bomb = png_bytes() + bytes(8 << 20)  # a PNG header, then 8 MB of zeros: deflates ~1000:1
    make_cbz(m / "c001.cbz", {"001.png": png_bytes(), "002.png": bomb}, deflate=True)
    make_cbz(m / "c002.cbz", pages(3))
    monkeypatch.setattr(zipread, "MAX_TOTAL", 1000)  # the archive-wide cap, made small enough to reach
    index, report = _scan(root)
    v = index.get("Hostile").chapter("0/1").versions[0]
    assert v.files() == ["001.png"]
    packed = zipfile.ZipFile(m / "c001.cbz").getinfo("002.png").compress_size
    assert _warnings(report, "Hostile/c001.cbz/002.png") == [
        ("archive-member", f"not read: it would unpack to {len(bomb):,} bytes from {packed:,}: refused as a zip bomb")]
    assert "refused as a zip bomb" in _warnings(report, "Hostile/c002.cbz")[0][1]
    assert index.get("Hostile").chapter("0/2") is None


def test_it_refuses_an_archive_of_100000_members_without_reading_them(manga):
    root, m = manga
    path = m / "c001.cbz"
    path.parent.mkdir(parents=True)
    path.write_bytes(_many_empty_members(100_000))
    index, report = _scan(root)
    assert _warnings(report, "Hostile/c001.cbz") == [
        ("unreadable-archive", "not read: it holds 100,000 members; at most 20,000 are read")]
    assert report["work"]["headers"] == 1  # Fine's one page; none of the archive's


def test_it_refuses_bad_members_by_name_and_kind_and_reads_the_good_ones(manga):
    root, m = manga
    path = make_cbz(m / "c001.cbz", {"001.png": png_bytes(), "../escape.png": png_bytes(), "/abs.png": png_bytes(),
                                     "C:/drive.png": png_bytes(), "ctl\x01.png": png_bytes(),
                                     "bad-é.png": png_bytes(), "secret.png": png_bytes(), "lzma.png": png_bytes()})
    with pytest.warns(UserWarning):  # zipfile itself warns about the duplicate
        with zipfile.ZipFile(path, "a") as z:
            z.writestr("001.png", b"the second copy")
    _patch(path, "bad-é.png".encode(), b"bad-\xff\xfe.png")  # invalid UTF-8, flagged as UTF-8
    data = bytearray(path.read_bytes())
    for name, flag_or_method in ((b"secret.png", "encrypted"), (b"lzma.png", "method")):
        at = data.rfind(b"PK\x01\x02", 0, data.rfind(name))
        if flag_or_method == "encrypted":
            data[at + 8] |= 1
        else:
            data[at + 10:at + 12] = struct.pack("<H", 14)
    path.write_bytes(bytes(data))
    index, report = _scan(root)
    v = index.get("Hostile").chapter("0/1").versions[0]
    assert v.files() == ["001.png"] and v.sizes() == [(40, 60)]
    found = dict((w["path"].removeprefix("Hostile/c001.cbz/"), w["message"]) for w in report["warnings"]
                 if w["kind"] == "archive-member")
    assert found == {
        "../escape.png": "not read: its name has a '..' or '.' part",
        "/abs.png": "not read: its name is an absolute path",
        "C:/drive.png": "not read: its name is an absolute path",
        "ctl\x01.png": "not read: its name holds control characters",
        "bad-\ufffd\ufffd.png": "not read: its name is not valid UTF-8",
        "secret.png": "not read: it is encrypted",
        "lzma.png": "not read: it is compressed with method 14; only stored and deflate are read",
        "001.png": "not read: it appears twice in the archive: the first one is read",
    }


def test_it_reads_zip64_archives(manga):
    root, m = manga
    path = make_cbz(m / "c001.cbz", pages(3), deflate=True)
    _zip64_end(path)
    assert len(zipfile.ZipFile(path).namelist()) == 3  # the standard library reads it too
    index, report = _scan(root)
    assert index.get("Hostile").chapter("0/1").versions[0].sizes() == [(40, 60)] * 3
    assert not _warnings(report, "Hostile")


def test_it_reads_a_cbz_that_is_a_rar_as_a_rar_and_names_a_broken_one(manga):
    root, m = manga
    m.mkdir()
    (m / "c001.cbz").write_bytes(b"Rar!\x1a\x07\x01\x00" + bytes(200))
    (m / "c002.cbr").write_bytes(b"Rar!\x1a\x07\x01\x00" + bytes(200))
    make_cbz(m / "c003.cbz", pages(1))
    shutil.copy(Path(__file__).parent / "fixtures" / "komga" / "rar4.rar", m / "c004.cbz")  # Komga's, misnamed
    index, report = _scan(root)
    for name in ("c001.cbz", "c002.cbr"):
        (kind, message), = _warnings(report, f"Hostile/{name}")
        assert kind == "unreadable-archive" and message.startswith("not read: libarchive cannot read it"), message
    assert index.get("Hostile").chapter("0/4").versions[0].files() == ["komga-1.png", "komga-2.png", "komga-3.png"]


class ChangingScan(Scan):
    """A scan during which someone rewrites the archive right after it was read."""

    def read_archive(self, path, rel):
        listing = super().read_archive(path, rel)
        make_cbz(type(self).target, pages(5))
        return listing


def test_it_leaves_out_an_archive_that_changes_while_it_is_read_and_reads_it_next_time(manga):
    root, m = manga
    ChangingScan.target = make_cbz(m / "c001.cbz", pages(2))
    make_cbz(m / "c002.cbz", pages(1))
    index, report = ChangingScan(root, None, "full").run()
    assert ("settling", "still being written (it changed while it was read): indexed once it has not changed "
                        "for 0 s") in _warnings(report, "Hostile/c001.cbz")
    assert [c.id for c in index.get("Hostile").chapters()] == ["0/2"]
    again, report = Scan(root, index, "shallow").run()
    assert again.get("Hostile").chapter("0/1").versions[0].page_count == 5


def test_it_warns_about_archives_it_does_not_read_anywhere(tmp_path):
    root = tmp_path / "library"
    make_cbz(root / "loose.cbz", pages(1))
    (root / "book.pdf").write_bytes(b"%PDF-1.4")
    make_cbz(root / "M" / "c0001" / "inner.cbz", pages(1))
    make_page(root / "M" / "c0001" / "001.png")
    (root / "M" / "v01").mkdir()
    (root / "M" / "v01" / "c001.mobi").write_bytes(b"BOOKMOBI")
    index, report = _scan(root)
    kinds = {(w["kind"], w["path"]) for w in report["warnings"]}
    assert {("skipped-file", "loose.cbz"), ("skipped-file", "book.pdf"), ("skipped-file", "M/c0001/inner.cbz"),
            ("skipped-file", "M/v01/c001.mobi")} <= kinds


def test_it_serves_only_what_the_declared_size_allows_from_a_deflated_member(tmp_path):
    path = make_cbz(tmp_path / "a.cbz", {"001.png": png_bytes()}, deflate=True)
    with open(path, "rb") as f:
        size = path.stat().st_size
        (member,), _ = zipread.directory(f, size)
        start, _head = zipread.data_start(f, member, size)
        assert b"".join(zipread.chunks(f, member, start, 7)) == png_bytes()
        short = member._replace(size=10)
        assert b"".join(zipread.chunks(f, short, start)) == png_bytes()[:10]
        garbage = member._replace(method=8, offset=0)
        assert len(b"".join(zipread.chunks(f, garbage, 0))) <= member.size
    assert zlib.crc32(png_bytes()) == member.crc
