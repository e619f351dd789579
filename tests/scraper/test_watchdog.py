"""The stall watchdog: a body that hangs with its socket open is aborted, requeued once from
the checkpoint, and a second stall fails the job with an incident."""
import json
import threading
import time

from scraper import queue
from tests.scraper import fakesite
from tests.scraper.conftest import make_daemon


def test_it_requeues_a_stalled_job_once_then_fails_it_with_an_incident(tmp_path, site, library, imports):
    release = threading.Event()
    daemon = make_daemon(tmp_path, library, imports, stall_seconds=1)
    try:
        site.script["/img/s1c1/3.png"] = [fakesite.hang(release), fakesite.hang(release)]
        queue.add_job(daemon.queue, "add", "fake", "s1")
        assert daemon.process_one_job()  # the add job
        job = next(j for j in daemon.queue.data["jobs"] if j["kind"] == "chapters")

        started = time.monotonic()
        assert daemon.process_one_job()
        first = time.monotonic() - started
        assert job["state"] == "queued" and job["stalls"] == 1
        assert job["checkpoint"]["page"] == 2 and "stalled" in job["error"]

        started = time.monotonic()
        assert daemon.process_one_job()
        second = time.monotonic() - started
        assert job["state"] == "failed" and job["stalls"] == 2
        assert not daemon.process_one_job()  # no loop: nothing left to run
        print(f"\nstall detected after {first:.1f} s and {second:.1f} s (STALL_SECONDS=1)")
        assert first <= 1 + 2 and second <= 1 + 2
        assert site.hits["/img/s1c1/1.png"] == 1 and site.hits["/img/s1c1/3.png"] == 2
        incidents = [json.loads(line) for line in (tmp_path / "data" / "incidents.jsonl").read_text().splitlines()]
        assert [(i["service"], i["kind"]) for i in incidents] == [("scraper", "stall")]
        assert job["id"] in incidents[0]["message"] and incidents[0]["time"]
    finally:
        release.set()
        daemon.close()


def test_it_resumes_after_one_stall_and_publishes(tmp_path, site, library, imports):
    release = threading.Event()
    daemon = make_daemon(tmp_path, library, imports, stall_seconds=1)
    try:
        site.script["/img/s1c2/2.png"] = [fakesite.hang(release)]
        queue.add_job(daemon.queue, "add", "fake", "s1")
        while daemon.process_one_job():
            pass
        job = next(j for j in daemon.queue.data["jobs"] if j["kind"] == "chapters")
        assert job["state"] == "done" and job["stalls"] == 1
        assert site.hits["/img/s1c2/1.png"] == 1  # resumed from the checkpoint
        assert daemon.queue.data["revision"] == 3
    finally:
        release.set()
        daemon.close()
