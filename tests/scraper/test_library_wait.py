"""A LIBRARY that is missing, unreadable or read-only: the daemon waits for it instead of exiting
(and so crash-looping under a supervisor), says so once and in its status, looks again every
`library_retry` seconds of its clock, and refuses folder imports with the reason."""
import logging

import pytest

from scraper import queue
from tests.scraper.conftest import drain, make_daemon
from tests.scraper.fakesite import status
from tests.support.clock import FakeClock
from tests.support.readonly import read_only


def waiting_lines(caplog):
    return [r for r in caplog.records if "waiting for the library:" in r.getMessage()]


def test_it_waits_for_a_missing_library_and_goes_on_once_it_is_back(tmp_path, site, imports, caplog):
    caplog.set_level(logging.INFO, logger="scraper")
    library, clock = tmp_path / "library", FakeClock()  # not there: its disk is not mounted
    d = make_daemon(tmp_path, library, imports, library_retry=30, clock=clock)
    try:
        state = d.status()
        assert state["state"] == "waiting-library" and state["libraryRetrySeconds"] == 30
        why = f"the library at {library} cannot be read (No such file or directory): is it mounted?"
        assert state["libraryProblem"] == why
        job, _ = queue.add_job(d.queue, "add", "fake", "s1")
        for _ in range(3):
            assert d.process_one_job() is False and not d.queue_has_work()
            d.tick()
        library.mkdir()
        clock.advance(29)
        assert d.process_one_job() is False  # not looked at again before library_retry seconds
        clock.advance(1)
        assert drain(d) >= 1
        assert (library / "Moon Garden").is_dir() and job["state"] == "done" and job["attempts"] == 0
        assert d.status()["state"] == "idle" and d.status()["libraryProblem"] is None
    finally:
        d.close()
    assert len(waiting_lines(caplog)) == 1


def test_a_library_that_vanishes_during_a_job_puts_the_job_back_without_using_an_attempt(
        tmp_path, site, library, imports):
    clock = FakeClock()
    d = make_daemon(tmp_path, library, imports, library_retry=30, clock=clock)
    gone = tmp_path / "unmounted"

    def unmount_then_answer(h, body):
        library.rename(gone)
        status(200, {"Content-Type": "application/json"}, body)(h, body)

    site.script["/series/s1"] = [unmount_then_answer]
    try:
        job, _ = queue.add_job(d.queue, "add", "fake", "s1")
        assert d.process_one_job() is True
        assert job["state"] == "queued" and "cannot be read" in job["error"] and "internal error" not in job["error"]
        assert not library.exists()  # the scraper never makes LIBRARY itself
        assert d.status()["state"] == "waiting-library"
        gone.rename(library)
        clock.advance(30)
        drain(d)
        assert job["state"] == "done" and (library / "Moon Garden").is_dir()
    finally:
        d.close()


@pytest.mark.process  # as root, read-only means a read-only mount (tests/support/readonly.py)
def test_a_read_only_library_refuses_folder_imports_with_the_reason(scraper_proc, library, imports):
    (imports / "Sky Pirates").mkdir()
    with read_only(library):
        proc = scraper_proc(SCRAPER_IMPORT_ROOTS=str(imports))
        reason = f"the library at {library} is read-only"
        state = proc.wait_for(lambda s: s["state"] == "waiting-library", what="waiting")
        assert state["libraryProblem"] == reason
        code, answer = proc.call("POST", "/series", {"source": "folder", "id": str(imports / "Sky Pirates")})
        assert code == 409
        assert answer == {"error": f"folder imports are off: {reason} (an import writes its chapters into the library)"}
        assert proc.call("GET", "/sources")[1]["libraryProblem"] == reason
        assert proc.call("GET", "/jobs")[1]["jobs"] == []
    assert proc.output().count("waiting for the library:") == 1
    assert "Errno 30" not in proc.output()


@pytest.mark.process
def test_runscraper_waits_for_a_missing_library_instead_of_exiting(scraper_proc, library, tmp_path):
    library.rename(tmp_path / "unmounted")
    proc = scraper_proc(SCRAPER_LIBRARY_RETRY="0.2")
    state = proc.wait_for(lambda s: s["state"] == "waiting-library", what="waiting")
    assert "is it mounted?" in state["libraryProblem"] and proc.proc.poll() is None
    (tmp_path / "unmounted").rename(library)
    proc.wait_for(lambda s: s["state"] == "idle" and s["libraryProblem"] is None, what="the library back")
    output = proc.output()
    assert output.count("waiting for the library:") == 1 and "can be written again" in output
