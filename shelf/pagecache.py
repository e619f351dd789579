"""Whole answers of the library page (/), GET /api/library, the manga page (/manga/<name>/) and
GET /api/manga, made once and sent again while nothing they show can have changed.

An answer is kept under everything it is made from:
- the route, the full path (the query too), the Host header, the app's root and the language it is
  in (reader/language.py: a page made in Japanese is never sent to an English reader);
- the session and CSRF cookies: the page shows the account's own data, and holds a CSRF token that
  is valid only with that browser's CSRF cookie;
- the minute of the clock: the Reading Story and the dates speak of "today";
- four counters read before the answer is made: db.json's shared changes (every change of user data
  is touch()ed to be saved: follows, votes, notifications, settings, accounts, restrictions), the
  user's own changes (their reading progress, which no other user's page shows: db.touch(owner)),
  catalog.json's changes (tags, titles, relations), and the library index (a scan that finds a
  change makes a new one). So the household's progress writes, several a second, make only the
  writer's own page again. (The discovery row's "read by N people here" counts other users'
  progress; they are reused for 30 s anyway (shelf/discovery.py), and the minute in the key
  bounds how long a kept page shows them.)
A change while an answer is being made moves a counter, so the next request makes it again: an
answer is never sent after a change it does not show. A kept answer is sent without cookies: a
page's form asked for the CSRF token when it was made, and that answer sent the cookie again with a
renewed expiry; the page sent from here holds a token for the same cookie (it is in the key), and
the minute in the key makes the page be made, and the cookie renewed, again at the next visit a
minute later. (Masking a token for nothing cost 0.1-0.2 ms of each answer from here.)
Requests carrying flash messages (the `messages` cookie) are neither kept nor answered from here.
Only entries of the current counters are kept, at most MAX_ENTRIES of them (a few dozen KB each).

`cached_data` keeps the reading apps' lists the same way (the Komga API's series and books, which
Mihon and Komelia page through): a view returning data, keyed by the account instead of the
cookies (the apps sign in with Basic or a key, and the answer holds no token), sent as JSON.
"""
import threading
from collections import OrderedDict
from functools import wraps

from django.conf import settings
from django.http import HttpResponse, HttpResponseBase
from django.urls import get_script_prefix
from django.utils.translation import get_language

from catalog import store as catalog_store
from mangacircus import clock, db
from mangacircus.http import json_response
from reader import lookup

MAX_ENTRIES = 256
SESSION_COOKIE = "sid"  # accounts/middleware.py
MESSAGES_COOKIE = "messages"  # django.contrib.messages' CookieStorage

_lock = threading.Lock()
_entries = OrderedDict()  # key → (the user's own changes, status, headers, body)
_counters = [None]  # (db shared changes, catalog changes, forget() calls, index) the entries were made under
_forgotten = [0]
stats = {"hits": 0, "misses": 0}


def _current():
    return db.shared_changes(), catalog_store.STATE.changes(), _forgotten[0], lookup.current()


def _same(a, b):
    return a is not None and a[:3] == b[:3] and a[3] is b[3]


def forget(_names=None):
    """A catalog change's listener, run after the summaries' own (reader/apps.py): the catalog's
    counter moves before the summaries show the change, so an answer made in between must not be
    kept. This moves a counter once they do."""
    with _lock:
        _forgotten[0] += 1
        _entries.clear()


def cached(view):
    """Wrap a GET view whose answer depends only on what the key above holds."""
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method != "GET" or MESSAGES_COOKIE in request.COOKIES:
            return view(request, *args, **kwargs)
        counters = _current()  # before the answer is made: see the module's docstring
        owner = request.account["name"] if request.account else None
        own = db.own_changes(owner)
        cookies = request.COOKIES
        key = (view.__module__, view.__qualname__, request.get_full_path(), request.META.get("HTTP_HOST"),
               get_script_prefix(), get_language(), cookies.get(SESSION_COOKIE),
               cookies.get(settings.CSRF_COOKIE_NAME), clock.now_ms() // 60_000)
        kept = _kept(key, counters, own)
        if kept is not None:
            return kept
        response = view(request, *args, **kwargs)
        # A page made for a new CSRF secret holds a token for the cookie this answer is about to set.
        fresh_token = request.META.get("CSRF_COOKIE") not in (None, cookies.get(settings.CSRF_COOKIE_NAME))
        if response.status_code == 200 and not response.streaming and not response.cookies and not fresh_token:
            _keep(key, counters, owner, own, response)
        return response

    return wrapper


def cached_data(view):
    """Wrap an apps' API view (inside clients/komga/auth.app_view, so `request.account` is the
    signed-in account) whose data depends only on the account, the path and the counters above."""
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method != "GET" or not request.account:
            return view(request, *args, **kwargs)
        counters = _current()
        owner = request.account["name"]
        own = db.own_changes(owner)
        key = ("data", view.__module__, view.__qualname__, request.get_full_path(), request.META.get("HTTP_HOST"),
               get_script_prefix(), get_language(), owner, clock.now_ms() // 60_000)
        kept = _kept(key, counters, own)
        if kept is not None:
            return kept
        result = view(request, *args, **kwargs)
        if result is None or isinstance(result, HttpResponseBase):
            return result
        response = json_response(result)
        if response.status_code == 200:
            _keep(key, counters, owner, own, response)
        return response

    return wrapper


def _kept(key, counters, own):
    """The answer kept under `key` for these counters and the owner's changes, or None."""
    with _lock:
        hit = _entries.get(key) if _same(_counters[0], counters) else None
        if hit is None or hit[0] != own:
            return None
        _entries.move_to_end(key)
        stats["hits"] += 1
    _, status, headers, body = hit
    response = HttpResponse(body, status=status)
    for name, value in headers:
        response[name] = value
    return response


def _keep(key, counters, owner, own, response):
    if not _same(counters, _current()) or db.own_changes(owner) != own:
        return  # something changed while it was made: the next request makes it again
    entry = (own, response.status_code, list(response.items()), response.content)
    with _lock:
        stats["misses"] += 1
        if not _same(_counters[0], counters):
            _entries.clear()
            _counters[0] = counters
        _entries[key] = entry
        while len(_entries) > MAX_ENTRIES:
            _entries.popitem(last=False)


def clear():
    with _lock:
        _entries.clear()
        _counters[0] = None
