"""The runscraper command as a real process: --once, the lock, signals, kill -9, schemas."""
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time

import orjson
import pytest

from scraper import queue
from scraper.management.commands.runscraper import Command
from tests.scraper.support import ROOT, ScraperProcess, complete_chapters


def queue_job(data, *args, **kwargs):
    q = queue.open_queue(data / "scraper" / "queue.json")
    job, _ = queue.add_job(q, *args, **kwargs)
    q.close()
    return job["id"]


def read_queue(data):
    return orjson.loads((data / "scraper" / "queue.json").read_bytes())


def test_it_runs_one_job_through_the_command(settings, tmp_path, site, library):
    settings.DATA, settings.LIBRARY = tmp_path / "data", library
    settings.SCRAPER_SOURCES = ["tests.scraper.fake_source"]
    queue_job(tmp_path / "data", "add", "fake", "s1")
    command = Command()
    try:
        assert command.process_one_job()  # add: subscribes and queues the chapters
        assert command.process_one_job()  # chapters: publishes all three
        assert not command.process_one_job()
    finally:
        command.daemon.close()
    assert len([p for p in (library / "Moon Garden").iterdir() if p.is_dir()]) == 3


@pytest.mark.process
def test_it_drains_the_queue_with_once_and_exits(tmp_path, site, library):
    data = tmp_path / "data"
    queue_job(data, "add", "fake", "s1")
    proc = ScraperProcess(data, library, site.url, "t").start(["--once", "--no-api"], wait=False)
    assert proc.proc.wait(30) == 0, proc.output()
    assert "runscraper is now running" in proc.output()
    assert read_queue(data)["revision"] == 3
    assert all(j["state"] == "done" for j in read_queue(data)["jobs"])


def test_it_refuses_a_second_daemon_on_the_same_data(scraper_proc, tmp_path, site, library):
    first = scraper_proc()
    second = ScraperProcess(first.data, library, site.url, "t").start(["--no-api"], wait=False)
    assert second.proc.wait(30) != 0
    assert "another MangaCircus scraper already runs" in second.output()
    assert first.proc.poll() is None


@pytest.mark.process
def test_it_refuses_a_newer_queue_schema_and_leaves_the_file_alone(tmp_path, site, library):
    data = tmp_path / "data"
    (data / "scraper").mkdir(parents=True)
    raw = b'{"schema": 4, "jobs": [], "future": true}'
    (data / "scraper" / "queue.json").write_bytes(raw)
    proc = ScraperProcess(data, library, site.url, "t").start(["--once"], wait=False)
    assert proc.proc.wait(30) != 0
    assert "schema 4 is newer than this version" in proc.output()
    assert (data / "scraper" / "queue.json").read_bytes() == raw


@pytest.mark.process
def test_it_says_why_the_api_stays_off_without_a_token(tmp_path, site, library):
    proc = ScraperProcess(tmp_path / "data", library, site.url, "", {"SCRAPER_TOKEN": ""}).start(["--once"], wait=False)
    assert proc.proc.wait(30) == 0
    assert "SCRAPER_TOKEN is not set, so the control API stays off" in proc.output()


def test_it_stops_at_a_page_boundary_on_sigterm_and_resumes(scraper_proc, tmp_path, site, library):
    site.page_delay = 0.15
    proc = scraper_proc()
    proc.call("POST", "/jobs", {"kind": "add", "source": "fake", "series": "s1"})
    proc.wait_for(lambda s: (s["progress"] or {}).get("page", 0) >= 2, what="two pages")
    proc.signal(signal.SIGTERM)
    assert proc.proc.wait(15) == 0
    assert "SIGTERM, finishing..." in proc.output() and "runscraper stopped" in proc.output()
    state = read_queue(tmp_path / "data")
    job = next(j for j in state["jobs"] if j["kind"] == "chapters")
    assert job["state"] == "queued" and job["checkpoint"]["page"] >= 2
    staged = library / job["checkpoint"]["staging"]
    assert len(list(staged.glob("*.png"))) == job["checkpoint"]["page"]
    fetched = dict(site.hits)
    site.page_delay = 0
    proc = scraper_proc()
    proc.wait_for(lambda s: s["revision"] == 3 and s["queued"] == 0 and s["job"] is None, what="completion")
    refetched = sum(site.hits[p] - 1 for p in site.image_paths() if fetched.get(p))
    assert refetched == 0


def test_it_survives_repeated_kill_9_mid_chapter(scraper_proc, tmp_path, site, library):
    site.series = type(site)(chapters=3, pages=12).series
    site.page_delay = 0.03
    partial, stop = [], threading.Event()

    def watch():  # a reader's view of LIBRARY, every few ms, throughout
        while not stop.is_set():
            try:
                complete_chapters(library, 12)
            except AssertionError as e:
                partial.append(str(e))
            except FileNotFoundError:
                pass  # a folder renamed away between listing and reading
            time.sleep(0.005)

    watcher = threading.Thread(target=watch)
    watcher.start()
    rng = random.Random(3)
    kills = 0
    try:
        proc = scraper_proc()
        proc.call("POST", "/jobs", {"kind": "add", "source": "fake", "series": "s1"})
        while kills < 6:
            time.sleep(rng.uniform(0.15, 0.5))
            proc.kill9()
            kills += 1
            json.loads((tmp_path / "data" / "scraper" / "queue.json").read_text())  # always valid
            proc = scraper_proc()
        proc.wait_for(lambda s: s["revision"] == 3 and s["queued"] == 0 and s["job"] is None, timeout=60, what="done")
    finally:
        stop.set()
        watcher.join()
    assert partial == []
    assert sorted(complete_chapters(library, 12)) == [
        "c0001 Part 1 [Fans]", "c0002 Part 2 [Fans]", "c0003 Part 3 [Fans]",
    ]
    refetched = sum(site.hits[p] - 1 for p in site.image_paths())
    print(f"\nkill -9 x{kills}: {refetched} pages fetched again out of 36 (at most one in flight per kill)")
    assert refetched <= kills
    assert read_queue(tmp_path / "data")["revision"] == 3
    assert not [p for p in (library / ".staging").iterdir()]


@pytest.mark.process
def test_once_refuses_at_once_without_a_library(tmp_path):
    """Without --once it waits for the library instead (test_library_wait.py)."""
    env = {**os.environ, "DATA": str(tmp_path / "data"), "LIBRARY": str(tmp_path / "missing"), "SECRET_KEY": "x"}
    done = subprocess.run([sys.executable, "manage.py", "runscraper", "--once"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode != 0
    assert f"cannot run now: the library at {tmp_path / 'missing'} cannot be read" in done.stderr
