"""Reading progress in db.json: progress[user][manga][chapter id] (docs/api.md, POST /api/progress).

Callers validate ids against the index first, so db.json only ever holds real chapters.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Any, TypedDict, cast

from mangacircus import db, events
from mangacircus import moves as moved
from mangacircus.clock import now_ms
from mangacircus.moves import Move


class Progress(TypedDict):
    """progress[user][manga][chapter id]: where the user is in one chapter (docs/api.md, POST /api/progress)."""
    v: str              # the version (its folder name) read
    p: int              # the page index, from 0 to n - 1
    n: int              # that version's page count
    t: int              # when it was saved, ms
    done: bool          # finished; it stays so until the chapter is marked unread
    shift: list[int]    # the page indices where Book mode starts a run with a lone page


def _changed(user: str) -> None:
    """After every write of a user's progress: the change is the user's alone (db.touch's owner), so
    other users' cached library pages stay (shelf/pagecache.py), and shelf.py's read state is made
    again for this user only."""
    db.touch(user)


def _finished(user: str, manga: str, cids: list[str]) -> None:
    """After the lock is let go: tell whoever keeps lists elsewhere (trackers) what was finished."""
    if cids:
        events.chapters_finished.send(user, manga, cids)


def forget_user(name: str) -> None:
    db.section("progress").pop(name, None)
    _changed(name)


def on_moved(moves: list[Move]) -> None:
    """events.library_moved (under db.lock()): positions follow a renamed manga or chapter; where
    both have one, the newer is kept."""
    moved.per_user(db.section("progress"), moves, prefer=lambda a, b: a if a.get("t", 0) > b.get("t", 0) else b)


def chapter_progress(user: str, manga: str, cid: str) -> Progress | None:
    with db.lock():
        entry = db.section("progress").get(user, {}).get(manga, {}).get(cid)
        return cast(Progress, dict(entry)) if entry else None


def manga_progress(user: str, manga: str) -> dict[str, Progress]:
    """{chapter id: entry} for one manga (copies)."""
    with db.lock():
        return {cid: cast(Progress, dict(e)) for cid, e in db.section("progress").get(user, {}).get(manga, {}).items()}


def stamp(user: str) -> tuple[int, dict[str, Any]]:
    """(the user's count of changes, the section's dict): equal stamps (the dict compared by identity)
    mean the user's progress did not change."""
    with db.lock():
        return db.own_changes(user), db.section("progress")


def all_progress(user: str) -> dict[str, dict[str, Progress]]:
    """{manga: {chapter id: entry}} (copies), for the library page."""
    with db.lock():
        return {m: {cid: cast(Progress, dict(e)) for cid, e in chapters.items()}
                for m, chapters in db.section("progress").get(user, {}).items()}


def read_state(user: str,
               chapters_of: Callable[[str], Collection[str] | None]) -> dict[str, tuple[int, int]]:
    """{manga: (finished chapters, last read ms)} over the chapters `chapters_of(manga)` names (a set
    of ids, or None to leave the manga out), read in place: the library page needs no copies."""
    state: dict[str, tuple[int, int]] = {}
    with db.lock():
        for manga, entries in db.section("progress").get(user, {}).items():
            current = chapters_of(manga)
            if not current:
                continue
            done, last, seen = 0, 0, False
            for cid, entry in entries.items():
                if cid in current:
                    seen = True
                    done += 1 if entry.get("done") else 0
                    last = max(last, entry.get("t") or 0)
            if seen:
                state[manga] = (done, last)
    return state


def done_ids(user: str) -> dict[str, list[str]]:
    """{manga: [finished chapter ids]} of every manga the user has progress in (an empty list for one
    only started), without copying the entries."""
    with db.lock():
        return {m: [cid for cid, e in chapters.items() if e.get("done")]
                for m, chapters in db.section("progress").get(user, {}).items() if chapters}


def readers_per_manga(minimum: int) -> dict[str, int]:
    """{manga: number of users with progress in it}, only where at least `minimum` users have: an
    aggregate that names no user (the discovery feed's "read by N people here")."""
    counts: dict[str, int] = {}
    with db.lock():
        for chapters in db.section("progress").values():
            for manga in chapters:
                counts[manga] = counts.get(manga, 0) + 1
    return {m: n for m, n in counts.items() if n >= minimum}


def save(user: str, manga: str, cid: str, *, version: str, page: int, pages: int, done: bool,
         shift: Iterable[int], at: int | None = None) -> Progress:
    """Record the position. `done` is sticky: once a chapter is finished it stays finished until
    marked unread.

    `at` (ms) is when the reader took the position, for a write queued offline and sent later
    (docs/offline.md): the latest activity wins, so a position older than the stored one changes
    nothing but done. A time ahead of the server's clock counts as now, so no client can claim
    the future and beat every later write.
    """
    with db.lock():
        chapters = db.section("progress").setdefault(user, {}).setdefault(manga, {})
        old = chapters.get(cid) or {}
        newly = [cid] if done and not old.get("done") else []
        t = now_ms() if at is None else min(at, now_ms())
        if at is not None and old and t <= (old.get("t") or 0):
            if newly:
                chapters[cid] = {**old, "done": True}
                _changed(user)
            kept = cast(Progress, dict(chapters[cid]))
        else:
            kept = {"v": version, "p": page, "n": pages, "t": t,
                    "done": bool(old.get("done")) or bool(done), "shift": list(shift)}
            chapters[cid] = kept
            _changed(user)
            kept = cast(Progress, dict(kept))
    _finished(user, manga, newly)
    return kept


def mark_done(user: str, manga: str, cid: str, version: str, pages: int) -> None:
    with db.lock():
        chapters = db.section("progress").setdefault(user, {}).setdefault(manga, {})
        old = chapters.get(cid) or {}
        chapters[cid] = {"v": old.get("v", version), "p": old.get("p", 0), "n": old.get("n", pages),
                         "t": now_ms(), "done": True, "shift": old.get("shift", [])}
        _changed(user)
    _finished(user, manga, [] if old.get("done") else [cid])


def mark_many(user: str, manga: str, chapters: Iterable[tuple[str, str, int]]) -> None:
    """Mark chapters done at once: `chapters` is [(chapter id, version, pages)]; a chapter already
    started keeps its position, as with mark_done."""
    now = now_ms()
    newly = []
    with db.lock():
        stored = db.section("progress").setdefault(user, {}).setdefault(manga, {})
        for cid, version, pages in chapters:
            old = stored.get(cid) or {}
            if old.get("done"):
                continue
            stored[cid] = {"v": old.get("v", version), "p": old.get("p", 0), "n": old.get("n", pages),
                           "t": now, "done": True, "shift": old.get("shift", [])}
            newly.append(cid)
        _changed(user)
    _finished(user, manga, newly)


def merged(old: Progress | dict[str, Any] | None, new: Progress) -> Progress | None:
    """What an imported position makes of the stored one, or None when it changes nothing: the
    newer position wins (an equal time keeps the stored one), and done stays done either way."""
    if not old:
        return cast(Progress, dict(new))
    done = bool(old.get("done")) or bool(new.get("done"))
    entry = dict(new) if new["t"] > (old.get("t") or 0) else dict(old)
    entry["done"] = done
    if not entry.get("shift"):
        entry["shift"] = list(old.get("shift") or [])
    return None if entry == old else cast(Progress, entry)


def import_many(entries: Iterable[tuple[str, str, str, Progress]]) -> int:
    """Positions brought from another server (imports/): [(user, manga, chapter id, entry)], each
    merged into the stored one as merged() says, in one pass under the lock; -> how many changed."""
    changed_users: set[str] = set()
    count = 0
    with db.lock():
        section = db.section("progress")
        for user, manga, cid, new in entries:
            chapters = section.setdefault(user, {}).setdefault(manga, {})
            entry = merged(chapters.get(cid), new)
            if entry is not None:
                chapters[cid] = entry
                changed_users.add(user)
                count += 1
        for user in changed_users:
            _changed(user)
    return count


def forget_many(user: str, manga: str, cids: Iterable[str]) -> None:
    """Mark chapters unread at once."""
    with db.lock():
        mangas = db.section("progress").get(user, {})
        stored = mangas.get(manga, {})
        changed = [stored.pop(cid) for cid in cids if cid in stored]
        if not stored:
            mangas.pop(manga, None)
        if changed:
            _changed(user)


def forget(user: str, manga: str, cid: str) -> None:
    """Mark unread: drop the chapter's progress."""
    with db.lock():
        mangas = db.section("progress").get(user, {})
        chapters = mangas.get(manga, {})
        if chapters.pop(cid, None) is not None:
            if not chapters:
                mangas.pop(manga, None)
            _changed(user)


def map_page(page: int, from_pages: int, to_pages: int) -> int:
    """The page of another version at the same relative position."""
    if from_pages <= 1 or to_pages <= 1:
        return 0
    return min(to_pages - 1, max(0, round(page * (to_pages - 1) / (from_pages - 1))))
