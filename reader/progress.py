"""Reading progress in db.json: progress[user][manga][chapter id] (docs/api.md, POST /api/progress).

Callers validate ids against the index first, so db.json only ever holds real chapters.
"""
from . import store


def chapter_progress(user, manga, cid):
    with store.db.lock:
        entry = store.db.data["progress"].get(user, {}).get(manga, {}).get(cid)
        return dict(entry) if entry else None


def manga_progress(user, manga):
    """{chapter id: entry} for one manga (copies)."""
    with store.db.lock:
        return {cid: dict(e) for cid, e in store.db.data["progress"].get(user, {}).get(manga, {}).items()}


def all_progress(user):
    """{manga: {chapter id: entry}} (copies), for the library page."""
    with store.db.lock:
        return {m: {cid: dict(e) for cid, e in chapters.items()}
                for m, chapters in store.db.data["progress"].get(user, {}).items()}


def save(user, manga, cid, *, version, page, pages, done, shift):
    """Record the position. `done` is sticky: once a chapter is finished it stays finished until
    marked unread."""
    with store.db.lock:
        chapters = store.db.data["progress"].setdefault(user, {}).setdefault(manga, {})
        old = chapters.get(cid) or {}
        entry = {"v": version, "p": page, "n": pages, "t": store.now_ms(),
                 "done": bool(old.get("done")) or bool(done), "shift": list(shift)}
        chapters[cid] = entry
        store.db.touch()
        return dict(entry)


def mark_done(user, manga, cid, version, pages):
    with store.db.lock:
        chapters = store.db.data["progress"].setdefault(user, {}).setdefault(manga, {})
        old = chapters.get(cid) or {}
        chapters[cid] = {"v": old.get("v", version), "p": old.get("p", 0), "n": old.get("n", pages),
                         "t": store.now_ms(), "done": True, "shift": old.get("shift", [])}
        store.db.touch()


def forget(user, manga, cid):
    """Mark unread: drop the chapter's progress."""
    with store.db.lock:
        mangas = store.db.data["progress"].get(user, {})
        chapters = mangas.get(manga, {})
        if chapters.pop(cid, None) is not None:
            if not chapters:
                mangas.pop(manga, None)
            store.db.touch()


def map_page(page, from_pages, to_pages):
    """The page of another version at the same relative position."""
    if from_pages <= 1 or to_pages <= 1:
        return 0
    return min(to_pages - 1, max(0, round(page * (to_pages - 1) / (from_pages - 1))))
