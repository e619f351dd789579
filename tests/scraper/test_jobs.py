"""Jobs run by the in-process daemon against the fake site: idempotence, retries, hostile pages."""
import json
import os

from scraper import queue
from tests.scraper import fakesite
from tests.scraper.conftest import drain, make_daemon


def chapter_folders(library, manga="Moon Garden"):
    return sorted(p.name for p in (library / manga).iterdir() if p.is_dir())


def test_it_returns_the_existing_job_for_a_duplicate(daemon):
    first, created = queue.add_job(daemon.queue, "add", "fake", "s1")
    again, created_again = queue.add_job(daemon.queue, "add", "fake", "s1")
    assert created and not created_again
    assert again is first
    assert len(daemon.queue.data["jobs"]) == 1


def test_it_merges_chapters_into_a_queued_chapters_job(daemon):
    job, _ = queue.add_job(daemon.queue, "chapters", "fake", "s1", ["s1c1"])
    same, created = queue.add_job(daemon.queue, "chapters", "fake", "s1", ["s1c2", "s1c1"])
    assert same is job and not created
    assert job["scope"]["chapters"] == ["s1c1", "s1c2"]


def test_it_publishes_only_new_chapters_on_update(daemon, site, library):
    queue.add_job(daemon.queue, "add", "fake", "s1")
    drain(daemon)
    site.series["s1"]["chapters"].append({"id": "s1c4", "number": "3.5", "title": "Interlude", "group": "", "pages": 2})
    images_before = len(site.image_paths())
    queue.add_job(daemon.queue, "update", "fake", "s1")
    drain(daemon)
    assert chapter_folders(library)[-1] == "c0003.5 Interlude [Fake]"
    assert len(site.image_paths()) == images_before + 2
    assert daemon.queue.data["revision"] == 4
    # Nothing new: an update queues no chapters job.
    queue.add_job(daemon.queue, "update", "fake", "s1")
    drain(daemon)
    assert [j["kind"] for j in daemon.queue.data["jobs"]].count("chapters") == 2


def test_it_writes_manga_json_and_chapter_json(daemon, library):
    queue.add_job(daemon.queue, "add", "fake", "s1")
    drain(daemon)
    manga = json.loads((library / "Moon Garden" / "manga.json").read_text())
    assert manga["title"] == "Moon Garden" and manga["sources"] == {"fake": "s1"} and manga["authors"] == ["A. Writer"]
    chapter = json.loads((library / "Moon Garden" / "c0001 Part 1 [Fans]" / "chapter.json").read_text())
    # The version's label is the folder's bracket, as for any chapter; the module is kept apart.
    assert chapter["source"] == "Fans" and chapter["module"] == "fake"
    assert chapter["sourceId"] == "s1c1" and chapter["groups"] == ["Fans"]


def test_it_adds_to_an_existing_manga_folder_and_keeps_its_manga_json(daemon, library):
    (library / "moon garden").mkdir()
    (library / "moon garden" / "manga.json").write_text('{"title": "Mine", "direction": "ltr"}')
    queue.add_job(daemon.queue, "add", "fake", "s1")
    drain(daemon)
    assert sorted(p.name for p in library.iterdir()) == [".staging", "moon garden"]
    manga = json.loads((library / "moon garden" / "manga.json").read_text())
    assert manga["title"] == "Mine" and manga["direction"] == "ltr" and manga["sources"] == {"fake": "s1"}


def run_40_pages(daemon, site, flaky):
    site.series = fakesite.FakeSite(chapters=2, pages=20).series
    site.flaky = flaky
    queue.add_job(daemon.queue, "add", "fake", "s1")
    drain(daemon)
    return sum(site.hits.values()), len(site.image_paths())


def test_it_needs_one_request_per_page_plus_the_listings(daemon, site, library):
    requests, pages = run_40_pages(daemon, site, 0.0)
    print(f"\nnormal: {requests} requests for {pages} pages ({requests / pages:.2f} per page, 4 of them JSON)")
    assert requests == pages + 4  # series, chapter list, and one page list per chapter


def test_it_completes_despite_30_percent_5xx(daemon, site, library):
    requests, pages = run_40_pages(daemon, site, 0.3)
    print(f"\n30 % 5xx: {requests} requests for {pages} pages ({requests / pages:.2f} per page)")
    assert len(chapter_folders(library)) == 2
    assert requests <= 1.5 * pages + 10
    for folder in chapter_folders(library):
        for page in (library / "Moon Garden" / folder).glob("*.png"):
            assert page.read_bytes().startswith(b"\x89PNG")


def test_it_refetches_an_html_page_then_fails_that_chapter_and_downloads_the_others(daemon, site, library):
    site.always["/img/s1c2/2.png"] = fakesite.html
    queue.add_job(daemon.queue, "add", "fake", "s1")
    drain(daemon)
    chapters = next(j for j in daemon.queue.data["jobs"] if j["kind"] == "chapters")
    assert chapters["state"] == "done" and chapters["attempts"] == 0
    assert list(chapters["failed"]) == ["s1c2"] and chapters["tries"] == {"s1c2": 2}
    assert "page 2" in chapters["failed"]["s1c2"] and "image" in chapters["failed"]["s1c2"]
    assert chapters["error"].startswith("done with 1 failed chapter: ") and "page 2" in chapters["error"]
    assert site.hits["/img/s1c2/2.png"] == 4  # each of the chapter's two tries fetches it twice
    assert chapter_folders(library) == ["c0001 Part 1 [Fans]", "c0003 Part 3 [Fans]"]  # chapter 2 never appears
    assert chapters["done"] == ["s1c1", "s1c3"]


def test_it_retries_failed_chapters_on_request_and_resumes_from_staging(daemon, site, library):
    site.always["/img/s1c1/3.png"] = fakesite.html
    queue.add_job(daemon.queue, "add", "fake", "s1")
    drain(daemon)
    job = next(j for j in daemon.queue.data["jobs"] if j["kind"] == "chapters")
    assert job["state"] == "done" and list(job["failed"]) == ["s1c1"]
    del site.always["/img/s1c1/3.png"]
    queue.retry(daemon.queue, job["id"])
    assert job["state"] == "queued" and job["attempts"] == 0 and job["error"] is None and job["failed"] == {}
    drain(daemon)
    assert job["state"] == "done" and job["failed"] == {}
    assert site.hits["/img/s1c1/1.png"] == 1 and site.hits["/img/s1c1/2.png"] == 1
    assert len(chapter_folders(library)) == 3


def test_it_cancels_and_reorders_jobs(daemon):
    a, _ = queue.add_job(daemon.queue, "update", "fake", "a")
    b, _ = queue.add_job(daemon.queue, "update", "fake", "b")
    c, _ = queue.add_job(daemon.queue, "update", "fake", "c")
    queue.move(daemon.queue, c["id"], "top")
    queue.move(daemon.queue, a["id"], "down")
    assert [j["series"] for j in daemon.queue.data["jobs"]] == ["c", "b", "a"]
    daemon.cancel(b["id"])
    assert b["state"] == "cancelled"
    assert queue.next_job(daemon.queue) is c


def test_it_makes_hostile_titles_safe(daemon, site, library, tmp_path):
    hostile = ["../../x", "/abs", "..", "CON", "nul\x00byte", "é" * 300, "\u202eevil.exe", "trailing. ", ".hidden"]
    site.series = {}
    for n, title in enumerate(hostile):
        site.series[f"h{n}"] = {"title": title, "chapters": [
            {"id": f"h{n}c1", "number": "1", "title": title, "group": title, "pages": 1}]}
        queue.add_job(daemon.queue, "add", "fake", f"h{n}")
    before = set(tmp_path.iterdir())
    drain(daemon, limit=100)
    assert set(tmp_path.iterdir()) == before  # nothing new next to the library
    root = os.path.realpath(library)
    for dirpath, dirnames, filenames in os.walk(library):
        for name in dirnames + filenames:
            path = os.path.realpath(os.path.join(dirpath, name))
            assert path.startswith(root + os.sep)
            assert len(name.encode()) <= 255
            assert "\x00" not in name and "\u202e" not in name and "/" not in name
            assert not name.endswith((" ", ".")), name
    mangas = sorted(p.name for p in library.iterdir() if not p.name.startswith("."))
    assert len(mangas) == len(hostile) and "_CON" in mangas and not any(m.startswith(".") for m in mangas)
    assert daemon.queue.data["revision"] == len(hostile)


def test_it_parks_a_job_when_the_disk_is_nearly_full(tmp_path, site, library, imports):
    daemon = make_daemon(tmp_path, library, imports, min_free_bytes=1 << 60)
    try:
        queue.add_job(daemon.queue, "add", "fake", "s1")
        drain(daemon)
        job = next(j for j in daemon.queue.data["jobs"] if j["kind"] == "chapters")
        assert job["state"] == "queued" and job["notBefore"] and "SCRAPER_MIN_FREE_MB" in job["error"]
        assert job["attempts"] == 0
        assert site.image_paths() == []
    finally:
        daemon.close()


def test_it_does_not_count_a_retry_after_wait_as_a_stall(tmp_path, site, library, imports):
    daemon = make_daemon(tmp_path, library, imports, stall_seconds=1)
    try:
        site.script["/img/s1c1/2.png"] = [fakesite.status(429, {"Retry-After": "2"})]
        queue.add_job(daemon.queue, "add", "fake", "s1")
        drain(daemon)
        job = next(j for j in daemon.queue.data["jobs"] if j["kind"] == "chapters")
        assert job["state"] == "done" and job["stalls"] == 0
    finally:
        daemon.close()


def test_it_downloads_chapters_queued_by_id_only(daemon, site, library):
    queue.add_job(daemon.queue, "chapters", "fake", "s1", ["s1c2", "nope"])
    drain(daemon)
    job = daemon.queue.data["jobs"][0]
    assert job["state"] == "done" and job["scope"]["chapters"] == ["s1c2"]
    assert chapter_folders(library) == ["c0002 Part 2 [Fans]"]


def test_chapters_of_a_series_nobody_follows_do_not_follow_it(daemon, site, library):
    """Queuing two chapters of an unfollowed series downloads them, and the nightly run queues
    nothing more (it once followed the series with auto-update on and queued all the rest)."""
    queue.add_job(daemon.queue, "chapters", "fake", "s1", ["s1c1", "s1c2"])
    drain(daemon)
    assert chapter_folders(library) == ["c0001 Part 1 [Fans]", "c0002 Part 2 [Fans]"]
    [entry] = daemon.queue.data["series"]
    assert entry["manga"] == "Moon Garden" and entry["auto"] is False
    assert queue.auto_series(daemon.queue) == []
    queue.add_job(daemon.queue, "discover", "all")
    drain(daemon)
    assert chapter_folders(library) == ["c0001 Part 1 [Fans]", "c0002 Part 2 [Fans]"]  # s1c3 not fetched
    queue.add_job(daemon.queue, "add", "fake", "s1", auto=True)  # following it is the admin's choice
    drain(daemon)
    assert len(chapter_folders(library)) == 3 and daemon.queue.data["series"][0]["auto"] is True
