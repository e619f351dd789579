"""DATA/catalog.json: relations, groups, overrides, proposals and the change history (docs/catalog.md).

One Store (mangacircus/store.py: atomic, debounced, rolled back on failure), opened at start by the catalog app and
written only by the reader (a command hands its change to the reader through mangacircus.localadmin).
A corrupt file, or one of a newer schema, stops the start naming the file; it is never replaced.

Only the modules of this package touch the document, through `edit()` (a change, carrying the
revision the curator saw: a stale one is refused with Conflict) or `read()` (a look, under the lock).
"""
from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager

from django.utils.translation import gettext as _

from mangacircus import events
from mangacircus import moves as moved
from mangacircus.clock import now_ms
from mangacircus.errors import Conflict, Unavailable
from mangacircus.moves import Move
from mangacircus.store import Document, Store

SCHEMA = 1
FILE = "catalog.json"
HISTORY = 500  # changes kept in the history, newest last
LISTS = ("relations", "groups", "proposals", "history")

_local = threading.local()  # .depth of nested edits in this thread, .names they touched


def empty() -> Document:
    return {"schema": SCHEMA, "rev": 0, "relations": [], "groups": [], "overrides": {}, "proposals": [],
            "history": []}


def validate(data: Document) -> None:
    """ValueError for a document this version must not load (JsonFile names the file)."""
    schema = data.get("schema", SCHEMA)
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
        raise ValueError(f"schema must be a whole number from 1, not {schema!r}")
    if schema > SCHEMA:
        raise ValueError(f"it has schema {schema}, newer than the {SCHEMA} this version reads; "
                         "run the newer MangaCircus, or restore an older copy")
    for key in LISTS:
        if key in data and not isinstance(data[key], list):
            raise ValueError(f'"{key}" must be a list')
    if "overrides" in data and not isinstance(data["overrides"], dict):
        raise ValueError('"overrides" must be an object')
    for i, item in enumerate(data.get("relations", [])):
        if not (isinstance(item, dict) and all(isinstance(item.get(k), str) for k in ("a", "type", "b"))):
            raise ValueError(f"relations[{i}] must have the strings a, type and b")
    for i, item in enumerate(data.get("groups", [])):
        if not (isinstance(item, dict) and isinstance(item.get("id"), str) and isinstance(item.get("members"), list)):
            raise ValueError(f"groups[{i}] must have an id and a list of members")


STATE = Store(FILE, empty=empty, validate=validate)


def read() -> AbstractContextManager[Document]:
    """The live document, under its lock (do not change it)."""
    return STATE.read()


def revision() -> int:
    with STATE.read() as data:
        return data["rev"]


class Change:
    """What an edit did, for the history: set `what` (words) and, for overrides, `names`."""

    def __init__(self, data: Document) -> None:
        self.data = data
        self.what: str | None = None
        self.names: set[str] = set()


@contextmanager
def edit(by: str, rev: int | None = None) -> Iterator[Change]:
    """Change the document: `rev` (when given) must be the current revision, else Conflict.
    The body sets change.what; a body that raises leaves the document as it was before the
    outermost edit began (mangacircus/store.py)."""
    if STATE.failing:
        raise Unavailable(_("saving data is failing on the server; try again shortly"), retry_after=5)
    outer = not getattr(_local, "depth", 0)
    if outer:
        _local.names = set()
    _local.depth = getattr(_local, "depth", 0) + 1
    try:
        with STATE.edit() as data:
            if rev is not None and rev != data["rev"]:
                raise Conflict(_("the catalog changed since you loaded it (revision %(rev)s, now %(now)s); "
                                 "reload and make the change again") % {"rev": rev, "now": data["rev"]})
            change = Change(data)
            yield change
            if change.what is not None:
                data["rev"] += 1
                data["history"].append({"t": now_ms(), "by": by, "what": change.what, "rev": data["rev"]})
                del data["history"][:-HISTORY]
                _local.names |= change.names
    finally:
        _local.depth -= 1
    # Listeners run after the outermost edit let the lock go: they take locks of their own (the
    # shelf's summary cache), whose holders may be waiting to read the catalog.
    if outer and _local.names:
        names, _local.names = _local.names, set()
        events.catalog_changed.send(names)


def on_moved(moves: list[Move]) -> None:
    """events.library_moved: relations, groups, overrides and open proposals name a renamed manga by
    its new name (a name already overridden keeps its own override); the history keeps the old."""
    renamed = {m.old: m.new for m in moves if m.old != m.new}
    if not renamed:
        return
    with edit("library scan") as change:
        data = change.data
        for item in [*data["relations"], *(p for p in data["proposals"] if p.get("state") == "open")]:
            for key in ("a", "b", "m"):
                if item.get(key) in renamed:
                    item[key] = renamed[item[key]]
        for group in data["groups"]:
            if isinstance(group.get("members"), list):
                moved.names(group["members"], moves)
        overrides = data["overrides"]
        for old, new in renamed.items():
            if old in overrides:
                kept = overrides.pop(old)
                overrides.setdefault(new, kept)
        change.what = "renamed " + ", ".join(f"{a} → {b}" for a, b in renamed.items())
        change.names = set(renamed) | set(renamed.values())
