"""The reader's admin-only proxy to the daemon: /api/admin/scraper/<path>. The reader runs in
process; the daemon, where there is one, is a real runscraper."""
import pytest


def test_it_forwards_admin_requests_with_the_token(admin, reader_daemon):
    status, _, data = admin.get("/api/admin/scraper/status")
    assert status == 200 and data["state"] == "idle" and data["revision"] == 0
    status, _, data = admin.post("/api/admin/scraper/jobs", {"kind": "add", "source": "fake", "series": "s1"})
    assert status == 201 and data["created"] is True
    reader_daemon.wait_for(lambda s: s["revision"] == 3 and s["queued"] == 0 and s["job"] is None, what="publication")
    status, _, data = admin.get("/api/admin/scraper/jobs?state=done")
    assert status == 200 and {j["kind"] for j in data["jobs"]} == {"add", "chapters"}
    status, _, data = admin.get("/api/admin/scraper/search?source=fake&q=moon")
    assert status == 200 and data["results"][0]["title"] == "Moon Garden"


def test_it_passes_daemon_errors_through(admin, reader_daemon):
    status, _, data = admin.post("/api/admin/scraper/jobs", {"kind": "nonsense"})
    assert status == 400 and "kind must be one of" in data["error"]
    status, _, data = admin.post("/api/admin/scraper/jobs/j000000000000/cancel", {})
    assert status == 404


def test_it_answers_503_when_the_daemon_is_offline(admin):
    status, _, data = admin.get("/api/admin/scraper/status")
    assert (status, data) == (503, {"error": "scraper offline"})
    status, _, data = admin.post("/api/admin/scraper/pause", {})
    assert (status, data) == (503, {"error": "scraper offline"})


def test_it_refuses_everyone_but_admins(reader_user, guest, reader_daemon):
    assert reader_user.get("/api/admin/scraper/status")[0] == 403
    assert reader_user.post("/api/admin/scraper/pause", {})[0] == 403
    assert guest.get("/api/admin/scraper/status")[0] == 401
    assert guest.post("/api/admin/scraper/jobs", {"kind": "discover"})[0] == 401
    assert reader_daemon.call("GET", "/status")[1]["paused"] is False


def test_it_refuses_odd_paths(admin, reader_daemon):
    for path in ("/api/admin/scraper/status/../../x", "/api/admin/scraper/STATUS%0d%0aX:1",
                 "/api/admin/scraper/a/b/c/d"):
        assert admin.get(path)[0] == 404


@pytest.mark.process
def test_it_says_when_the_tokens_differ(admin, data_dir, library_dir, site, scraper_port):
    from tests.scraper.support import ScraperProcess

    proc = ScraperProcess(data_dir, library_dir, site.url, "another-token-123456", port=scraper_port).start()
    try:
        status, _, data = admin.get("/api/admin/scraper/status")
        assert status == 502 and "SCRAPER_TOKEN" in data["error"]
    finally:
        proc.stop()
