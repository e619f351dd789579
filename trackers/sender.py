"""Tracker updates in the background: a finished chapter queues, one thread sends (docs/trackers.md).

1. `queue(user, manga)` (events.chapters_finished, in the request's thread) only notes a job per
   tracker the user is connected to: the reader never waits on a tracker.
2. The thread takes the jobs that are due (`run_due`, the unit under test, on an injected clock),
   finds the manga's entry (trackers/binding.py) and what to send (trackers/reading.py), and sends
   it unless the tracker already holds as much (a count is never lowered, a completed entry never
   set back to reading).
3. A 429 holds every job for that tracker until its Retry-After has passed; a timeout, a 5xx or an
   unreachable site is tried again after 30 s, 1, 2, 4 … minutes (at most an hour), MAX_TRIES
   times; a 401 drops the token and marks the connection "reconnect" for Settings → Apps.

Jobs live in memory: after a restart the next finished chapter sends the whole state again (what
is sent is a count, not a step), so nothing is lost but the wait.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from scraper.errors import ScraperError, Transient

from . import binding, reading, registry, session, store
from .base import COMPLETED, Failed, RateLimited, Revoked

log = logging.getLogger(__name__)
MAX_TRIES = 8
BACKOFF_BASE = 30.0
BACKOFF_CAP = 3600.0
Key = tuple[str, str, str]  # (user, tracker, manga)


def backoff(tries: int) -> float:
    return min(BACKOFF_CAP, BACKOFF_BASE * 2 ** (tries - 1))


def holds(previous: dict[str, Any] | None, state: Any) -> bool:
    """Whether the tracker already has at least this state."""
    if not previous:
        return False
    if state.status == COMPLETED and previous.get("status") != COMPLETED:
        return False
    held_volumes = previous.get("volumes")  # None: the list does not count volumes, or did not say
    return state.chapters <= (previous.get("chapters") or 0) and (
        state.volumes is None or held_volumes is None or state.volumes <= held_volumes)


class Sender:
    def __init__(self, clock: Callable[[], float] = time.time, http: Any = None) -> None:
        self.clock = clock
        self.http = http or session.http_client()
        self.cond = threading.Condition()
        self.jobs: dict[Key, dict[str, float]] = {}
        self.blocked: dict[str, float] = {}  # tracker -> clock time its Retry-After ends
        self.stopping = False
        self.results: list[tuple[Key, str]] = []  # the last outcomes, for tests and the log
        self.thread: threading.Thread | None = None

    def queue(self, user: str, manga: str) -> None:
        trackers = store.connected(user)
        if not trackers:
            return
        with self.cond:
            now = self.clock()
            for key in trackers:
                # A job waiting for its next try keeps its wait: a failing site is not asked sooner.
                self.jobs.setdefault((user, key, manga), {"due": now, "tries": 0})
            self.cond.notify_all()

    def _due_at(self, key: Key, job: dict[str, float]) -> float:
        return max(job["due"], self.blocked.get(key[1], 0))

    def wait_time(self) -> float | None:
        with self.cond:
            if not self.jobs:
                return None
            return min(self._due_at(k, j) for k, j in self.jobs.items()) - self.clock()

    def run_due(self) -> int:
        """Send every update due now; -> how many were tried."""
        tried = 0
        while not self.stopping:
            with self.cond:
                now = self.clock()
                due = sorted((self._due_at(k, j), k) for k, j in self.jobs.items() if self._due_at(k, j) <= now)
                if not due:
                    return tried
                key = due[0][1]
                job = self.jobs.pop(key)
            outcome = self._send(key, job)
            self.results = (self.results + [(key, outcome)])[-100:]
            tried += 1
        return tried

    def _again(self, key: Key, job: dict[str, float], due: float) -> None:
        with self.cond:
            self.jobs.setdefault(key, {**job, "due": due})

    def _send(self, key: Key, job: dict[str, float]) -> str:
        user, tracker_key, manga = key
        tracker = registry.get(tracker_key)
        connection = store.connection(user, tracker_key)
        if tracker is None or not connection or connection.get("state") != "connected":
            return "not connected"
        entry_id, _source = binding.entry_id(user, tracker, manga)
        if not entry_id:
            store.note(user, tracker_key, manga, False, f"no {tracker.name} entry is known for {manga}")
            return "unbound"
        state = reading.state(user, manga)
        if state is None or holds(store.sent(user, tracker_key, manga), state):
            return "unchanged"
        try:
            session.call(self.http, tracker, user, connection,
                         lambda calls, secret: tracker.update(calls, secret, entry_id, state), self.clock)
        except Revoked as e:
            store.needs_reconnect(user, tracker_key, e.message)
            with self.cond:
                for other in [k for k in self.jobs if k[:2] == (user, tracker_key)]:
                    del self.jobs[other]
            log.warning("the %s connection of %s needs reconnecting", tracker.name, user)
            return "revoked"
        except RateLimited as e:
            until = self.clock() + e.seconds
            with self.cond:
                self.blocked[tracker_key] = max(self.blocked.get(tracker_key, 0), until)
            self._again(key, job, until)
            return "rate limited"
        except Failed as e:
            store.note(user, tracker_key, manga, False, e.message)
            return "failed"
        except Transient as e:
            tries = int(job["tries"]) + 1
            if tries >= MAX_TRIES:
                store.note(user, tracker_key, manga, False, f"{e.message}; gave up after {tries} tries")
                return "gave up"
            self._again(key, {"tries": tries}, self.clock() + backoff(tries))
            return "retry"
        except ScraperError as e:  # refused by the address guard, a redirect, a cap: asking again changes nothing
            store.note(user, tracker_key, manga, False, e.message)
            return "failed"
        except Exception:  # a broken tracker module must never take the thread down
            log.exception("the %s update of %s failed", tracker.name, manga)
            store.note(user, tracker_key, manga, False, "failed on the server; the log has the details")
            return "failed"
        store.keep_sent(user, tracker_key, {manga: state.as_dict()})
        store.note(user, tracker_key, manga, True,
                   f"{state.chapters} chapter{'' if state.chapters == 1 else 's'} read, {state.status}")
        return "sent"

    def _loop(self) -> None:
        while True:
            with self.cond:
                if self.stopping:
                    return
                wait = self.wait_time()
                if wait is None or wait > 0:
                    self.cond.wait(60 if wait is None else min(wait, 60))
                    continue
            self.run_due()

    def start(self) -> Sender:
        self.thread = threading.Thread(target=self._loop, name="trackers", daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        with self.cond:
            self.stopping = True
            self.cond.notify_all()
        self.http.interrupt.set()
        if self.thread is not None:
            self.thread.join(5)


current: Sender | None = None


def start() -> None:
    global current
    if current is None:
        current = Sender().start()


def stop() -> None:
    global current
    if current is not None:
        current.stop()
        current = None


def install(sender: Sender | None) -> Sender | None:
    """Put another sender in place (a test's, on its own clock); -> the one that was."""
    global current
    before, current = current, sender
    return before


def on_finished(user: str, manga: str, chapters: list[str]) -> None:
    """events.chapters_finished."""
    if current is not None:
        current.queue(user, manga)
