"""DATA/manga-ids.json: the stable identity of each manga and chapter, and the renames the scan
recognised (docs/library.md, "Renames"). Written only by the reader, through this module; LIBRARY
is never written.

    {"schema": 1,
     "origins": {manga name: origin},             # the key the app ids are made from
     "chapters": {origin: {chapter id: origin chapter id}},   # only renumbered chapters
     "renames": [{"id", "at", "from", "to", "chapters", "why", "undone"}],   # newest last
     "refused": [[from, to]]}                      # renames an admin undid: never matched again

A manga's origin is the name it had when it was first seen, so the ids of a library that was never
renamed are what they always were; a rename carries the origin to the new name. A name first seen
while another manga holds it as its origin (the old name of a renamed folder, back in use) gets
`<name>#<n>`. User data stays keyed by the current name: its owners re-key it on each move
(events.library_moved, mangacircus/moves.py).
"""
from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _

from mangacircus.clock import now_ms
from mangacircus.errors import Conflict, NotFound
from mangacircus.moves import Move
from mangacircus.store import Document, Store

FILE = "manga-ids.json"
SCHEMA = 1
KEPT = 200  # rename records kept, newest last


def empty() -> Document:
    return {"schema": SCHEMA, "origins": {}, "chapters": {}, "renames": [], "refused": []}


def validate(data: Document) -> None:
    if data.get("schema", SCHEMA) != SCHEMA:
        raise ValueError(f"schema must be {SCHEMA}")
    for key, kind in (("origins", dict), ("chapters", dict), ("renames", list), ("refused", list)):
        if not isinstance(data.get(key, kind()), kind):
            raise ValueError(f'"{key}" must be {"an object" if kind is dict else "a list"}')
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in data.get("origins", {}).items()):
        raise ValueError('"origins" must map names to strings')


STATE = Store(FILE, empty=empty, validate=validate)


def origin(name: str) -> str:
    """The key a manga's app ids are made from: its first name, whatever it is called now."""
    if not STATE.is_open():
        return name
    with STATE.read() as data:
        return data["origins"].get(name, name)


def chapter_origin(name: str, cid: str) -> str:
    if not STATE.is_open():
        return cid
    with STATE.read() as data:
        return data["chapters"].get(data["origins"].get(name, name), {}).get(cid, cid)


def _free_origin(data: Document, name: str) -> str:
    used = set(data["origins"].values())
    if name not in used:
        return name
    n = 2
    while f"{name}#{n}" in used:
        n += 1
    return f"{name}#{n}"


def see(names: Iterable[str]) -> None:
    """Give each name not seen before its origin."""
    with STATE.read() as data:
        new = [n for n in names if n not in data["origins"]]
    if not new:
        return
    with STATE.edit() as data:
        for name in new:
            if name not in data["origins"]:
                data["origins"][name] = _free_origin(data, name)


def _carry_chapters(chapters: dict[str, dict[str, str]], key: str, renumbered: dict[str, str]) -> None:
    """The origins of renumbered chapters follow them; a chapter back at its origin needs none."""
    if not renumbered:
        return
    mine = chapters.setdefault(key, {})
    for old_cid, new_cid in renumbered.items():
        mine[new_cid] = mine.pop(old_cid, old_cid)
        if mine[new_cid] == new_cid:
            del mine[new_cid]


def is_refused(old: str, new: str) -> bool:
    with STATE.read() as data:
        return [old, new] in data["refused"]


def record(moves: list[tuple[Move, str]]) -> list[dict[str, Any]]:
    """Carry the origins over for these moves and keep a record of each; answers the records."""
    made = []
    with STATE.edit() as data:
        origins, chapters = data["origins"], data["chapters"]
        for move, why in moves:
            key = origins.pop(move.old, move.old) if move.old != move.new else origins.get(move.old, move.old)
            origins[move.new] = key
            _carry_chapters(chapters, key, move.chapters)
            entry = {"id": secrets.token_hex(4), "at": now_ms(), "from": move.old, "to": move.new,
                     "chapters": dict(move.chapters), "why": why, "undone": False}
            data["renames"].append(entry)
            made.append(dict(entry))
        del data["renames"][:-KEPT]
    return made


def renames() -> list[dict[str, Any]]:
    """The rename records, newest first."""
    with STATE.read() as data:
        return [dict(r) for r in reversed(data["renames"])]


def undo(rename_id: str, present: Iterable[str]) -> Move:
    """Undo a rename an admin says was wrong: the origins go back, the pair is never matched again,
    and the Move that carries the data back is answered (the caller sends it). `present`: the
    names in the index now; a rename whose new name is gone, or was renamed since, is a Conflict."""
    with STATE.edit() as data:
        entry = next((r for r in data["renames"] if r["id"] == rename_id), None)
        if entry is None:
            raise NotFound(_("no rename %(id)s") % {"id": repr(rename_id)})
        if entry["undone"]:
            raise Conflict(_("that rename was undone already"))
        if entry["to"] not in set(present):
            raise Conflict(_("%(name)s is no longer in the library: nothing to undo") % {"name": entry["to"]})
        move = Move(entry["from"], entry["to"], dict(entry["chapters"])).reversed()
        origins = data["origins"]
        key = origins.pop(entry["to"], entry["to"])
        if move.new != move.old:
            origins[move.new] = key
            origins[entry["to"]] = _free_origin(data, entry["to"])
        _carry_chapters(data["chapters"], key, move.chapters)
        entry["undone"] = True
        data["refused"].append([entry["from"], entry["to"]])
    return move
