"""Pacing, Retry-After, and a provider that hangs while the reader goes on answering."""
import threading
import time

from metadata import matches
from metadata.providers.anilist import AniList
from scraper.http import Limits

from .conftest import make_worker, run_all


def _gaps(fake):
    times = [t for t, _m, path, _b in fake.log if path == "/anilist"]
    return [b - a for a, b in zip(times, times[1:])]


def test_it_waits_the_retry_after_of_a_429_and_then_asks_again(app, fake):
    fake.too_many = 1
    worker = make_worker()
    worker.pending = [matches.work_item(_manga("Shingeki no Kyojin"), {})]
    assert worker.process_one_job()
    assert matches.state("Shingeki no Kyojin")["state"] == "matched"
    assert _gaps(fake)[0] >= 1.0  # the answer said Retry-After: 1


def test_anilist_requests_are_paced_to_90_a_minute(app, fake):
    worker = make_worker(pace_for=lambda source: source.pace)
    item = matches.work_item(_manga("Lantern Fields"), {})
    worker.pending = [{**item, "titles": ["Lantern", "Touro no Hara"]}]  # two searches
    worker.process_one_job()
    assert len(_gaps(fake)) >= 1 and min(_gaps(fake)) >= AniList.pace - 0.01


def test_a_hanging_provider_never_slows_the_reader(app, admin_client, fake):
    fake.hold = threading.Event()
    worker = make_worker(limits=Limits(connect_timeout=2, read_timeout=2, deadline=4, retries=0))
    thread = threading.Thread(target=run_all, args=(worker,), daemon=True)
    thread.start()
    deadline = time.monotonic() + 5
    while not fake.log and time.monotonic() < deadline:
        time.sleep(0.02)
    assert fake.log, "the worker never reached the provider"
    for path in ("/", "/manga/Monster/", "/api/library", "/api/manga?m=Monster"):
        started = time.monotonic()
        status = admin_client.get(path)[0]
        assert (status, time.monotonic() - started < 0.5) == (200, True), path
    while not worker.channel.results and time.monotonic() < deadline + 10:
        time.sleep(0.05)
    first = worker.channel.results[0]
    assert first["outcome"] == "failed" and any("timed out" in w for w in first["warnings"]), first
    assert matches.state(first["name"])["state"] == "failed"  # an admin sees it, and it is asked again later
    fake.hold.set()
    thread.join(60)
    assert not thread.is_alive()


def _manga(name):
    from library import index

    return index.current().get(name)
