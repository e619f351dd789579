"""The daemon's heartbeat (data/scraper/status.json) and the incident log (data/incidents.jsonl)."""
import json
import os
import threading
import time

import orjson

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
    """One JSON line, appended with a single write (O_APPEND) and fsynced."""
    line = json.dumps({"time": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "service": "scraper", "kind": kind,
                       "message": message, **details}, ensure_ascii=False) + "\n"
    fd = os.open(data_dir / "incidents.jsonl", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.write(fd, line.encode())
        os.fsync(fd)
    finally:
        os.close(fd)
