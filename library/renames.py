"""Renames and renumbering, recognised after each scan (docs/library.md, "Renames").

A manga folder that is gone, and one that appeared in the same scan, are the same manga renamed
(or moved) when at least MATCH of the old one's chapter versions are found in the new one by their
fingerprint (model.Version.fingerprint: the folder's mtime, which a rename keeps, its page names
and sizes), or when both name the same series at a source (manga.json `sources`, e.g. a MangaDex
id); the best candidate wins, a tie matches nothing. In a manga that stayed, a chapter id that is
gone and one that appeared with the same fingerprint are one chapter renumbered. A pair an admin
undid (ids.is_refused) is never matched again.

`apply()` records each move in manga-ids.json, sends events.library_moved under db.lock() so the
owners of user data re-key it as one change on disk, and adds "renamed A → B" lines to the report.
"""
from __future__ import annotations

import logging
from collections import Counter
from typing import Any

from mangacircus import events
from mangacircus.moves import Move

from . import ids, index
from .index import Index
from .model import Manga

log = logging.getLogger(__name__)

MATCH = 0.8  # of the old manga's versions found in the new one


def _prints(manga: Manga) -> dict[tuple[int, str, bytes], str]:
    return {v.fingerprint(): c.id for c in manga.chapters() for v in c.versions}


def _series(manga: Manga) -> set[tuple[str, str]]:
    sources = manga.meta.get("sources") if isinstance(manga.meta, dict) else None
    if not isinstance(sources, dict):
        return set()
    return {(k, v) for k, v in sources.items() if isinstance(k, str) and isinstance(v, str) and v}


def _renamed(gone: list[Manga], came: list[Manga]) -> list[tuple[Move, str]]:
    owner: dict[tuple[int, str, bytes], tuple[str, str]] = {}  # fingerprint → (new manga, chapter id)
    series: dict[tuple[str, str], set[str]] = {}
    for m in came:
        for fp, cid in _prints(m).items():
            owner.setdefault(fp, (m.name, cid))
        for key in _series(m):
            series.setdefault(key, set()).add(m.name)
    found: list[tuple[Move, str]] = []
    taken: set[str] = set()
    for old in sorted(gone, key=lambda m: m.name):
        prints = _prints(old)
        hits: Counter[str] = Counter()
        maps: dict[str, dict[str, str]] = {}
        for fp, cid in prints.items():
            if fp in owner:
                name, new_cid = owner[fp]
                hits[name] += 1
                maps.setdefault(name, {})[cid] = new_cid
        ranked = [(n, c) for n, c in hits.most_common() if n not in taken and not ids.is_refused(old.name, n)]
        same = {n for key in _series(old) for n in series.get(key, ())} - taken
        same = {n for n in same if not ids.is_refused(old.name, n)}
        pick, why = None, ""
        if ranked and ranked[0][1] >= MATCH * len(prints) and (len(ranked) == 1 or ranked[1][1] < ranked[0][1]):
            pick, why = ranked[0][0], f"{ranked[0][1]} of its {len(prints)} chapter versions are there, unchanged"
        elif len(same) == 1:
            pick = next(iter(same))
            why = "both name the same series at " + ", ".join(sorted(k for k, _ in _series(old)))
        if pick is None:
            continue
        taken.add(pick)
        chapters = {a: b for a, b in maps.get(pick, {}).items() if a != b}
        found.append((Move(old.name, pick, chapters), why))
    return found


def _renumbered(previous: Manga, current: Manga) -> dict[str, str]:
    before = {c.id for c in previous.chapters()}
    now = {c.id for c in current.chapters()}
    gone, came = before - now, now - before
    if not gone or not came:
        return {}
    owner: dict[tuple[int, str, bytes], str] = {}
    for c in current.chapters():
        if c.id in came:
            for v in c.versions:
                owner.setdefault(v.fingerprint(), c.id)
    found: dict[str, str] = {}
    for c in previous.chapters():
        if c.id in gone:
            targets = {owner[fp] for fp in (v.fingerprint() for v in c.versions) if fp in owner}
            if len(targets) == 1:
                found[c.id] = targets.pop()
    if len(set(found.values())) != len(found):  # two old chapters in one new: not a renumbering
        return {}
    return found


def detect(previous: Index, current: Index, changed: dict[str, list[str]]) -> list[tuple[Move, str]]:
    """[(Move, why)] for the scan that turned `previous` into `current` (its report's "changed")."""
    gone = [m for m in (previous.get(n) for n in changed.get("removed", ())) if m is not None]
    came = [m for m in (current.get(n) for n in changed.get("added", ())) if m is not None]
    moves = _renamed(gone, came) if gone and came else []
    for name in changed.get("changed", ()):
        before, now = previous.get(name), current.get(name)
        if before is not None and now is not None:
            renumbered = _renumbered(before, now)
            if renumbered:
                moves.append((Move(name, name, renumbered), f"{len(renumbered)} chapters renumbered, pages unchanged"))
    return moves


def send(moves: list[Move]) -> None:
    """Have every owner re-key its data (the reader's db.json sections as one change: reader/apps.py)."""
    if moves:
        events.library_moved.send(moves)


def apply(previous: Index, current: Index, report: dict[str, Any]) -> None:
    """Recognise, record and carry over the moves of one scan; give new names their ids."""
    if not ids.STATE.is_open():
        return
    found = detect(previous, current, report["changed"]) if not previous.unavailable else []
    if found:
        ids.record(found)
        send([move for move, _ in found])
    ids.see(current.manga)
    lines = []
    for move, why in found:
        if move.old != move.new:
            lines.append(f"renamed {move.old} → {move.new} ({why})")
        for a, b in move.chapters.items():
            lines.append(f"{move.new}: chapter {a} → {b}")
        log.info("library: %s → %s (%s)", move.old, move.new, why)
    report["renamed"] = lines


def undo(rename_id: str) -> Move:
    """Undo a rename an admin says was wrong (ids.undo): the data goes back to the old name (kept
    there, as for any folder that is gone), and the pair is never matched again."""
    move = ids.undo(rename_id, index.current().manga)
    send([move])
    log.info("library: rename %s undone: %s → %s", rename_id, move.old, move.new)
    return move
