"""Progress tracking and the stall watchdog (docs/scraper.md, "The stall watchdog").

Progress is a page stored, a checkpoint advanced or a listing fetched: the worker calls
`touch()`. Deliberate waits (pacing, Retry-After, backoff) run inside `waiting()`, and the time
spent in them does not count towards a stall. The watchdog thread compares the active time since
the last progress with STALL_SECONDS and, past it, aborts the worker's request.
"""
import threading
import time
from contextlib import contextmanager


class Progress:
    def __init__(self):
        self._lock = threading.Lock()
        self._last = time.monotonic()
        self._active_before = None   # set while waiting: active seconds accumulated before the wait
        self.wait = None             # {"reason", "until"} while waiting, for the status file
        self.stalled = False

    def touch(self):
        with self._lock:
            self._last = time.monotonic()
            if self._active_before is not None:
                self._active_before = 0.0

    def reset(self):
        with self._lock:
            self._last = time.monotonic()
            self._active_before = None
            self.wait = None
            self.stalled = False

    @contextmanager
    def waiting(self, reason, until_wall_ms=None):
        with self._lock:
            self._active_before = time.monotonic() - self._last
            self.wait = {"reason": reason, "until": until_wall_ms}
        try:
            yield
        finally:
            with self._lock:
                self._last = time.monotonic() - (self._active_before or 0.0)
                self._active_before = None
                self.wait = None

    def idle_seconds(self):
        """Active seconds since the last progress (0 while waiting)."""
        with self._lock:
            if self._active_before is not None:
                return 0.0
            return time.monotonic() - self._last


class Watchdog(threading.Thread):
    """Every tick: if a job runs and made no progress for `limit` active seconds, call on_stall()."""

    def __init__(self, progress, limit, is_running, on_stall, tick=None):
        super().__init__(name="scraper watchdog", daemon=True)
        self.progress = progress
        self.limit = limit
        self.is_running = is_running
        self.on_stall = on_stall
        self.tick = tick or min(1.0, limit / 4)
        self.stopping = threading.Event()

    def run(self):
        while not self.stopping.wait(self.tick):
            if self.is_running() and not self.progress.stalled and self.progress.idle_seconds() > self.limit:
                self.progress.stalled = True
                self.on_stall()

    def stop(self):
        self.stopping.set()
