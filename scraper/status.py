"""The daemon's heartbeat (data/scraper/status.json) and its incidents (data/incidents.jsonl)."""
import os
import threading
import time

import orjson

from mangacircus import incidents
from mangacircus.jsonfile import write_atomic


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
