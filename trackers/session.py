"""A user's calls to a tracker: the shared HTTP client, a token refreshed before it ends or when
it is refused once, and the refreshed token kept (trackers/store.py)."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from scraper.http import HttpClient, Limits
from scraper.watchdog import Progress

from . import store
from .base import Calls, Revoked, Tracker

# One small JSON answer per update; a list of a few thousand entries for the import.
LIMITS = Limits(connect_timeout=10, read_timeout=20, deadline=30, max_bytes=16 << 20, retries=0, retry_base=2.0)


def http_client(pace_for: Callable[[Any], float] | None = None, interrupt: threading.Event | None = None) -> HttpClient:
    return HttpClient(LIMITS, Progress(), interrupt or threading.Event(), pace_for or (lambda tracker: tracker.pace))


def call(http: HttpClient, tracker: Tracker, user: str, connection: dict[str, Any],
         work: Callable[[Calls, dict[str, Any]], Any], clock: Callable[[], float] = time.time) -> Any:
    calls = Calls(http, tracker, clock)
    if not connection.get("token"):
        raise Revoked(f"the {tracker.name} connection needs to be made again")

    def refreshed() -> bool:
        fresh = tracker.refresh(calls, connection)
        if not fresh:
            return False
        connection.update(fresh)
        store.keep_secret(user, tracker.key, fresh)
        return True

    expires = connection.get("expires")
    if connection.get("refresh") and expires is not None and calls.now() >= expires - 300:
        refreshed()
    try:
        return work(calls, connection)
    except Revoked:
        if connection.get("refresh") and refreshed():  # a token ended early: one fresh try
            return work(calls, connection)
        raise
