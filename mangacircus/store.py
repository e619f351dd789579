"""One state file of DATA held by one owning module: the helper behind catalog.json, peers.json and
backup.json (db.json has its sections and mangacircus/db.py).

    CATALOG = Store("catalog.json", empty=empty, validate=validate)
    CATALOG.open()                    # at the reader's start (AppConfig.start_runtime)
    with CATALOG.read() as data: ...  # a look, under the lock; do not change it
    with CATALOG.edit() as data: ...  # a change, written within the debounce window
    with CATALOG.edit(immediate=True) as data: ...  # a change on disk before edit() returns

The same names everywhere: check(), open(), close(), is_open(), snapshot(), changes(), read(),
edit(). An edit whose body raises leaves the document as it was before the edit began, and so does
an immediate edit whose write fails (it raises Unavailable then): a refused change is never written
by a later flush. Edits nest; only the outermost one takes the copy it rolls back to, and only it
writes. The copy is the document's serialised form (orjson), cheaper than a deep copy.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import orjson
from django.conf import settings
from django.utils.translation import gettext_lazy

from .errors import Unavailable
from .jsonfile import Document, JsonFile

WRITE_FAILED = gettext_lazy("saving data is failing on the server, so nothing was changed; try again shortly")


class Store:
    def __init__(self, file_name: str, *, empty: Callable[[], Document] = dict,
                 validate: Callable[[Document], None] | None = None) -> None:
        self.file_name = file_name
        self.empty = empty
        self.validate = validate
        self._file: JsonFile | None = None
        self._open_lock = threading.Lock()
        self._local = threading.local()  # .depth of the edits this thread is inside

    def path(self, data_dir: Path | None = None) -> Path:
        return Path(data_dir or settings.DATA) / self.file_name

    def check(self, data_dir: Path | None = None) -> None:
        """Load the file once and close it: StateFileError on a corrupt one (the start stops)."""
        JsonFile(self.path(data_dir), default=self.empty, validate=self.validate).close()

    def open(self, data_dir: Path | None = None) -> JsonFile:
        """Open the file (once; later calls answer the open one), filling in the keys of empty()."""
        with self._open_lock:
            if self._file is None:
                f = JsonFile(self.path(data_dir), default=self.empty, validate=self.validate)
                with f.lock:
                    for key, value in self.empty().items():
                        f.data.setdefault(key, value)
                self._file = f
            return self._file

    def close(self) -> None:
        with self._open_lock:
            if self._file is not None:
                self._file.close()
                self._file = None

    def is_open(self) -> bool:
        return self._file is not None

    @property
    def file(self) -> JsonFile:
        f = self._file
        if f is None:
            raise RuntimeError(f"{self.file_name} is not open")
        return f

    def snapshot(self) -> bytes | None:
        """The document for a backup, as of now or of its next flush; None while it is closed."""
        f = self._file
        return None if f is None else f.snapshot()

    def changes(self) -> int:
        """A count that moves with every change (JsonFile.changes); 0 while it is closed."""
        f = self._file
        return 0 if f is None else f.changes

    @property
    def failing(self) -> bool:
        f = self._file
        return f is not None and f.failing

    @contextmanager
    def read(self) -> Iterator[Document]:
        f = self.file
        with f.lock:
            yield f.data

    @contextmanager
    def edit(self, *, immediate: bool = False, failed: str | None = None) -> Iterator[Document]:
        """Change the document; see the module's docstring. `failed` is the message of the
        Unavailable an immediate edit raises when its write fails (WRITE_FAILED when None)."""
        f = self.file
        depth = getattr(self._local, "depth", 0)
        if depth:
            self._local.depth = depth + 1
            try:
                yield f.data
            finally:
                self._local.depth = depth
            return
        holder = f.exclusive() if immediate else f.lock
        with holder:
            before = orjson.dumps(f.data)
            self._local.depth = 1
            try:
                yield f.data
            except BaseException:
                f.data = orjson.loads(before)
                raise
            finally:
                self._local.depth = 0
            if orjson.dumps(f.data) == before:
                return
            f.touch()
            if immediate and not f.flush(held=True):
                f.data = orjson.loads(before)
                f.touch()
                raise Unavailable(failed or str(WRITE_FAILED), retry_after=5)
