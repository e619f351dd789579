"""The mangadex module through the daemon against the fake MangaDex in its hostile modes
(research §5.2): rate limits in both styles and with bad headers, 5xx bursts, a browser check,
trickle bodies, truncated and fake images, a failing node, a slow report endpoint, schema drift."""
import json
import time

from bench.fakedex import FakeDex, Group, html_page
from scraper import queue
from scraper.sources import mangadex
from tests.scraper import fakesite
from tests.scraper.conftest import drain, make_daemon


def small(dex):
    """One manga, two chapters of three pages."""
    manga = dex.add_manga("Small Tale", original="ja")
    fans = Group("Fans")
    for n in ("1", "2"):
        dex.add_chapter(manga, n, None, f"Part {n}", (fans,))
    return manga


def add(daemon, manga):
    job, _ = queue.add_job(daemon.queue, "add", "mangadex", manga, lang="en")
    drain(daemon)
    return job


def published(library, manga="Small Tale"):
    root = library / manga
    found = sorted(p.parent.name for p in root.glob("*/chapter.json")) if root.is_dir() else []
    for name in found:
        pages = sorted(p.name for p in (root / name).iterdir() if p.suffix == ".png")
        assert pages == ["001.png", "002.png", "003.png"], f"partial chapter {name}: {pages}"
    return found


def chapters_job(daemon):
    return next(j for j in queue.list_jobs(daemon.queue) if j["kind"] == "chapters")


DONE = ["c0001 Part 1 [Fans]", "c0002 Part 2 [Fans]"]


def test_429_in_both_styles_and_bad_headers_still_finish(dexd, dex, library):
    manga = small(dex)
    dex.kind_script["api"] = [
        fakesite.status(429, {"X-RateLimit-Retry-After": str(int(time.time()) + 1)}),
        fakesite.status(429, {"Retry-After": "1"}),
        fakesite.status(429, {"Retry-After": "-5"}),
        fakesite.status(429, {"X-RateLimit-Retry-After": "-1"}),
        fakesite.status(429, {"Retry-After": "soon, maybe"}),
    ]
    add(dexd, manga)
    assert published(library) == DONE
    assert dexd.queue.data["revision"] == 2


def test_a_huge_retry_after_parks_the_job_without_hammering(dexd, dex, library):
    manga = small(dex)
    dex.kind_always["api"] = fakesite.status(429, {"Retry-After": "99999"})
    job = add(dexd, manga)
    assert dex.kinds["api"] == 1
    assert job["state"] == "queued" and job["notBefore"] > time.time() * 1000 + 90_000 * 1000
    assert "Retry-After" in job["error"]


def test_a_5xx_burst_is_retried_and_the_chapter_is_whole(dexd, dex, library):
    manga = small(dex)
    dex.kind_script["node"] = [fakesite.status(c) for c in (500, 502, 503)]
    dex.kind_script["at-home"] = [fakesite.status(503)]
    add(dexd, manga)
    assert published(library) == DONE


def test_a_browser_check_page_fails_the_job_clearly_and_writes_nothing(dexd, dex, library):
    manga = small(dex)
    dex.kind_always["api"] = html_page
    job = add(dexd, manga)
    assert "browser check" in job["error"] and job["state"] == "failed"
    assert not (library / "Small Tale").exists()
    # Retried only with the job backoff (two quick tries here), never in a loop.
    assert dex.kinds["api"] == 3


def test_truncated_trickling_and_fake_images_never_reach_the_library(dexd, dex, library):
    manga = small(dex)
    dex.kind_script["node"] = [fakesite.truncate, fakesite.drip(0.2), fakesite.html, fakesite.chunked_cut]
    add(dexd, manga)
    assert published(library) == DONE
    # Each bad answer was reported as a failure.
    assert sum(not r["success"] for r in dex.reports) >= 3


def test_a_node_that_fails_is_left_for_a_fresh_one(dexd, dex, library):
    manga = small(dex)
    dex.bad_nodes = {1}
    add(dexd, manga)
    assert published(library) == DONE
    bad = [r for r in dex.reports if "/node/1/" in r["url"]]
    assert bad and not any(r["success"] for r in bad)
    assert dex.kinds["at-home"] == 3  # chapter 1 twice (its node failed), chapter 2 once


def test_stale_page_urls_are_asked_for_again(dexd, dex, library, monkeypatch):
    manga = small(dex)
    monkeypatch.setattr(mangadex, "PAGES_VALID_MS", -1)  # every URL is already too old
    add(dexd, manga)
    assert published(library) == DONE
    assert dex.kinds["at-home"] == 2 + 6  # once per chapter, then once before each page


def test_a_slow_report_endpoint_does_not_hold_up_the_job(dexd, dex, library):
    manga = small(dex)
    dex.report_delay = 4
    dex.kind_script["report"] = [fakesite.status(500)] * 2
    started = time.monotonic()
    add(dexd, manga)
    assert published(library) == DONE
    # Six reports, each cut at its 2 s deadline at most; none retried.
    assert dex.kinds["report"] == 6 and time.monotonic() - started < 6 * 2 + 10


def test_schema_drift_fails_the_job_with_a_clear_error(dexd, dex, library):
    manga = small(dex)
    dex.drop = ("chapter", "pages")
    job = add(dexd, manga)
    assert job["state"] == "failed" and job["attempts"] == 1
    assert "needs an update" in job["error"]
    assert published(library) == []
    assert json.loads((library / "Small Tale" / "manga.json").read_text())["title"] == "Small Tale"


def test_one_request_in_flight_and_the_pace_kept(dexd, dex, library, monkeypatch):
    manga = small(dex)
    monkeypatch.setattr(mangadex.SOURCE, "pace", 0.3)
    monkeypatch.setattr(mangadex, "AT_HOME_SECONDS", 1.0)
    add(dexd, manga)
    assert published(library) == DONE
    assert dex.max_inflight == 1
    gaps = dex.api_gaps()
    assert len(gaps) >= 15 and min(gaps) >= 0.3
    at_home = [t for t, p in dex.log if p.startswith("/at-home/")]
    assert at_home[1] - at_home[0] >= 1.0


def test_a_chapter_deleted_after_the_feed_is_skipped_and_the_rest_published(dexd, dex, library):
    manga = small(dex)
    first = dex.chapter_ids(manga)[0]
    dex.script[f"/at-home/server/{first}"] = [fakesite.status(404)]
    job = add(dexd, manga)
    assert published(library) == DONE[1:]
    chapters = chapters_job(dexd)
    assert chapters["state"] == "done" and any("chapter 1 is gone from MangaDex" in w for w in chapters["warnings"])
    assert job["state"] == "done"


def test_rate_headers_in_both_styles_are_read_and_bad_ones_ignored():
    from scraper.http import HttpClient, Response

    def wait(**headers):
        return HttpClient._retry_after(Response(429, headers, b"", "http://x/"))

    assert 28 <= wait(**{"x-ratelimit-retry-after": str(int(time.time()) + 30)}) <= 30
    assert wait(**{"retry-after": "7"}) == 7
    for bad in ({"retry-after": "-5"}, {"retry-after": "soon"}, {"x-ratelimit-retry-after": "-1"},
                {"x-ratelimit-retry-after": str(int(time.time()) - 60)}, {}):
        assert wait(**bad) is None, bad


def test_page_hosts_from_at_home_pass_the_address_guard(dexd, dex, library):
    """MANGADEX_API_URL's own host:port is allowed on loopback; a node elsewhere on loopback is not."""
    canary = FakeDex().start()
    try:
        manga = small(dex)
        dex.node_base = canary.url
        add(dexd, manga)
        job = chapters_job(dexd)
        # each chapter is refused on its own, and the job says why (docs/scraper.md, "When a chapter fails")
        assert job["state"] == "done" and len(job["failed"]) == 2, job
        assert "loopback, private or link-local" in job["error"]
        assert sum(canary.hits.values()) == 0 and published(library) == []
    finally:
        canary.stop()


def test_a_chapter_with_an_empty_at_home_answer_fails_alone_and_the_others_are_downloaded(dexd, dex, library):
    """MangaDex answers at-home with no files for one chapter (a failure mode other downloaders'
    trackers report): that chapter fails on its own, tried twice, and the job downloads the rest."""
    manga = dex.add_manga("Small Tale", original="ja")
    fans = Group("Fans")
    ids = [dex.add_chapter(manga, n, None, f"Part {n}", (fans,)) for n in ("1", "2", "3")]
    empty = json.dumps({"result": "ok", "baseUrl": dex.url + "/node/1/tok",
                        "chapter": {"hash": "0" * 32, "data": [], "dataSaver": []}}).encode()
    dex.always[f"/at-home/server/{ids[1]}"] = fakesite.status(200, {"Content-Type": "application/json"}, empty)
    add(dexd, manga)
    assert published(library) == ["c0001 Part 1 [Fans]", "c0003 Part 3 [Fans]"]
    job = chapters_job(dexd)
    assert job["state"] == "done" and list(job["failed"]) == [ids[1]]
    assert "lists no pages for chapter 2" in job["failed"][ids[1]] and job["tries"][ids[1]] == 2
    assert job["error"].startswith("done with 1 failed chapter: ")
    assert any("chapter 2 failed" in w for w in job["warnings"]), job["warnings"]
    incidents = [json.loads(line) for line in (dexd.data_dir / "incidents.jsonl").read_text().splitlines()]
    assert [i["kind"] for i in incidents] == ["chapters-failed"]
    # Retry tries the failed chapter again, and only that one: now MangaDex answers.
    del dex.always[f"/at-home/server/{ids[1]}"]
    queue.retry(dexd.queue, job["id"])
    drain(dexd)
    assert published(library) == ["c0001 Part 1 [Fans]", "c0002 Part 2 [Fans]", "c0003 Part 3 [Fans]"]
    job = chapters_job(dexd)
    assert job["state"] == "done" and job["failed"] == {} and job["error"] is None


def test_an_external_chapter_is_warned_about_once_until_the_feed_changes(dexd, dex, library):
    manga = dex.add_manga("Small Tale", original="ja")
    fans = Group("Fans")
    dex.add_chapter(manga, "1", None, "Part 1", (fans,))
    dex.add_chapter(manga, "2", None, "Part 2", (fans,), external="https://mangaplus.example/2")

    def update():
        job, _ = queue.add_job(dexd.queue, "update", "mangadex", manga)
        drain(dexd)
        return [w for w in queue.find(dexd.queue, job["id"])["warnings"] if "external site" in w]

    first = add(dexd, manga)
    assert [w for w in queue.find(dexd.queue, first["id"])["warnings"] if "external site" in w]
    assert update() == [] and update() == []  # the same chapter, the same reason: said once
    dex.feeds[manga][1]["attributes"]["externalUrl"] = "https://mangaplus.example/2-moved"
    assert len(update()) == 1  # the feed changed: said again


def test_a_retry_after_block_is_kept_in_queue_json_and_honoured_after_a_restart(tmp_path, dexd, dex, library,
                                                                              imports):
    manga = small(dex)
    dex.kind_always["api"] = fakesite.status(429, {"Retry-After": "99999"})
    add(dexd, manga)
    assert dex.kinds["api"] == 1
    until = dexd.queue.data["blocks"]["mangadex"]
    assert until > time.time() * 1000 + 90_000 * 1000
    dexd.close()
    again = make_daemon(tmp_path, library, imports)  # a restart, on the same DATA
    try:
        assert queue.blocks(again.queue) == {"mangadex": until}
        other = dex.add_manga("Other Tale", original="ja")
        job, _ = queue.add_job(again.queue, "add", "mangadex", other, lang="en")
        drain(again)
        assert dex.kinds["api"] == 1  # MangaDex was not called again
        job = queue.find(again.queue, job["id"])
        assert job["state"] == "queued" and job["notBefore"] == until and "Retry-After" in job["error"]
    finally:
        again.close()


def test_uploads_whose_groups_are_not_expanded_are_all_downloaded_as_versions(dexd, dex, library):
    """A feed whose relationships are not expanded (MangaDex omits the names it cannot expand, as
    its API documents): two uploads of each chapter, both with no group name, are two versions;
    a re-upload under a new id with a named group already here is skipped with a warning naming it."""
    manga = dex.add_manga("Small Tale", original="ja")
    fans = Group("Fans")
    for n in ("1", "2"):
        for uploader in ("first", "second"):
            dex.add_chapter(manga, n, None, f"Part {n}", (), uploader=uploader)
    dex.add_chapter(manga, "3", None, "Part 3", (fans,))
    dex.add_chapter(manga, "3", None, "Part 3", (fans,), uploader="again")  # the same upload, a new id
    for entity in dex.feeds[manga]:
        for rel in entity["relationships"]:
            if rel["type"] in ("user", "scanlation_group") and rel.get("attributes", {}).get("name") != "Fans":
                rel.pop("attributes", None)  # unexpanded: an id and a type only
    add(dexd, manga)
    folders = sorted(p.parent.name for p in (library / "Small Tale").glob("*/chapter.json"))
    assert len([f for f in folders if f.startswith("c0001")]) == 2, folders
    assert len([f for f in folders if f.startswith("c0002")]) == 2, folders
    assert [f for f in folders if f.startswith("c0003")] == ["c0003 Part 3 [Fans]"]
    said = [w for j in queue.list_jobs(dexd.queue) for w in j["warnings"] if "chapter 3" in w]
    assert len(said) == 1 and "already in the library" in said[0] and "(upload " in said[0], said
