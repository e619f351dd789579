"""New-chapter announcements (docs/architecture-library.md, "Announcements"), a scan hook.

For each manga the scan added or changed:
1. Its chapter ids now present are compared with `known[manga]` in db.json, the append-only
   list of every chapter id ever seen for it.
2. A manga seen for the first time has its ids recorded, without notifications.
3. Each new id is appended to `known`, and every user who follows the manga gets an in-app
   notification {id, t, m, c, text, read} ("Moon Garden · Ch. 6: Frost"). A chapter that
   disappears and comes back is in `known` already, so it is not announced again.
4. Users with a webhook get one delivery with the new chapters of the manga they follow
   (webhooks.py sends it in the background).
5. Each user keeps the newest MAX_NOTES notifications.
"""
import secrets

from mangacircus.http import HttpError
from reader import store

from . import webhooks

MAX_NOTES = 200


def label(manga, chapter):
    """'Moon Garden · Ch. 6: Frost', 'Moon Garden · Extra 1: Omake'."""
    if chapter.key.startswith("x") or chapter.book.startswith("x"):
        number = f"Extra {chapter.key.removeprefix('x')}"
    else:
        number = f"Ch. {chapter.key}"
    return f"{manga.title} · {number}" + (f": {chapter.title}" if chapter.title else "")


def _followers(data, name):
    return [user for user, follows in data["follows"].items()
            if isinstance(follows, dict) and follows.get(name) is True and user in data["users"]]


def on_scan(current, report):
    changed = report["changed"]
    names = changed["added"] + changed["changed"]
    db = store.db
    if not names or db is None:
        return
    now = store.now_ms()
    hooks = {}  # user → [item]
    with db.lock:
        data = db.data
        touched = False
        for name in names:
            manga = current.get(name)
            if manga is None:
                continue
            chapters = manga.chapters()
            seen = data["known"].get(name)
            if not isinstance(seen, list):
                data["known"][name] = [c.id for c in chapters]
                touched = True
                continue
            already = set(seen)
            new = [c for c in chapters if c.id not in already]
            if not new:
                continue
            seen.extend(c.id for c in new)
            touched = True
            for user in _followers(data, name):
                notes = data["notes"].get(user)
                if not isinstance(notes, list):
                    notes = data["notes"][user] = []
                for c in new:
                    item = {"id": secrets.token_hex(6), "t": now, "m": name, "c": c.id, "text": label(manga, c),
                            "read": False}
                    notes.append(item)
                    hooks.setdefault(user, []).append({"manga": name, "chapter": c.id, "text": item["text"]})
                del notes[:-MAX_NOTES]
        targets = {user: (data["users"][user].get("settings") or {}) for user in hooks}
        if touched:
            db.touch()
    for user, items in hooks.items():
        url = targets[user].get("webhook")
        if isinstance(url, str) and url:
            webhooks.queue(user, url, targets[user].get("webhookFormat") or "ntfy", items)


def send_test(user):
    """Queue a sample delivery to the user's webhook (the test button in Settings → Notifications)."""
    prefs = store.get_settings(user)
    if not prefs.get("webhook"):
        raise HttpError(400, "set a webhook URL first")
    item = {"manga": "MangaCircus", "chapter": "0/0", "text": "MangaCircus · a test notification"}
    webhooks.queue(user, prefs["webhook"], prefs.get("webhookFormat") or "ntfy", [item])
