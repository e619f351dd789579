"""The daemon's heartbeat (data/scraper/status.json) and its incidents (data/incidents.jsonl)."""
import os
import threading
import time

import orjson

from mangacircus import incidents
from mangacircus.jsonfile import StateFileError, read_capped, write_atomic


class StatusFile:
    """Rewritten atomically after each page and on every state change; readers never see half."""

    def __init__(self, path):
        self.path = path
        self._lock = threading.Lock()

    def write(self, status):
        with self._lock:
            write_atomic(self.path, orjson.dumps({**status, "updated": int(time.time() * 1000), "pid": os.getpid()}))


def append_incident(data_dir, kind, message, **details):
    """An incident of the scraper in DATA/incidents.jsonl (mangacircus/incidents.py)."""
    return incidents.record(kind, "scraper", message, data_dir=data_dir, **details)


def health():
    """The scraper's part of GET /api/admin/health, from its heartbeat (no call to the daemon)."""
    from django.conf import settings

    try:
        beat = orjson.loads(read_capped(settings.DATA / "scraper" / "status.json"))
    except (OSError, ValueError, StateFileError):
        return {"heartbeat": None, "revision": None, "queued": None}
    keep = ("state", "updated", "pid", "paused", "revision", "queued", "job", "libraryProblem")
    return {"heartbeat": {k: beat.get(k) for k in keep}, "revision": beat.get("revision"), "queued": beat.get("queued")}
