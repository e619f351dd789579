"""The `notes` section of db.json: in-app notifications, notes[user] = [{id, t, m, c, text, read}, …],
oldest first, each user keeping the newest MAX_NOTES. Each user only ever reaches their own, and
only those about manga their restrictions let them see (reader/access.py)."""
from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from mangacircus import db
from mangacircus.clock import now_ms
from mangacircus.moves import Move

from . import access

MAX_NOTES = 200
ALL = object()  # mark_read(user, ALL): every notification of the user


def forget_user(name: str) -> None:
    db.section("notes").pop(name, None)



def on_moved(moves: list[Move]) -> None:
    """events.library_moved (under db.lock()): notifications name the manga and chapter as they are
    called now, so their links (lookup.note_url) lead there."""
    renamed = {m.old: m for m in moves}
    for mine in db.section("notes").values():
        for note in mine if isinstance(mine, list) else ():
            name = note.get("m") if isinstance(note, dict) else None
            move = renamed.get(name) if isinstance(name, str) else None
            if move is not None:
                note["m"] = move.new
                cid = note.get("c")
                note["c"] = move.chapters.get(cid, cid) if isinstance(cid, str) else cid


def add(user: str, items: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Append notifications {m, c, text} for a user (unread, stamped now); returns the stored ones."""
    now = now_ms()
    with db.lock():
        notes = db.section("notes").get(user)
        if not isinstance(notes, list):
            notes = db.section("notes")[user] = []
        added = [{"id": secrets.token_hex(6), "t": now, "m": item["m"], "c": item["c"], "text": item["text"],
                  "read": False} for item in items]
        notes.extend(added)
        del notes[:-MAX_NOTES]
        db.touch()
    return added


def notifications(user: str) -> list[dict[str, Any]]:
    """The user's notifications, newest first (copies)."""
    sees = access.visible(user)
    with db.lock():
        return [dict(note) for note in reversed(db.section("notes").get(user, [])) if sees(note.get("m"))]


def unread_count(user: str) -> int:
    sees = access.visible(user)
    with db.lock():
        return sum(1 for note in db.section("notes").get(user, []) if not note.get("read") and sees(note.get("m")))


def mark_read(user: str, which: object) -> int | None:
    """Mark one notification (by id) or ALL of them read. Returns how many changed, or None when
    no notification of this user has that id."""
    with db.lock():
        mine = db.section("notes").get(user, [])
        if which is ALL:
            targets = mine
        else:
            sees = access.visible(user)
            targets = [note for note in mine if note.get("id") == which and sees(note.get("m"))]
            if not targets:
                return None
        return _mark(targets)


def mark_chapter_read(user: str, manga: str, cid: str) -> bool:
    """Opening a chapter marks that chapter's notifications read; returns whether any changed."""
    with db.lock():
        targets = [note for note in db.section("notes").get(user, [])
                   if isinstance(note, dict) and note.get("m") == manga and note.get("c") == cid]
        return bool(_mark(targets))


def _mark(targets: Iterable[dict[str, Any]]) -> int:
    changed = 0
    for note in targets:
        if not note.get("read"):
            note["read"] = True
            changed += 1
    if changed:
        db.touch()
    return changed
