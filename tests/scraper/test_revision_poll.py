"""The reader's revision poll: a publication reaches the library's shallow check within seconds."""
import threading
import time

import pytest
from django.apps import apps

from bench.server import free_port
from scraper import queue
from scraper.api import ApiServer
from scraper.revision_poll import RevisionPoll
from tests.scraper.conftest import TOKEN


@pytest.fixture
def api(daemon, settings):
    settings.SCRAPER_URL = f"http://127.0.0.1:{free_port()}"
    settings.SCRAPER_TOKEN = TOKEN
    server = ApiServer(daemon, settings.SCRAPER_URL, TOKEN).start()
    yield server
    server.stop()


def test_it_requests_a_shallow_scan_within_seconds_of_a_publication(api, daemon, monkeypatch):
    from library import service

    fired = []
    monkeypatch.setattr(service, "request_scan", lambda full=False, wait=False: fired.append((time.time(), full)))
    poll = RevisionPoll()  # the real 3-second interval
    poll.start()
    try:
        deadline = time.time() + 5
        while not fired and time.time() < deadline:  # first contact: one check, for what came before
            time.sleep(0.05)
        assert len(fired) == 1
        queue.add_job(daemon.queue, "add", "fake", "s1")
        worker = threading.Thread(target=lambda: [daemon.process_one_job() for _ in range(2)])
        worker.start()
        worker.join()
        deadline = time.time() + 10
        while len(fired) < 2 and time.time() < deadline:
            time.sleep(0.05)
    finally:
        poll.stop()
    assert len(fired) == 2 and fired[1][1] is False
    published = daemon.queue.data["published"][0]["t"] / 1000
    delay = fired[1][0] - published
    print(f"\npublication to shallow-check request: {delay:.2f} s (poll every 3 s)")
    assert 0 <= delay <= 3.5


def test_it_checks_once_on_first_contact_then_stays_quiet_while_nothing_moves(api, settings):
    """The daemon may have published before the reader could reach it: first contact checks once."""
    calls = []
    poll = RevisionPoll(on_change=lambda: calls.append(1))
    assert poll.poll_once() is True and poll.revision == 0
    assert poll.poll_once() is False
    api.stop()
    assert poll.poll_once() is False
    settings.SCRAPER_TOKEN = ""
    assert poll.poll_once() is False
    assert calls == [1]


def test_it_starts_the_poll_with_the_reader_only_when_a_token_is_set(settings):
    config = apps.get_app_config("scraper")
    settings.SCRAPER_TOKEN = ""
    config.start_runtime()
    assert config.poll is None
    settings.SCRAPER_TOKEN = TOKEN
    settings.SCRAPER_URL = f"http://127.0.0.1:{free_port()}"
    config.start_runtime()
    try:
        assert config.poll.is_alive()
    finally:
        poll = config.poll
        config.stop_runtime()
    poll.join(5)
    assert not poll.is_alive() and config.poll is None
