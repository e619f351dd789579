"""The library page's per-manga summary cache: reused across requests and scans, rebuilt only for
the manga a scan changed, and never stale."""
import os
import shutil
import time

import pytest

from library.scan import Scan
from shelf import summaries
from tests.conftest import make_page


@pytest.fixture(autouse=True)
def empty_cache():
    summaries.clear()
    yield
    summaries.clear()


def _scan(root, previous=None, kind="full"):
    index, report = Scan(root, previous, kind).run()
    assert report["error"] is None, report
    return index, report


def _add_chapter(manga_folder, name):
    make_page(manga_folder / name / "001.png")
    later = time.time() + 5  # folder times can be too coarse to see a quick change
    os.utime(manga_folder, (later, later))


def test_it_builds_each_summary_once_and_keeps_it_while_the_manga_is_unchanged(library_dir):
    index, _ = _scan(library_dir)
    first = summaries.ordered(index)
    assert [s.name for s in first] == ["Long Scroll", "Moon Garden"]
    moon = summaries.by_name(index)["Moon Garden"]
    assert moon.chapter_ids == ("1/1", "1/2") and "a. writer" in moon.search
    assert summaries.ordered(index) is first
    again, report = _scan(library_dir, index, "shallow")
    summaries.on_scan(again, report)
    assert summaries.by_name(again)["Moon Garden"] is moon


def test_it_rebuilds_only_the_manga_a_scan_changed(library_dir):
    index, _ = _scan(library_dir)
    before = summaries.by_name(index)
    _add_chapter(library_dir / "Long Scroll", "c0002 Next [Official]")
    after_index, report = _scan(library_dir, index, "shallow")
    assert report["changed"]["changed"] == ["Long Scroll"]
    summaries.on_scan(after_index, report)
    after = summaries.by_name(after_index)
    assert after["Long Scroll"].chapter_ids == ("0/1", "0/2")
    assert after["Long Scroll"] is not before["Long Scroll"]
    assert after["Moon Garden"] is before["Moon Garden"]


def test_it_never_serves_a_stale_summary_even_without_the_hook(library_dir):
    index, _ = _scan(library_dir)
    summaries.ordered(index)
    _add_chapter(library_dir / "Long Scroll", "c0002 Next [Official]")
    (library_dir / "Moon Garden" / "manga.json").write_text('{"title": "Moon Garden Renamed"}')
    os.utime(library_dir / "Moon Garden", (time.time() + 5,) * 2)
    new_index, _ = _scan(library_dir, index, "shallow")
    by_name = summaries.by_name(new_index)  # no on_scan call: the Manga objects differ
    assert by_name["Long Scroll"].chapter_ids == ("0/1", "0/2")
    assert by_name["Moon Garden"].title == "Moon Garden Renamed"


def test_it_forgets_removed_manga(library_dir):
    index, _ = _scan(library_dir)
    summaries.ordered(index)
    shutil.rmtree(library_dir / "Long Scroll")
    new_index, report = _scan(library_dir, index, "shallow")
    summaries.on_scan(new_index, report)
    assert [s.name for s in summaries.ordered(new_index)] == ["Moon Garden"]
    assert "Long Scroll" not in summaries._cache


def test_a_cover_is_looked_at_only_when_shown_and_then_once(library_dir, monkeypatch):
    """The cover's URL names its thumbnail by the file's stat, behind the library's path checks: made
    for every manga at once, 10,000 of them kept the first library page waiting."""
    looked = []
    real = summaries.lookup.cover_url
    monkeypatch.setattr(summaries.lookup, "cover_url", lambda manga: looked.append(manga.name) or real(manga))
    index, _ = _scan(library_dir)
    moon = summaries.by_name(index)["Moon Garden"]
    assert looked == []
    assert moon.cover == real(index.get("Moon Garden")) and moon.cover.startswith("thumb/Moon%20Garden")
    assert looked == ["Moon Garden"]
