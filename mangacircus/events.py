"""The events one app announces and others react to, in one place. A lower layer sends; the apps
above it connect their callbacks from their AppConfig.ready(), so no module registers anything on
import and the folder list says who listens (grep for the event's name).

    events.scan_finished.connect(summaries.on_scan)   # in shelf/apps.py
    events.scan_finished.send(index, report)          # in library/service.py

Callbacks run in the sender's thread, in the order they were connected (INSTALLED_APPS order, then
the order within a ready()). Connecting the same callback twice keeps one.
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)


class Event:
    def __init__(self, name: str, arguments: str, *, robust: bool = False) -> None:
        self.name = name
        self.arguments = arguments
        self.robust = robust  # a failing callback is logged and the others still run
        self._callbacks: list[Callable[..., Any]] = []
        self._lock = threading.Lock()

    def connect(self, callback: Callable[..., Any]) -> Callable[..., Any]:
        with self._lock:
            if callback not in self._callbacks:
                self._callbacks.append(callback)
        return callback

    def disconnect(self, callback: Callable[..., Any]) -> None:
        with self._lock:
            if callback in self._callbacks:
                self._callbacks.remove(callback)

    def callbacks(self) -> list[Callable[..., Any]]:
        with self._lock:
            return list(self._callbacks)

    def send(self, *args: Any) -> None:
        for callback in self.callbacks():
            if not self.robust:
                callback(*args)
                continue
            try:
                callback(*args)
            except Exception:
                log.exception("the %s callback %r failed", self.name, callback)

    def __repr__(self) -> str:
        return f"<event {self.name}({self.arguments})>"


# After every scan of the library, the start-up restore included, in the scanner thread.
scan_finished = Event("scan finished", "index, report", robust=True)
# When an account is deleted, under db.lock(): each owner drops what only that user had in its own
# sections, so the deletion is one change on disk. A callback that raises stops the deletion.
user_deleted = Event("account deleted", "name")
# After a catalog edit that touched these manga's overrides, once the edit let catalog.json's lock go.
catalog_changed = Event("catalog changed", "names")
# A user imported their MangaDex read markers (scraper/mangadex_views.py) or a tracker list
# (trackers/connecting.py): `matches` is {manga: [(chapter id, version name, pages)]} of the chapters
# here they read there; the owner of progress marks them
# finished and adds its counts to `result` ({"marked", "already"}).
read_markers = Event("read markers imported", "user, matches, result")
# A user finished chapters (reader/progress.py: a position saved done, a chapter or many marked read),
# after the change, in the request's thread: `chapters` are the ids newly finished. Callbacks must
# only take note (trackers/sender.py queues an update); a failing one is logged.
chapters_finished = Event("chapters finished", "user, manga, chapters", robust=True)
# After a scan that recognised renamed manga folders or renumbered chapters (library/renames.py),
# before scan_finished: each owner of data keyed by manga name or chapter id re-keys it
# (mangacircus/moves.py); the reader's db.json owners together, under one db.lock(), so the move is
# one change on disk. `moves`: [Move]. A callback that raises is logged; the others still run.
library_moved = Event("manga renamed or chapters renumbered", "moves", robust=True)
