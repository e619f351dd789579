"""New-chapter announcements, a scan hook (docs/library.md), and the owner of db.json's `known`.

For each manga the scan added or changed:
1. Its chapter ids now present are compared with `known[manga]`, the append-only list of every
   chapter id ever seen for it.
2. A manga seen for the first time has its ids recorded, without notifications.
3. Each new id is appended to `known`, and every user who follows the manga gets an in-app
   notification ("Moon Garden · Ch. 6: Frost", reader/notes.py), in the user's own language
   (reader/language.py of_user). A chapter that disappears and
   comes back is in `known` already, so it is not announced again.
4. Users with a webhook get one delivery with the new chapters of the manga they follow
   (reader/webhooks.py sends it in the background), and each of their Web Push devices a
   notification per manga (reader/webpush.py, in the background too).
"""
from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.utils import translation
from django.utils.translation import gettext as _

from accounts import users
from mangacircus import db
from mangacircus import moves as moved
from mangacircus.errors import Conflict, Invalid
from mangacircus.moves import Move

from . import access, language, lookup, notes, prefs, social, webhooks, webpush

if TYPE_CHECKING:
    from library.index import Index
    from library.model import Chapter, Manga


def label(manga: Manga, chapter: Chapter) -> str:
    """'Moon Garden · Ch. 6: Frost', 'Moon Garden · Extra 1: Omake'."""
    return f"{manga.title} · {lookup.chapter_name(chapter)}"


def on_moved(moves: list[Move]) -> None:
    """events.library_moved (under db.lock()): the chapters known of a renamed manga stay known, so
    a rename announces nothing; a renumbered chapter is known under its new id too."""
    known = db.section("known")
    for move in moves:
        moved.manga_key(known, move, prefer=lambda a, b: b + [c for c in a if c not in b], nested=False)
        seen = known.get(move.new)
        if isinstance(seen, list):
            seen.extend(c for c in move.chapters.values() if c not in seen)


def _new_chapters(current: Index, names: Iterable[str]) -> dict[str, list[Chapter]]:
    """{manga name: [new chapters]}, recording every id in `known`."""
    found: dict[str, list[Chapter]] = {}
    with db.lock():
        known = db.section("known")
        for name in names:
            manga = current.get(name)
            if manga is None:
                continue
            chapters = manga.chapters()
            seen = known.get(name)
            if not isinstance(seen, list):
                known[name] = [c.id for c in chapters]
                db.touch()
                continue
            already = set(seen)
            new = [c for c in chapters if c.id not in already]
            if new:
                seen.extend(c.id for c in new)
                db.touch()
                found[name] = new
    return found


def on_scan(current: Index, report: dict[str, Any]) -> None:
    changed = report["changed"]
    names = changed["added"] + changed["changed"]
    if not names or not db.is_open():
        return
    hooks: dict[str, list[dict[str, str]]] = {}  # user → [item]
    for name, new in _new_chapters(current, names).items():
        manga = current.get(name)
        assert manga is not None  # _new_chapters() answers only manga of this index
        for user in filter(users.exists, social.followers(name)):
            if not access.can_see(user, name):
                continue
            with translation.override(language.of_user(user)):  # "Moon Garden · 第3話: Leaves"
                items = [{"m": name, "c": c.id, "text": label(manga, c), "url": lookup.read_url(name, c)}
                         for c in new]
            notes.add(user, items)
            hooks.setdefault(user, []).extend(items)
    for user, items in hooks.items():
        with translation.override(language.of_user(user)):  # the push's and the webhook's title too
            _deliver(user, items)


def _deliver(user: str, items: list[dict[str, str]]) -> None:
    webpush.queue(user, items)
    try:
        settings = prefs.get_settings(user)
    except KeyError:  # the account was deleted meanwhile
        return
    if settings.get("webhook"):
        webhooks.queue(user, settings["webhook"], settings["webhookFormat"],
                       [{"manga": i["m"], "chapter": i["c"], "text": i["text"], "url": i["url"]} for i in items])


_testing: set[str] = set()  # users whose test delivery is under way: one at a time each
_testing_lock = threading.Lock()


def send_test(user: str) -> tuple[bool, str]:
    """Deliver a sample to the user's webhook now (the test button in Settings → Notifications),
    within the webhook timeout; -> (delivered, what happened in words)."""
    settings = prefs.get_settings(user)
    if not settings.get("webhook"):
        raise Invalid(_("set a webhook URL first"))
    with _testing_lock:
        if user in _testing:
            raise Conflict(_("a test notification is being sent already; wait for its result"))
        _testing.add(user)
    try:
        item = {"manga": "MangaCircus", "chapter": "0/0", "text": "MangaCircus · a test notification", "url": ""}
        return webhooks.deliver_now(settings["webhook"], settings["webhookFormat"], [item])
    finally:
        with _testing_lock:
            _testing.discard(user)
