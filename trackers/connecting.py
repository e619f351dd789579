"""Connecting a user to a tracker: the OAuth round trip (AniList, MyAnimeList with PKCE) and the
MangaUpdates login, then the one-time import of the tracker's list.

An OAuth round trip keeps, in memory for PENDING_SECONDS, the random `state` sent to the site
with its user, tracker and PKCE code verifier: the callback must bring that state back, for the
same signed-in user, once. The verifier is sent as its own challenge (PKCE "plain", the only
method MyAnimeList takes); AniList ignores it.
"""
from __future__ import annotations

import secrets
import threading
import time
from typing import Any

from django.utils.translation import gettext

from library import index as library_index
from mangacircus import events
from mangacircus.errors import Conflict, Invalid, NotFound

from . import binding, reading, registry, session, store
from .base import COMPLETED, Calls, Revoked, Tracker

PENDING_SECONDS = 600
_pending: dict[str, tuple[str, str, str, str, float]] = {}  # state -> (user, tracker, verifier, redirect, monotonic)
_pending_lock = threading.Lock()


def tracker_or_404(key: str) -> Tracker:
    tracker = registry.get(key)
    if tracker is None:
        raise NotFound(gettext("%(key)s is not a tracker offered on this server") % {"key": key})
    return tracker


def begin(user: str, key: str, redirect_uri: str) -> str:
    """-> the site's address to send the browser to."""
    tracker = tracker_or_404(key)
    if tracker.kind != "oauth":
        raise NotFound(gettext("%(tracker)s connects with a name and password, not a redirect")
                       % {"tracker": tracker.name})
    state, verifier = secrets.token_urlsafe(24), secrets.token_urlsafe(64)  # 86 characters: PKCE wants 43-128
    now = time.monotonic()
    with _pending_lock:
        for old in [s for s, p in _pending.items() if now - p[4] > PENDING_SECONDS]:
            del _pending[old]
        _pending[state] = (user, key, verifier, redirect_uri, now)
    return tracker.authorize_url(redirect_uri, state, verifier)


def finish(user: str, key: str, query: dict[str, str], http: Any = None) -> dict[str, str]:
    """The callback: check the state, exchange the code, ask who signed in, keep the token."""
    tracker = tracker_or_404(key)
    with _pending_lock:
        pending = _pending.pop(query.get("state") or "", None)
    if pending is None or pending[:2] != (user, key) or time.monotonic() - pending[4] > PENDING_SECONDS:
        raise Invalid(gettext("this %(tracker)s sign-in is not one started here, or is too old: connect again")
                      % {"tracker": tracker.name})
    if query.get("error"):
        raise Invalid(gettext("%(tracker)s did not connect: %(error)s")
                      % {"tracker": tracker.name, "error": query["error"][:100]})
    code = query.get("code") or ""
    if not code:
        raise Invalid(gettext("%(tracker)s sent no code back") % {"tracker": tracker.name})
    _, _, verifier, redirect_uri, _ = pending
    http = http or session.http_client()
    calls = Calls(http, tracker)
    secret = tracker.exchange(calls, code, redirect_uri, verifier)
    account = tracker.account(calls, secret)
    store.connect(user, key, secret, account)
    return account


def log_in(user: str, key: str, username: str, password: str, http: Any = None) -> dict[str, str]:
    """MangaUpdates: the password goes to the site once and is not kept; its session token is."""
    tracker = tracker_or_404(key)
    if tracker.kind != "login":
        raise NotFound(gettext("%(tracker)s connects through its own sign-in page") % {"tracker": tracker.name})
    if not username.strip() or not password:
        raise Invalid(gettext("give your %(tracker)s name and password") % {"tracker": tracker.name})
    calls = Calls(http or session.http_client(), tracker)
    secret = tracker.login(calls, username.strip(), password)
    account = tracker.account(calls, secret)
    store.connect(user, key, secret, account)
    return account


def import_list(user: str, key: str, http: Any = None) -> dict[str, int]:
    """Once per connection: every manga here bound to an entry of the list gets the chapters the
    list counts as read marked finished (nothing is marked unread)."""
    tracker = tracker_or_404(key)
    connection = store.connection(user, key)
    if not connection or connection.get("state") != "connected":
        raise Conflict(gettext("connect %(tracker)s first") % {"tracker": tracker.name})
    if connection.get("imported"):
        raise Conflict(gettext("the %(tracker)s list was imported already; disconnect and connect again to import anew")
                       % {"tracker": tracker.name})
    try:
        entries = session.call(http or session.http_client(), tracker, user, connection,
                               lambda calls, secret: tracker.entries(calls, secret))
    except Revoked as e:
        store.needs_reconnect(user, key, e.message)
        raise
    by_id = {e.id: e for e in entries}
    found: dict[str, list[tuple[str, str, int]]] = {}
    held: dict[str, dict[str, Any]] = {}
    for name, manga in library_index.current().manga.items():
        entry_id, _source = binding.entry_id(user, tracker, name)
        entry = by_id.get(entry_id or "")
        if entry is None:
            continue
        status = COMPLETED if entry.status.lower() == COMPLETED else entry.status.lower()
        held[name] = {"chapters": entry.chapters, "volumes": entry.volumes, "status": status}
        chapters = reading.read_up_to(manga, entry.chapters)
        if chapters:
            found[name] = chapters
    # What the list holds is noted first, so the chapters marked now are not sent back to it.
    store.keep_sent(user, key, held)
    result = {"marked": 0, "already": 0, "hidden": 0}
    events.read_markers.send(user, found, result)
    store.imported(user, key)
    return {"entries": len(entries), "manga": len(held), "marked": result["marked"], "already": result["already"]}
