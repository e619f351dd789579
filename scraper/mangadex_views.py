"""Settings → User → MangaDex and its JSON: a user connects their own MangaDex account, imports the
chapters they read there, and an admin follows series from their follows list.

The daemon makes every request to MangaDex (scraper/mangadex_accounts.py, through its HttpClient)
and keeps the tokens; the reader names the signed-in user (and when the account was made) in each
call, so a user only ever reaches their own connection. Read markers come back as MangaDex chapter
ids; the reader matches them to the chapter.json `sourceId` of the chapters the downloader wrote,
and the owner of progress marks them finished (events.read_markers). Following stays an admin
action (the admin proxy).
"""
from urllib.parse import quote

from django.utils.translation import gettext as _

from library import index
from mangacircus import events
from mangacircus.errors import DomainError, Unavailable
from mangacircus.http import api
from mangacircus.pages import page, render_section

from . import client

_TIMEOUT = 60.0  # a call may wait for pacing and page through MangaDex's answers


class DaemonAnswer(DomainError):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def _daemon(method, path, body=None):
    try:
        status, data = client.call(method, path, body, timeout=_TIMEOUT)
    except client.Offline:
        raise Unavailable(_("scraper offline: MangaDex accounts are kept by the scraper daemon")) from None
    if status != 200:
        message = data.get("error") if isinstance(data, dict) else None
        raise DaemonAnswer(502 if status == 401 else status,
                           message or _("the scraper answered %(status)s") % {"status": status})
    return data


def _owner(request):
    """The connection's owner at the daemon: the user name and when that account was made, so an
    account deleted and made again under the same name does not inherit the old connection."""
    return f"{request.account['name']}#{request.account.get('created') or 0}"


def _me(request):
    return quote(_owner(request), safe="")


@page(auth="user")
def settings_page(request):
    payload = {"admin": bool(request.account.get("admin"))}
    return render_section(request, "scraper/mangadex.html", "user", "mangadex", payload=payload)


@api(auth="user", methods=("GET", "POST"))
def account(request):
    """GET: the user's connection (never a secret). POST {clientId, clientSecret, username, password}:
    connect; the password goes to MangaDex's auth server once and is not kept."""
    if request.method == "GET":
        return _daemon("GET", f"/account?user={_me(request)}")
    return _daemon("POST", "/account", {**request.data, "user": _owner(request)})


@api(auth="user", methods=("POST",))
def disconnect(request):
    return _daemon("POST", "/account/disconnect", {"user": _owner(request)})


@api(auth="admin")
def follows(request):
    """The admin's own MangaDex follows, each marked followed / here."""
    return _daemon("GET", f"/account/follows?user={_me(request)}")


def match(current, read_ids):
    """-> ({manga: [(chapter id, version name, pages)]}, MangaDex ids matched) for the chapters here
    with a MangaDex version (chapter.json module `mangadex`) whose sourceId was read."""
    wanted, found, matched = set(read_ids), {}, set()
    for manga in current.manga.values():
        for chapter in manga.chapters():
            hits = [v for v in chapter.versions
                    if v.meta.get("module") == "mangadex" and v.meta.get("sourceId") in wanted]
            if hits:
                found.setdefault(manga.name, []).append((chapter.id, hits[0].name, hits[0].page_count))
                matched.update(v.meta["sourceId"] for v in hits)
    return found, matched


@api(auth="user", methods=("POST",))
def import_read_markers(request):
    """The chapters the user read on MangaDex, in the series this server has, marked finished."""
    user = request.account["name"]
    answer = _daemon("GET", f"/account/read?user={_me(request)}")
    read = answer.get("read") or []
    found, matched = match(index.current(), read)
    result = {"marked": 0, "already": 0, "hidden": 0}
    events.read_markers.send(user, found, result)
    return {"read": len(read), "marked": result["marked"], "already": result["already"],
            "notHere": len(set(read) - matched) + result["hidden"]}
