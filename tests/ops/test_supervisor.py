"""The supervisor's backoff, its reset after healthy running and its recovery limit, with real
child processes and a clock the test moves (ops/supervisor.py)."""
import io
import json
import sys
import time

import pytest

from mangacircus import incidents
from ops import supervisor

pytestmark = pytest.mark.process

CRASH = [sys.executable, "-c", "import sys; print('boom: cannot start'); sys.exit(3)"]
SLEEP = [sys.executable, "-c", "import time; time.sleep(600)"]


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def wait_exit(service):
    deadline = time.monotonic() + 20
    while service.proc is not None and service.proc.poll() is None:
        assert time.monotonic() < deadline, "the child did not exit"
        time.sleep(0.02)


def make(tmp_path, *services):
    clock = Clock()
    sup = supervisor.Supervisor(list(services), tmp_path, clock=clock, out=io.StringIO())
    return sup, clock


def test_it_doubles_the_backoff_from_1_s_to_60_s(tmp_path):
    crasher = supervisor.Service("scraper", CRASH)
    sup, clock = make(tmp_path, crasher)
    sup.window = 10_000_000  # no give-up in this test: only the delays
    sup.max_exits = 100
    sup.start()
    delays = []
    for _ in range(9):
        wait_exit(crasher)
        sup.tick()
        assert crasher.state == "waiting"
        delays.append(crasher.restart_at - clock.now)
        clock.now += delays[-1] - 0.01
        sup.tick()
        assert crasher.state == "waiting", "started before its backoff was over"
        clock.now += 0.01
        sup.tick()
    assert delays == [1, 2, 4, 8, 16, 32, 60, 60, 60]
    assert crasher.restarts == 9
    sup.stop()


def test_it_resets_the_backoff_after_10_minutes_of_healthy_running(tmp_path):
    crasher = supervisor.Service("scraper", CRASH)
    sup, clock = make(tmp_path, crasher)
    sup.start()
    for expected in (1, 2, 4):
        wait_exit(crasher)
        sup.tick()
        assert crasher.restart_at - clock.now == expected
        clock.now = crasher.restart_at
        sup.tick()
    # This start runs 10 minutes before it exits: the next delay is 1 s again.
    clock.now += 600
    wait_exit(crasher)
    sup.tick()
    assert crasher.restart_at - clock.now == 1
    sup.stop()


def test_it_gives_up_after_more_than_5_exits_in_10_minutes_and_records_a_crash_loop(tmp_path):
    crasher = supervisor.Service("scraper", CRASH)
    steady = supervisor.Service("reader", SLEEP)
    sup, clock = make(tmp_path, crasher, steady)
    sup.start()
    for _ in range(5):
        wait_exit(crasher)
        sup.tick()
        clock.now = crasher.restart_at
        sup.tick()
    wait_exit(crasher)
    sup.tick()
    assert crasher.state == "gave-up" and crasher.restart_at is None
    clock.now += 3600
    sup.tick()
    assert crasher.state == "gave-up" and crasher.restarts == 5
    assert steady.state == "running" and steady.restarts == 0  # the other service is untouched
    [incident] = incidents.read(tmp_path)
    assert incident["kind"] == "crash-loop" and incident["service"] == "scraper"
    assert "6 times in 10 minutes" in incident["message"]
    assert "boom: cannot start" in incident["log"]
    state = json.loads((tmp_path / "supervisor.json").read_text())
    assert state["services"]["scraper"]["state"] == "gave-up"
    assert state["services"]["reader"]["state"] == "running"
    # An admin's restart request starts it again with a clean count.
    supervisor.request_restart(tmp_path, "scraper")
    sup.tick()
    # The new child may already have crashed again by now: what counts is that one was started.
    assert crasher.proc is not None and not crasher.gave_up
    assert crasher.restarts == 6 and len(crasher.exits) == 0
    sup.stop()


def test_it_counts_only_exits_within_the_window(tmp_path):
    crasher = supervisor.Service("scraper", CRASH)
    sup, clock = make(tmp_path, crasher)
    sup.start()
    for _ in range(12):  # one exit every 3 minutes: never more than 5 within 10 minutes
        wait_exit(crasher)
        sup.tick()
        assert crasher.state == "waiting"
        clock.now += 180
        sup.tick()
    assert crasher.restarts == 12 and not crasher.gave_up
    sup.stop()


def test_it_stops_every_child_with_sigterm(tmp_path):
    graceful = [sys.executable, "-c",
                "import signal, sys, time\n"
                "signal.signal(signal.SIGTERM, lambda *a: (print('finishing'), sys.exit(0)))\n"
                "print('up', flush=True)\ntime.sleep(600)"]
    a, b = supervisor.Service("reader", graceful), supervisor.Service("scraper", graceful)
    sup, clock = make(tmp_path, a, b)
    sup.start()
    deadline = time.monotonic() + 20
    while not (list(a.tail) and list(b.tail)):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert sup.stop() == {"reader": 0, "scraper": 0}
    assert a.state == b.state == "stopped"


def test_it_records_a_corrupt_file_once_when_a_child_refuses_one(tmp_path):
    refusing = [sys.executable, "-c",
                "import sys; print('CommandError: /data/db.json is not valid JSON (x). It was left untouched: "
                "repair it or restore it from a backup, then start again.'); sys.exit(1)"]
    child = supervisor.Service("reader", refusing)
    sup, clock = make(tmp_path, child)
    sup.start()
    for _ in range(3):
        wait_exit(child)
        sup.tick()
        clock.now = child.restart_at
        sup.tick()
    sup.stop()
    [incident] = incidents.read(tmp_path)
    assert incident["kind"] == "corrupt-file" and incident["service"] == "reader"
    assert incident["message"].startswith("/data/db.json is not valid JSON")
