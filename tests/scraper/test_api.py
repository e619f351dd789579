"""The daemon's private API, on a real runscraper process: tokens, jobs, pause and resume."""
import time

import pytest

from tests.scraper.support import ScraperProcess


def test_it_refuses_requests_without_or_with_a_wrong_token(scraper_proc):
    proc = scraper_proc()
    for path in ("/status", "/revision", "/jobs", "/nowhere"):
        assert proc.call("GET", path, token="")[0] == 401
        assert proc.call("GET", path, token="wrong-token-0123456789")[0] == 401
    assert proc.call("POST", "/pause", {}, token="")[0] == 401
    assert proc.call("POST", "/jobs", {"kind": "discover"}, token="nope")[0] == 401
    assert proc.call("GET", "/revision") == (200, {"revision": 0})


def test_it_answers_status_sources_and_search(scraper_proc):
    proc = scraper_proc()
    status, data = proc.call("GET", "/status")
    assert status == 200 and data["state"] == "idle" and data["revision"] == 0 and data["paused"] is False
    assert {"fake", "folder"} <= set(data["pacing"])
    status, data = proc.call("GET", "/sources")
    assert {s["key"] for s in data["sources"]} >= {"fake", "folder"}
    status, data = proc.call("GET", "/search?source=fake&q=moon")
    assert status == 200 and data["results"][0]["id"] == "s1" and data["results"][0]["title"] == "Moon Garden"


def test_it_validates_new_jobs(scraper_proc):
    proc = scraper_proc()
    assert proc.call("POST", "/jobs", {"kind": "explode"})[0] == 400
    assert proc.call("POST", "/jobs", {"kind": "add", "source": "nope", "series": "x"})[0] == 400
    assert proc.call("POST", "/jobs", {"kind": "chapters", "source": "fake", "series": "s1", "chapters": []})[0] == 400
    assert proc.call("POST", "/jobs/j000000000000/retry", {})[0] == 404
    status, data = proc.call("POST", "/series", {"source": "folder", "id": "/etc"})
    assert status == 400 and "SCRAPER_IMPORT_ROOTS" in data["error"]


def test_it_subscribes_a_series_and_changes_it(scraper_proc, library):
    proc = scraper_proc()
    status, data = proc.call("POST", "/series", {"source": "fake", "id": "s1", "lang": "en"})
    assert status == 201 and data["created"]
    proc.wait_for(lambda s: s["revision"] == 3 and s["job"] is None and s["queued"] == 0, what="publication")
    series = proc.call("GET", "/series")[1]["series"]
    assert [(s["manga"], s["lang"], s["auto"]) for s in series] == [("Moon Garden", "en", True)]
    status, data = proc.call("POST", f"/series/{series[0]['key']}", {"auto": False})
    assert status == 200 and data["series"]["auto"] is False
    history = proc.call("GET", "/history")[1]
    assert [p["rev"] for p in history["published"]] == [3, 2, 1] and history["failed"] == []


def test_it_pauses_at_a_page_boundary_and_resumes(scraper_proc, site, library):
    site.page_delay = 0.1
    proc = scraper_proc()
    proc.call("POST", "/jobs", {"kind": "add", "source": "fake", "series": "s1"})
    proc.wait_for(lambda s: (s["progress"] or {}).get("page", 0) >= 1, what="a page")
    status, data = proc.call("POST", "/pause", {})
    assert status == 200 and data == {"paused": True, "idle": True}
    hits = sum(site.hits.values())
    time.sleep(0.6)
    assert sum(site.hits.values()) == hits  # nothing fetched while paused
    status, data = proc.call("GET", "/status")
    assert data["state"] == "paused" and data["job"] is None
    jobs = proc.call("GET", "/jobs?state=queued")[1]["jobs"]
    assert jobs[0]["kind"] == "chapters" and jobs[0]["checkpoint"]["page"] >= 1
    assert proc.call("POST", "/resume", {}) == (200, {"paused": False})
    proc.wait_for(lambda s: s["revision"] == 3 and s["queued"] == 0, what="completion")


def test_it_moves_and_cancels_jobs_through_the_api(scraper_proc):
    proc = scraper_proc()
    proc.call("POST", "/pause", {})
    ids = [proc.call("POST", "/jobs", {"kind": "update", "source": "fake", "series": s})[1]["job"]["id"] for s in "abc"]
    assert proc.call("POST", f"/jobs/{ids[2]}/move", {"to": "top"})[0] == 200
    assert proc.call("POST", f"/jobs/{ids[0]}/move", {"to": "sideways"})[0] == 400
    assert proc.call("POST", f"/jobs/{ids[1]}/cancel", {})[1]["job"]["state"] == "cancelled"
    assert [j["series"] for j in proc.call("GET", "/jobs")[1]["jobs"]] == ["c", "a", "b"]
    assert proc.call("POST", f"/jobs/{ids[1]}/retry", {})[1]["job"]["state"] == "queued"


def test_it_validates_settings(scraper_proc):
    proc = scraper_proc()
    assert proc.call("POST", "/settings", {"updates": {"at": "25:00"}})[0] == 400
    assert proc.call("POST", "/settings", {"pace": {"nope": 1}})[0] == 400
    status, data = proc.call("POST", "/settings", {"updates": {"enabled": False, "at": "04:15"}, "pace": {"fake": 0.5}})
    assert status == 200 and data["settings"]["updates"]["at"] == "04:15" and data["settings"]["pace"] == {"fake": 0.5}
    assert proc.call("GET", "/settings")[1]["settings"]["updates"]["enabled"] is False


@pytest.mark.process
def test_it_keeps_running_jobs_without_an_api_when_there_is_no_token(tmp_path, site, library):
    proc = ScraperProcess(tmp_path / "data", library, site.url, "", {"SCRAPER_TOKEN": ""}).start(wait=False)
    try:
        deadline = time.monotonic() + 20
        while "runscraper is now running" not in proc.output() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "control API stays off" in proc.output()
        try:
            answered = proc.call("GET", "/revision", token="anything")[0]
        except OSError:
            answered = None
        assert answered is None
    finally:
        proc.stop()


def test_it_ends_a_leased_pause_by_itself_and_keeps_an_admins_pause(scraper_proc, site, library):
    site.page_delay = 0.1
    proc = scraper_proc()
    assert proc.call("POST", "/pause", {"lease": 0})[0] == 400
    assert proc.call("POST", "/pause", {"lease": "long"})[0] == 400
    status, data = proc.call("POST", "/pause", {"lease": 2})
    assert status == 200 and data["paused"] is True
    status, data = proc.call("GET", "/status")
    assert data["state"] == "paused" and 0 < data["leaseSeconds"] <= 2
    proc.call("POST", "/jobs", {"kind": "add", "source": "fake", "series": "s1"})
    # Nobody resumes: the lease ends and the queue runs on its own.
    proc.wait_for(lambda s: s["revision"] == 3 and not s["paused"], what="completion after the lease")
    # A lease-only resume leaves an admin's pause in place.
    proc.call("POST", "/pause", {})
    proc.call("POST", "/pause", {"lease": 60})
    assert proc.call("POST", "/resume", {"lease": True}) == (200, {"paused": True})
    assert proc.call("GET", "/status")[1]["state"] == "paused"
    assert proc.call("POST", "/resume", {}) == (200, {"paused": False})
