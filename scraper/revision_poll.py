"""The reader's revision poll: new chapters appear within seconds of publication (docs/scraper.md).

A thread in the reader asks the daemon for `GET /revision` every few seconds. When the number
moved, it asks the library for a shallow check. Reading never depends on this: when the daemon is
down the poll just tries again, and the library's own periodic checks go on.
"""
import logging
import threading

from . import client

log = logging.getLogger(__name__)
INTERVAL = 3.0


def _request_scan():
    from library import service  # lazily: the library app owns scanning

    service.request_scan(full=False)


class RevisionPoll(threading.Thread):
    def __init__(self, interval=INTERVAL, on_change=_request_scan):
        super().__init__(name="scraper revision poll", daemon=True)
        self.interval = interval
        self.on_change = on_change
        self.revision = None
        self.stopping = threading.Event()

    def poll_once(self):
        try:
            status, data = client.call("GET", "/revision", timeout=min(2.0, self.interval))
        except client.Offline:
            return False
        if status != 200 or not isinstance(data.get("revision"), int):
            return False
        seen, self.revision = self.revision, data["revision"]
        # First contact counts as a change: the daemon may have published before we could reach it.
        if seen != self.revision:
            log.info("scraper revision %s -> %s: shallow check", seen, self.revision)
            self.on_change()
            return True
        return False

    def run(self):
        while not self.stopping.is_set():
            try:
                self.poll_once()
            except Exception:
                log.exception("revision poll")
            self.stopping.wait(self.interval)

    def stop(self):
        self.stopping.set()
