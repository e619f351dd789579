"""SCAN_SETTLE: a chapter folder still being written (copied in by hand) is left out of the index
until nothing in it has changed for the settle time; the clock is injected, mtimes set with utime."""
import os
import time

import pytest

from library import index, service, snapshot
from library.scan import Scan
from mangacircus import events
from tests.library.conftest import make_page, scan

SETTLE = 5


def age(root, seconds):
    """Date every folder and file under root (and root) `seconds` back: an old, finished tree."""
    t = time.time() - seconds
    for folder, dirs, files in os.walk(root):
        for name in files + dirs:
            os.utime(os.path.join(folder, name), (t, t))
    os.utime(root, (t, t))


def copy_in(folder, pages=2):
    """A chapter as `cp -r` leaves it midway: the folder and its pages dated now."""
    for n in range(1, pages + 1):
        make_page(folder / f"{n:03d}.png")
    return folder


def settled_scan(root, previous=None, kind="shallow", at=None):
    return scan(root, previous, kind, settle=SETTLE, clock=(lambda: at) if at else time.time)


def settling(report):
    return [w["path"] for w in report["warnings"] if w["kind"] == "settling"]


def test_it_indexes_an_old_folder_at_once(library_dir):
    age(library_dir, 60)
    idx, report = settled_scan(library_dir, kind="full")
    assert idx.counts()["chapters"] == 3 and settling(report) == [] and report["settling"] == 0
    copy_in(library_dir / "Moon Garden" / "c0005 Five")
    age(library_dir / "Moon Garden" / "c0005 Five", 60)
    idx, report = settled_scan(library_dir, idx)
    assert idx.get("Moon Garden").chapter("0/5") is not None and settling(report) == []


def test_it_leaves_out_a_chapter_with_a_fresh_page_until_it_settles(library_dir):
    age(library_dir, 60)
    idx, _ = settled_scan(library_dir, kind="full")
    chapter = library_dir / "Moon Garden" / "c0005 Five"
    copy_in(chapter)
    age(chapter, 60)
    make_page(chapter / "003.png")  # the copy goes on: one page just written
    now = time.time()
    idx, report = settled_scan(library_dir, idx, at=now)
    assert idx.get("Moon Garden").chapter("0/5") is None
    assert settling(report) == ["Moon Garden/c0005 Five"] and report["settling"] == 1
    assert report["changed"] == {"added": [], "changed": [], "removed": []}
    [line] = [w for w in report["warnings"] if w["kind"] == "settling"]
    assert "being written" in line["message"] and f"{SETTLE} s" in line["message"]
    idx, report = settled_scan(library_dir, idx, at=now + 2)
    assert idx.get("Moon Garden").chapter("0/5") is None and report["settling"] == 1
    # Nothing touched the folder since: its stamp is the same, the shallow check looks again anyway.
    idx, report = settled_scan(library_dir, idx, at=now + SETTLE + 1)
    version = idx.get("Moon Garden").chapter("0/5").versions[0]
    assert version.files() == ["001.png", "002.png", "003.png"]
    assert report["changed"]["changed"] == ["Moon Garden"] and settling(report) == [] and report["settling"] == 0
    assert idx.settling == {}


def test_it_waits_for_a_folder_dated_in_the_future_to_stay_unchanged(library_dir):
    age(library_dir, 60)
    idx, _ = settled_scan(library_dir, kind="full")
    chapter = copy_in(library_dir / "Long Scroll" / "c0002 Skewed")
    t = time.time() + 86_400  # a clock that runs ahead on the file server
    for path in (chapter / "001.png", chapter / "002.png", chapter):
        os.utime(path, (t, t))
    now = time.time()
    idx, report = settled_scan(library_dir, idx, at=now)
    assert idx.get("Long Scroll").chapter("0/2") is None and "future" in report["warnings"][0]["message"]
    make_page(chapter / "003.png")
    os.utime(chapter / "003.png", (t, t))
    os.utime(chapter, (t + 1, t + 1))
    idx, report = settled_scan(library_dir, idx, at=now + SETTLE + 1)  # changed since the last look
    assert idx.get("Long Scroll").chapter("0/2") is None and report["settling"] == 1
    idx, report = settled_scan(library_dir, idx, at=now + 2 * SETTLE + 2)  # unchanged for SETTLE since
    assert len(idx.get("Long Scroll").chapter("0/2").versions[0].files()) == 3


def test_it_defers_a_chapter_whose_listing_changes_while_it_is_read(library_dir):
    age(library_dir, 60)
    idx, _ = settled_scan(library_dir, kind="full")
    chapter = copy_in(library_dir / "Moon Garden" / "c0006 Six")
    age(chapter, 60)
    check = Scan(library_dir, idx, "shallow", settle=SETTLE)
    stat = check.stat

    def stat_while_a_page_lands(path):  # between the two looks at the folder, the copy goes on
        if not (chapter / "003.png").exists():
            make_page(chapter / "003.png")
            os.utime(chapter / "003.png", (time.time() - 60, time.time() - 60))
        return stat(path)

    check.stat = stat_while_a_page_lands
    idx, report = check.run()
    assert idx.get("Moon Garden").chapter("0/6") is None and settling(report) == ["Moon Garden/c0006 Six"]
    assert "changed while it was read" in report["warnings"][0]["message"]
    idx, report = settled_scan(library_dir, idx, at=time.time() + SETTLE + 1)
    assert len(idx.get("Moon Garden").chapter("0/6").versions[0].files()) == 3


def test_it_keeps_an_indexed_chapter_while_a_page_is_added_to_it(library_dir):
    age(library_dir, 60)
    idx, _ = settled_scan(library_dir, kind="full")
    chapter = library_dir / "Moon Garden" / "b01 Spring" / "c0001 Seeds"
    make_page(chapter / "003.png")
    idx, report = settled_scan(library_dir, idx)
    assert idx.get("Moon Garden").chapter("1/1").versions[0].files() == ["001.png", "002.png"]
    assert settling(report) == ["Moon Garden/b01 Spring/c0001 Seeds"]
    idx, report = settled_scan(library_dir, idx, at=time.time() + SETTLE + 1)
    assert idx.get("Moon Garden").chapter("1/1").versions[0].files() == ["001.png", "002.png", "003.png"]


def test_it_does_not_warn_of_an_empty_manga_whose_chapters_settle(library_dir):
    age(library_dir, 60)
    idx, _ = settled_scan(library_dir, kind="full")
    copy_in(library_dir / "Sea Glass" / "c0001 Shore")
    idx, report = settled_scan(library_dir, idx)
    assert idx.get("Sea Glass") is None
    assert [(w["kind"], w["path"]) for w in report["warnings"]] == [("settling", "Sea Glass/c0001 Shore")]
    idx, report = settled_scan(library_dir, idx, at=time.time() + SETTLE + 1)
    assert report["changed"]["added"] == ["Sea Glass"]


def test_it_is_off_at_zero(library_dir):
    idx, report = scan(library_dir, settle=0)
    assert idx.counts()["chapters"] == 3 and report["settling"] == 0


@pytest.fixture
def settling_service(settings, library_dir, data_dir):
    settings.LIBRARY, settings.DATA = library_dir, data_dir
    settings.SCAN_INTERVAL, settings.FULL_SCAN_INTERVAL, settings.SCAN_SETTLE = 0, 1440, 0.4
    age(library_dir, 60)
    return settings


def test_it_checks_again_within_the_settle_time_without_periodic_checks(settling_service, library_dir):
    reports = []
    events.scan_finished.connect(lambda idx, report: reports.append(report))
    service.start()
    assert service.request_scan(wait=True, timeout=10)["settling"] == 0
    copy_in(library_dir / "Moon Garden" / "c0007 Seven")
    report = service.request_scan(wait=True, timeout=10)
    assert report["settling"] == 1 and index.current().get("Moon Garden").chapter("0/7") is None
    # Wait for the scan's own event: the index is replaced a moment before its report is announced.
    deadline = time.monotonic() + 5
    announced = lambda: [r for r in reports if r["changed"]["changed"] == ["Moon Garden"]]  # noqa: E731
    while not announced() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert index.current().get("Moon Garden").chapter("0/7") is not None  # no request: scheduled by the deferral
    assert [r["kind"] for r in announced()] == ["shallow"]
    assert len(reports) <= 6  # rechecked a few times, not in a loop


def test_it_looks_again_at_a_settling_folder_after_a_restore(library_dir, tmp_path):
    age(library_dir, 60)
    idx, _ = settled_scan(library_dir, kind="full")
    copy_in(library_dir / "Moon Garden" / "c0008 Eight")
    idx, report = settled_scan(library_dir, idx)
    assert report["settling"] == 1
    snapshot.save(tmp_path / "snapshot.json", idx, library_dir, None)
    restored, _, why = snapshot.load(tmp_path / "snapshot.json", library_dir)
    assert why is None and restored.settling == {}
    idx, report = settled_scan(library_dir, restored, at=time.time() + SETTLE + 1)
    assert idx.get("Moon Garden").chapter("0/8") is not None and report["settling"] == 0
