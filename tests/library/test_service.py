"""library/service.py: restore, the background scanner, merged requests, hooks and reports."""
import threading
import time

import pytest

from library import index, service
from mangacircus import events, incidents
from tests.library.conftest import publish
from tests.support.clock import FakeClock


@pytest.fixture
def configured(settings, library_dir, data_dir):
    settings.LIBRARY = library_dir
    settings.DATA = data_dir
    settings.SCAN_INTERVAL = 0
    settings.FULL_SCAN_INTERVAL = 1440
    return settings


def wait_for(predicate, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def test_it_runs_a_full_scan_without_a_snapshot_and_saves_one(configured, data_dir):
    seen = []
    events.scan_finished.connect(lambda idx, report: seen.append((idx, report)))
    service.start()
    assert wait_for(lambda: seen)
    idx, report = seen[0]
    assert report["kind"] == "full" and idx is index.current() and len(idx) == 2
    assert report["changed"]["added"] == ["Long Scroll", "Moon Garden"]
    assert wait_for(lambda: (data_dir / "library-index.json").exists() and (data_dir / "scan-cache.json").exists())
    assert wait_for(lambda: service.admin_summary()["scans"])  # kept once the hooks have run
    assert service.admin_summary()["scans"][0]["kind"] == "full"


def test_it_restores_before_any_walk_and_keeps_the_last_full_time(configured, library_dir):
    service.start()
    assert service.request_scan(wait=True, timeout=10) is not None
    service.stop()
    index.replace(index.Index())
    seen = []
    events.scan_finished.connect(lambda idx, report: seen.append(report))
    service.start()
    assert len(index.current()) == 2  # browsable as soon as start() returns
    assert wait_for(lambda: len(seen) >= 2)
    restore, check = seen[0], seen[1]
    assert restore["kind"] == "restore" and restore["changed"]["changed"] == ["Long Scroll", "Moon Garden"]
    assert check["kind"] == "shallow"  # the last full scan was moments ago, and that survived the restart
    assert check["work"]["listings"] == 0


def test_a_full_scan_that_changes_nothing_keeps_the_index_and_writes_no_file(configured, library_dir, data_dir):
    service.start()
    assert service.request_scan(full=True, wait=True, timeout=10) is not None
    files = [data_dir / "library-index.json", data_dir / "scan-cache.json"]
    written = [f.stat().st_ino for f in files]  # every write is a rename over the file: a new inode
    before = index.current()
    report = service.request_scan(full=True, wait=True, timeout=10)
    assert report["kind"] == "full" and report["changed"] == {"added": [], "changed": [], "removed": []}
    assert index.current() is before
    assert [f.stat().st_ino for f in files] == written
    publish(library_dir / "Moon Garden" / "c0042 Answer")
    report = service.request_scan(full=True, wait=True, timeout=10)
    assert report["changed"]["changed"] == ["Moon Garden"] and index.current() is not before
    assert all(f.stat().st_ino != ino for f, ino in zip(files, written))


def test_it_waits_for_a_requested_scan_and_merges_requests(configured, library_dir):
    service.start()
    assert service.request_scan(wait=True, timeout=10)["kind"] in ("full", "shallow")
    inside, release, kinds = threading.Event(), threading.Event(), []

    def slow_hook(idx, report):
        kinds.append(report["kind"])
        inside.set()
        release.wait(10)

    events.scan_finished.connect(slow_hook)
    service.request_scan()
    assert inside.wait(10)  # a scan is running now, held in its hook
    publish(library_dir / "Moon Garden" / "c0042 Answer")
    threads = [threading.Thread(target=service.request_scan, kwargs={"wait": True, "timeout": 10}) for _ in range(6)]
    for t in threads:
        t.start()
    assert wait_for(lambda: service._scanner.requested == 8)
    release.set()
    for t in threads:
        t.join()
    assert kinds == ["shallow", "shallow"]  # six requests during a scan: merged into one more
    assert index.current().get("Moon Garden").chapter("0/42") is not None
    report = service.request_scan(full=True, wait=True, timeout=10)
    assert report["kind"] == "full" and report["changed"] == {"added": [], "changed": [], "removed": []}


def test_it_keeps_the_index_when_the_library_disappears(configured, library_dir, tmp_path, data_dir):
    service.start()
    service.request_scan(wait=True, timeout=10)
    before = index.current()
    library_dir.rename(tmp_path / "unmounted")
    report = service.request_scan(full=True, wait=True, timeout=10)
    assert "cannot be read" in report["error"] and report["unavailable"]
    kept = index.current()
    assert kept.manga == before.manga and all(kept.manga[n] is m for n, m in before.manga.items())
    why = f"the library at {library_dir} cannot be read (No such file or directory): is it mounted?"
    assert kept.unavailable == why
    assert service.unavailable() == kept.unavailable and service.health()["unavailable"] == kept.unavailable
    service.request_scan(full=True, wait=True, timeout=10)  # still gone: no second incident
    (tmp_path / "unmounted").rename(library_dir)
    report = service.request_scan(wait=True, timeout=10)
    assert report["error"] is None and index.current().unavailable is None and len(index.current()) == 2
    assert service.unavailable() is None
    found = [i for i in incidents.read(data_dir) if i["kind"] in ("library-unavailable", "scan-failed")]
    assert [i["kind"] for i in found] == ["library-unavailable"]
    assert str(library_dir) in found[0]["message"]


def test_a_library_missing_at_start_is_unavailable_with_the_last_index(configured, library_dir, tmp_path, data_dir):
    service.start()
    service.request_scan(wait=True, timeout=10)
    service.stop()
    library_dir.rename(tmp_path / "unmounted")
    index.replace(index.Index())
    service.start()
    assert wait_for(lambda: index.current().unavailable is not None)
    assert sorted(index.current().manga) == ["Long Scroll", "Moon Garden"]  # the snapshot, kept
    assert [i["kind"] for i in incidents.read(data_dir)] == ["library-unavailable"]


def test_a_library_missing_at_the_first_start_is_unavailable_not_empty(configured, library_dir, tmp_path):
    library_dir.rename(tmp_path / "unmounted")
    service.start()
    assert wait_for(lambda: index.current().unavailable is not None)
    assert len(index.current()) == 0 and "cannot be read" in service.unavailable()


def test_it_survives_a_failing_hook(configured):
    def broken(idx, report):
        raise RuntimeError("boom")

    good = []
    events.scan_finished.connect(broken)
    events.scan_finished.connect(lambda idx, report: good.append(report))
    service.start()
    assert wait_for(lambda: good)


def test_it_reports_when_library_is_not_set(settings):
    settings.LIBRARY = None
    service.start()
    assert service.admin_summary()["error"] == "LIBRARY is not set"
    assert service.request_scan(wait=True) is None


def test_it_checks_on_its_own_every_scan_interval(configured, library_dir):
    configured.SCAN_INTERVAL = 1
    kinds, clock = [], FakeClock()
    events.scan_finished.connect(lambda idx, report: kinds.append(report["kind"]))
    service.start(clock=clock)
    assert wait_for(lambda: kinds == ["full"] and not service.admin_summary()["scanning"])
    publish(library_dir / "Moon Garden" / "b01 Spring" / "c0003 Leaves")
    clock.advance(61)  # a minute has passed
    service.wake()
    assert wait_for(lambda: kinds == ["full", "shallow"])
    assert index.current().get("Moon Garden").chapter("1/3") is not None


def test_it_backs_off_after_a_failed_scan(configured, library_dir, tmp_path):
    configured.SCAN_INTERVAL = 1
    library_dir.rename(tmp_path / "gone")
    clock = FakeClock()
    service.start(clock=clock)
    assert wait_for(lambda: service.admin_summary()["scans"])
    scans = service.admin_summary()["scans"]
    assert len(scans) == 1 and "cannot be read" in scans[0]["error"]
    # No retry loop: by the scanner's own clock the next scan is a whole RETRY away...
    wait, _full = service._scanner._next_wait()
    assert wait >= service.RETRY - 1
    # ...and it comes once that much time has passed.
    clock.advance(service.RETRY)
    service.wake()
    assert wait_for(lambda: len(service.admin_summary()["scans"]) == 2)
