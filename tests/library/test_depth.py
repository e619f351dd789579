"""Depth rules (docs/library.md, "What else the scanner accepts"): volume folders of archives, chapter
folders holding archives, folders of archives without a number, Specials/, a downloader's root."""
import os
from pathlib import Path

from tests.library.cbz import make_cbz, pages
from tests.library.conftest import publish, scan


def cbz(root, rel):
    make_cbz(Path(root) / rel, pages(2))


def chapters(manga):
    return {f"{b.key}/{c.key}": sorted(v.path for v in c.versions) for b in manga.books for c in b.chapters}


def test_archives_one_folder_down_are_read(tmp_path):
    cbz(tmp_path, "Series/Series v01/Series v01 c001.cbz")
    cbz(tmp_path, "Series/Series v01/Series v01 c002.cbz")
    cbz(tmp_path, "Series/Chapter 5/01.cbz")
    cbz(tmp_path, "Series/Series - Bonus/Series c010.cbz")
    cbz(tmp_path, "Series/Specials/Series SP01.cbz")
    idx, report = scan(tmp_path)
    assert report["error"] is None
    assert chapters(idx.get("Series")) == {
        "0/5": ["Series/Chapter 5/01.cbz"],
        "0/10": ["Series/Series - Bonus/Series c010.cbz"],
        "1/1": ["Series/Series v01/Series v01 c001.cbz"],
        "1/2": ["Series/Series v01/Series v01 c002.cbz"],
        "x1/1": ["Series/Specials/Series SP01.cbz"],
    }
    assert not [w for w in report["warnings"] if w["kind"] in ("skipped-folder", "skipped-file")]


def test_a_new_archive_in_a_chapter_folder_is_seen_by_a_shallow_scan(tmp_path):
    cbz(tmp_path, "Series/Chapter 5/01.cbz")
    idx, _ = scan(tmp_path)
    cbz(tmp_path, "Series/Chapter 5/01 [Other].cbz")
    folder = tmp_path / "Series" / "Chapter 5"
    st = folder.stat()
    os.utime(folder, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    again, _ = scan(tmp_path, idx, "shallow")
    assert chapters(again.get("Series"))["0/5"] == ["Series/Chapter 5/01 [Other].cbz", "Series/Chapter 5/01.cbz"]


def test_a_downloaders_root_is_one_clear_warning(tmp_path):
    publish(tmp_path / "MangaDex (EN)" / "One Piece" / "Chapter 1")
    publish(tmp_path / "MangaDex (EN)" / "Berserk" / "Vol.1 Ch.1")
    idx, report = scan(tmp_path)
    warnings = [w for w in report["warnings"] if w["path"].startswith("MangaDex (EN)")]
    assert [w["kind"] for w in warnings] == ["manga-folders"]
    assert "Berserk, One Piece" in warnings[0]["message"] and "LIBRARY" in warnings[0]["message"]
    assert idx.get("MangaDex (EN)") is None
