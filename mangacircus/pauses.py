"""What keeps background work from pausing requests: the cycle collector and background threads.

The collector holds the GIL while it walks a generation, so every request waits for it. In the
reader the oldest generation is mostly objects that live as long as the process: Django, the
compiled templates, the library index (tens of thousands of objects). With the defaults a full
collection paused every request for 60-150 ms, several times a minute under load, and a full scan
(which builds a new index before comparing it with the old) made them come more often
(docs/performance.md, "Pauses").

- `enable()` (the `serve` worker, from wsgi.py): this process lives long, so `settle()` may freeze.
  The collection thresholds stay Python's: a young generation of 10,000 instead of 700 was tried
  and made each young collection pause requests for 15-20 ms.
- `settle()` (the scanner, once its first scan and hooks have run): one collection, then
  `gc.freeze()` moves every object alive at that point out of the collector's sight. They are still
  freed by reference counting when nothing refers to them (the index is a tree, without cycles).
- `building()` (the scanner's restore, around the snapshot's decoding and the index made from it):
  no collection while millions of long-lived objects are made, since each one the allocations
  trigger walks all of them again (xl: decoding the snapshot 0.59 → 0.22 s, counting its pages
  0.33 → 0.02 s); where enabled, they are frozen at once, so the collections before `settle()`
  skip them too.
- `background()` (a background thread, about itself): a lower CPU priority for that thread on Linux,
  so a request thread woken while it runs gets the CPU, and with it the GIL, first.
"""
import contextlib
import gc
import logging
import os
import sys
import threading
import time

log = logging.getLogger(__name__)

BACKGROUND_NICE = 10  # added to the thread's nice value

_state = {"enabled": False, "settled": False}


def enable():
    _state["enabled"] = True


def settle():
    """Freeze the objects alive now; once per process, and only where enabled (not in tests)."""
    if not _state["enabled"] or _state["settled"]:
        return
    _state["settled"] = True
    started = time.perf_counter()
    gc.collect()
    gc.freeze()
    log.info("pauses: %d long-lived objects frozen in %.0f ms", gc.get_freeze_count(),
             (time.perf_counter() - started) * 1000)


@contextlib.contextmanager
def building():
    """No cycle collection during the block; where enabled, what it made is frozen after it."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
    if _state["enabled"] and not _state["settled"]:
        gc.freeze()


def background():
    """Lower the calling thread's CPU priority (Linux gives each thread its own nice value)."""
    if not sys.platform.startswith("linux"):
        return
    me = threading.get_native_id()
    try:
        os.setpriority(os.PRIO_PROCESS, me, min(19, os.getpriority(os.PRIO_PROCESS, me) + BACKGROUND_NICE))
    except OSError as e:
        log.warning("pauses: could not lower the priority of %s: %s", threading.current_thread().name, e)
