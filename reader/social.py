"""Follows and in-app notifications in db.json (docs/api.md, "Follows and notifications").

follows[user][manga] = true; notes[user] = [{id, t, m, c, text, read}, …] oldest first, written by
the library's announcements after a scan. Each user only ever reaches their own entries here.
Callers check that a manga exists in the index before following it, so db.json holds real names.
"""
from . import store

ALL = object()  # mark_read(user, ALL): every notification of the user


def follow(user, manga, on):
    """Start (on=True) or stop following a manga; returns the new state."""
    with store.db.lock:
        mine = store.db.data["follows"].setdefault(user, {})
        if on:
            mine[manga] = True
        else:
            mine.pop(manga, None)
            if not mine:
                store.db.data["follows"].pop(user, None)
        store.db.touch()
    return bool(on)


def follows(user):
    """The names of the manga the user follows."""
    with store.db.lock:
        return {name for name, on in store.db.data["follows"].get(user, {}).items() if on}


def is_following(user, manga):
    with store.db.lock:
        return bool(store.db.data["follows"].get(user, {}).get(manga))


def notifications(user):
    """The user's notifications, newest first (copies)."""
    with store.db.lock:
        return [dict(note) for note in reversed(store.db.data["notes"].get(user, []))]


def mark_read(user, which):
    """Mark one notification (by id) or ALL of them read. Returns how many changed, or None when
    no notification of this user has that id."""
    with store.db.lock:
        notes = store.db.data["notes"].get(user, [])
        if which is ALL:
            targets = notes
        else:
            targets = [note for note in notes if note.get("id") == which]
            if not targets:
                return None
        changed = 0
        for note in targets:
            if not note.get("read"):
                note["read"] = True
                changed += 1
        if changed:
            store.db.touch()
        return changed

