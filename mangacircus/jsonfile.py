"""The storage primitive behind every JSON state file (db.json, catalog.json, queue.json, ...).

A JsonFile holds the whole document in memory. Changes are made under `lock`, then `touch()`ed;
a background thread writes the document 0.5 s after the first unflushed change, so a burst of
changes flushes about twice a second and a crash loses at most ~0.5 s of acknowledged changes.
Security-relevant changes call `flush()` themselves before answering.

A write is: serialise (orjson, no indent: it runs under the GIL and stalls every request),
write `<name>.tmp` (mode 0600), fsync it, rename it over the target, fsync the directory.
A failed write is never retried on the same descriptor: the next attempt serialises a fresh
tmp from memory. While writes fail, `failing` is set and write requests get 503.

`clock` (seconds, time.monotonic by default) is what the flush deadlines are measured on; a test
passes its own to move time without sleeping.

A missing file starts from the default; an unreadable or corrupt one, or one larger than
MAX_BYTES, raises StateFileError, and the file is left byte-for-byte untouched.
"""
from __future__ import annotations

import errno
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson

from . import incidents

log = logging.getLogger(__name__)

Document = dict[str, Any]  # a state file's whole JSON object
StrPath = str | os.PathLike[str]

_open_files: list[JsonFile] = []

# A state file is loaded whole into memory: far beyond any real one (db.json of a few hundred users
# is a few MB), and small enough that refusing a bigger one costs no time and no memory.
MAX_BYTES = 256 * 1024 * 1024


class StateFileError(Exception):
    """A state file cannot be loaded; the process must not start on it."""


class JsonFile:
    def __init__(self, path: StrPath, *, default: Callable[[], Document] = dict,
                 validate: Callable[[Document], None] | None = None, delay: float = 0.5, max_wait: float = 0.5,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.path = Path(path)
        self.clock = clock
        self.delay = delay
        self.max_wait = max_wait
        self.lock = threading.RLock()
        self.failing = False
        self.last_error: str | None = None
        self.flushes = 0
        self.changes = 0  # touch() calls: equal counts mean the document did not change in between
        self.serialised = 0  # payloads serialised for a write, numbered from 1
        self.written = 0  # the number of the newest payload on disk
        self._on_disk = threading.Condition(self.lock)
        self._write_lock = threading.Lock()
        self._wake = threading.Condition(self.lock)
        self._first_change: float | None = None  # clock() of the first and the last unflushed change
        self._last_change: float | None = None
        self._closed = False
        self.data = self._load(default, validate)
        self._thread = threading.Thread(target=self._run, name=f"flush {self.path.name}", daemon=True)
        self._thread.start()
        _open_files.append(self)

    def _load(self, default: Callable[[], Document], validate: Callable[[Document], None] | None) -> Document:
        tmp = self.path.with_name(self.path.name + ".tmp")
        if tmp.exists():
            # A leftover from a crash mid-write; the target itself is still the last good copy.
            tmp.unlink()
        try:
            raw = read_capped(self.path)
        except FileNotFoundError:
            return default()
        except OSError as e:
            raise StateFileError(f"{self.path} cannot be read: {e.strerror}") from e
        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError as e:
            raise StateFileError(
                f"{self.path} is not valid JSON ({e}). It was left untouched: "
                "repair it or restore it from a backup, then start again."
            ) from e
        if not isinstance(data, dict):
            raise StateFileError(f"{self.path} does not hold a JSON object. It was left untouched.")
        if validate:
            try:
                validate(data)
            except ValueError as e:
                raise StateFileError(f"{self.path}: {e}. It was left untouched.") from e
        return data

    def snapshot(self, wait: float | None = None) -> bytes:
        """The document's bytes for a backup: as they are now, or as the next flush writes them.

        Serialising a 10 MB document holds the GIL for ~30 ms, and the flush thread does it twice a
        second under steady writes; a backup does not add a third time. It waits for the flush that
        writes the pending changes (due within max_wait) and reads the file that flush renamed into
        place, which is whole. It serialises under the lock only when writes fail, when that flush
        does not come within `wait` seconds, or when there is no file yet."""
        deadline = time.monotonic() + (self.max_wait + 1.0 if wait is None else wait)
        with self.lock:
            wanted = self.serialised + (self._first_change is not None)
            while self.written < wanted and not self.failing and not self._closed:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                self._on_disk.wait(remaining)
            if self.written < wanted or self.failing:
                return orjson.dumps(self.data)
        try:
            return read_capped(self.path)
        except (OSError, StateFileError):
            with self.lock:
                return orjson.dumps(self.data)

    def touch(self) -> None:
        """Record a change made under `lock`; the document is flushed within `max_wait`."""
        with self.lock:
            self.changes += 1
            now = self.clock()
            if self._first_change is None:
                self._first_change = now
            self._last_change = now
            self._wake.notify()

    @property
    def dirty(self) -> bool:
        return self._first_change is not None

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """Hold the writer, then the document (flush()'s order): inside, `flush(held=True)` writes
        while every other user of the document still waits, so nobody sees a change before it is
        on disk. Never enter it while holding `lock` alone."""
        with self._write_lock, self.lock:
            yield

    def flush(self, *, held: bool = False) -> bool:
        """Write the document now if it changed. Returns False when the write failed.
        `held`: the caller is inside exclusive()."""
        if held:
            return self._flush()
        if self.lock._is_owned():  # type: ignore[attr-defined]
            # The caller holds the document (scraper/queue.py saves inside `with q.lock`): waiting
            # for the writer while holding it would deadlock, as the writer takes it to finish its
            # write. Waiting on the condition lets the document go until the writer is done.
            while not self._write_lock.acquire(blocking=False):
                self._on_disk.wait(0.05)
            try:
                return self._flush()
            finally:
                self._write_lock.release()
        with self._write_lock:
            return self._flush()

    def _flush(self) -> bool:
        with self.lock:
            if self._first_change is None:
                return True
            payload = orjson.dumps(self.data)
            self.serialised += 1
            number = self.serialised
            pending = (self._first_change, self._last_change)
            self._first_change = self._last_change = None
        try:
            write_atomic(self.path, payload)
        except OSError as e:
            with self.lock:
                if self._first_change is None:
                    self._first_change, self._last_change = pending
                first_failure = not self.failing
                self.failing = True
                self._wake.notify()  # the writer thread retries with a fresh tmp
                self._on_disk.notify_all()  # a waiting snapshot serialises instead
                self.last_error = f"{e.strerror or e}"
            log.error("writing %s failed: %s", self.path, self.last_error)
            if first_failure and e.errno in (errno.ENOSPC, errno.EDQUOT):
                incidents.record("disk-full", _service(), f"writing {self.path} failed: the disk is full; "
                                 "changes are kept in memory and written once there is room")
            return False
        with self.lock:
            if self.failing:
                log.warning("writing %s works again", self.path)
            self.failing = False
            self.last_error = None
            self.flushes += 1
            self.written = max(self.written, number)
            self._on_disk.notify_all()
        return True

    def due(self) -> float | None:
        """Seconds until the writer flushes the pending changes (0 or less: now); None when clean."""
        with self.lock:
            if self._first_change is None:
                return None
            assert self._last_change is not None  # the two are set and cleared together
            return min(self._last_change + self.delay, self._first_change + self.max_wait) - self.clock()

    def _run(self) -> None:
        while True:
            with self.lock:
                while not self._closed and self._first_change is None:
                    self._wake.wait()
                if self._closed:
                    return
                wait = self.due()
                assert wait is not None  # there is an unflushed change: the loop above waited for one
                if wait > 0:
                    self._wake.wait(wait)
                    continue
            if not self.flush():
                time.sleep(self.delay)

    def close(self) -> bool:
        """Flush and stop the background writer."""
        ok = self.flush()
        with self.lock:
            self._closed = True
            self._wake.notify()
            self._on_disk.notify_all()
        if self in _open_files:
            _open_files.remove(self)
        return ok


def _service() -> str:
    return "scraper" if "runscraper" in sys.argv else "reader"


def read_capped(path: StrPath) -> bytes:
    """The file's bytes; StateFileError, before reading any, when it is larger than MAX_BYTES."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size > MAX_BYTES:
            raise StateFileError(
                f"{path} is {size:,} bytes, more than the {MAX_BYTES:,} bytes a state file may have. "
                "It was left untouched: repair it or restore it from a backup, then start again."
            )
        raw = f.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:  # it grew while we read it
        raise StateFileError(f"{path} is more than the {MAX_BYTES:,} bytes a state file may have. Left untouched.")
    return raw


def write_atomic(path: StrPath, payload: bytes, *, mode: int = 0o600, tmp: StrPath | None = None,
                 sync_dir: bool = True) -> None:
    """tmp + fsync + rename + fsync(dir): the file is either the old or the new content.

    tmp defaults to `<name>.tmp` beside the target; sync_dir=False leaves the directory fsync to a
    caller that writes several files into one folder.
    """
    path = Path(path)
    tmp = Path(tmp) if tmp else path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        try:
            os.fchmod(fd, mode)
            view = memoryview(payload)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise
    if sync_dir:
        fsync_dir(path.parent)


def fsync_dir(directory: StrPath) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def any_failing() -> bool:
    return any(f.failing for f in list(_open_files))


def flush_all() -> bool:
    ok = True
    for f in list(_open_files):
        ok = f.flush() and ok
    return ok


def close_all() -> None:
    for f in list(_open_files):
        f.close()
