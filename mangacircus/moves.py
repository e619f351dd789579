"""A manga folder renamed, or chapters renumbered, as the scan recognised it (library/renames.py):
what every owner of data keyed by manga name or chapter id needs to carry it over.

`Move(old, new, chapters)`: the manga `old` is now named `new` (the same name when only chapters
were renumbered); `chapters` maps an old chapter id to its new one (only those that changed).
The owners connect `events.library_moved(moves)` and re-key their own sections with the helpers
below; db.json's owners are called under one db.lock(), so the whole move is one change on disk.
On a collision (the new name or id has data already: a folder that came back), what is there
stays and the moved data fills what is missing, unless the owner's `prefer` says otherwise.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple


class Move(NamedTuple):
    old: str
    new: str
    chapters: dict[str, str]

    def reversed(self) -> Move:
        return Move(self.new, self.old, {b: a for a, b in self.chapters.items()})


Prefer = Callable[[Any, Any], Any]  # (moved value, value already there) → the one kept


def _keep_there(moved: Any, there: Any) -> Any:
    return there


def chapters(by_chapter: dict[str, Any], renumbered: dict[str, str], prefer: Prefer = _keep_there) -> bool:
    """Re-key {chapter id: value} in place; True when anything moved."""
    moved = {old: by_chapter.pop(old) for old in list(renumbered) if old in by_chapter}
    for old, value in moved.items():
        new = renumbered[old]
        by_chapter[new] = prefer(value, by_chapter[new]) if new in by_chapter else value
    return bool(moved)


def manga_key(by_manga: dict[str, Any], move: Move, prefer: Prefer = _keep_there, nested: bool = True) -> bool:
    """Re-key {manga: {chapter id: value}} (or {manga: value} when not `nested`) in place."""
    changed = False
    if move.old != move.new and move.old in by_manga:
        value = by_manga.pop(move.old)
        there = by_manga.get(move.new)
        if there is None:
            by_manga[move.new] = value
        elif nested and isinstance(there, dict) and isinstance(value, dict):
            for cid, entry in value.items():
                there[cid] = prefer(entry, there[cid]) if cid in there else entry
        else:
            by_manga[move.new] = prefer(value, there)
        changed = True
    inner = by_manga.get(move.new)
    if nested and move.chapters and isinstance(inner, dict):
        changed = chapters(inner, move.chapters, prefer) or changed
    return changed


def per_user(by_user: dict[str, Any], moves: Iterable[Move], prefer: Prefer = _keep_there,
             nested: bool = True) -> bool:
    """Re-key {user: {manga: …}} in place for every move; True when anything moved."""
    changed = False
    for move in moves:
        for mine in by_user.values():
            if isinstance(mine, dict):
                changed = manga_key(mine, move, prefer, nested) or changed
    return changed


def names(values: list[Any], moves: Iterable[Move]) -> bool:
    """Replace renamed manga in a list of names, in place (no name twice); True when any was."""
    renamed = {m.old: m.new for m in moves if m.old != m.new}
    changed = False
    for i, value in enumerate(values):
        if value in renamed:
            values[i] = renamed[value]
            changed = True
    if changed:
        values[:] = list(dict.fromkeys(values))
    return changed
