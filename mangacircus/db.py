"""db.json: one JsonFile, each of its sections owned by exactly one module.

Only the owner of a section reads or changes it, through `section()`, while holding `lock()`;
everyone else calls the owner's functions. tests/test_structure.py fails when a module touches a
section it does not own, or the document's data directly. Security-relevant changes are made
inside `security_change()`: on disk before they answer, and undone when the write fails.
"""
from __future__ import annotations

import copy
import itertools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.utils.translation import gettext as _

from . import events
from .errors import Unavailable
from .jsonfile import Document, JsonFile, StrPath

OWNERS = {
    "users": "accounts.users",
    "sessions": "accounts.sessions",
    "progress": "reader.progress",
    "reading": "reader.reading_clock",
    "follows": "reader.social",
    "notes": "reader.notes",
    "votes": "reader.votes",
    "known": "reader.announce",
    "apikeys": "accounts.apikeys",
    "basic": "accounts.basic",
    "twofactor": "accounts.totp",
    "passkeys": "accounts.passkeys",
    "server": "reader.serverprefs",
    "restrictions": "reader.access",
    "dismissed": "reader.dismissals",
    "collections": "reader.collections",
    "readlists": "reader.readlists",
    "ratings": "reader.ratings",
    "wanttoread": "reader.wanttoread",
    "push": "reader.push_devices",
}

_db: JsonFile | None = None  # the open JsonFile
_validators: list[Callable[[Document], None]] = []
_change = threading.local()  # .sections: those saved by this thread's security_change(), if inside one


def add_validator(check: Callable[[Document], None]) -> None:
    """`check(data)` raises ValueError for a document that must not be loaded (registered by owners)."""
    if check not in _validators:
        _validators.append(check)


def _validate(data: Document) -> None:
    for key in OWNERS:
        if key in data and not isinstance(data[key], dict):
            raise ValueError(f'"{key}" must be an object')
    for check in _validators:
        check(data)


def check(path: StrPath) -> None:
    """Load db.json once and close it: raises StateFileError on a corrupt file."""
    JsonFile(path, validate=_validate).close()


def open_db(path: StrPath) -> JsonFile:
    global _db
    _db = JsonFile(path, validate=_validate)
    with _db.lock:
        for key in OWNERS:
            _db.data.setdefault(key, {})
    return _db


def close_db() -> None:
    global _db
    if _db is not None:
        _db.close()
        _db = None


def is_open() -> bool:
    return _db is not None


def _file() -> JsonFile:
    """The open db.json (open_db() runs at the start, before anything reads or changes it)."""
    assert _db is not None, "db.json is not open"
    return _db


def lock() -> threading.RLock:
    return _file().lock


def section(name: str) -> dict[str, Any]:
    """The live dict of a section; hold lock() while using it."""
    return _file().data[name]


def touch(owner: str | None = None) -> None:
    """Record a change made under lock(). `owner`: a user whose own data alone changed, data no other
    user's pages show (their reading progress); None: a change anyone's pages may show."""
    _file().touch()
    if owner is None:
        _shared_changes[0] = next(_sequence)
    else:
        _own_changes[owner] = next(_sequence)


def changes() -> int:
    """A count that moves with every change of db.json (see JsonFile.changes); 0 while it is closed."""
    db = _db
    return 0 if db is None else db.changes


# For caches of what users see (shelf/pagecache.py): numbers from one sequence, so a value is never
# seen twice, not even for a user deleted and made again.
_sequence = itertools.count(1)
_shared_changes = [0]
_own_changes: dict[str, int] = {}  # owner → the number of their last own change


def shared_changes() -> int:
    """Moves with every change made with touch() without an owner."""
    return _shared_changes[0]


def own_changes(owner: str) -> int:
    """Moves with every touch(owner)."""
    return _own_changes.get(owner, 0)


def snapshot() -> bytes | None:
    """db.json for a backup, as of now or of its next flush (JsonFile.snapshot); None when closed."""
    db = _db
    return None if db is None else db.snapshot()


def flush_now() -> None:
    """Write db.json before answering; Unavailable when the write fails (the change stays in memory
    and is written by the next successful flush)."""
    if not _file().flush():
        raise Unavailable(_("saving data is failing on the server; try again shortly"), retry_after=5)


@contextmanager
def security_change(*sections: str) -> Iterator[None]:
    """A change to accounts, roles, passwords or sessions, which must be true when answered:
    made under lock(), written to disk before anyone else sees it, and undone when the write fails
    (Unavailable), so a 503 means that nothing changed, here or on disk.

    `sections` are those the change may touch, deep-copied first to be restored; all of them when
    none are named (a deletion reaches every owner's section through forget_user). A call inside
    another joins it: the outer one writes. Never enter it while holding lock() alone.
    """
    names = sections or tuple(OWNERS)
    outer = getattr(_change, "sections", None)
    if outer is not None:
        assert set(names) <= outer, f"{names} are not all in the enclosing security_change {sorted(outer)}"
        yield
        return
    db = _file()
    with db.exclusive():
        saved = {name: copy.deepcopy(db.data[name]) for name in names}
        _change.sections = set(names)
        try:
            yield
            touch()
            written = db.flush(held=True)
        except BaseException:
            db.data.update(saved)
            raise
        finally:
            _change.sections = None
        if not written:
            db.data.update(saved)
            raise Unavailable(_("saving data is failing on the server, so nothing was changed; try again shortly"),
                              retry_after=5)


def forget_user(name: str) -> None:
    """Called by accounts.users.delete_user under lock()."""
    events.user_deleted.send(name)
