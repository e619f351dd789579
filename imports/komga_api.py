"""Reading a running Komga server through its REST API (docs/import.md, "From Komga's API"), signed in
as one of its users: that user, their read progress, the series metadata edited by hand, and the
collections and read lists that user sees. Everything else maps as from Komga's database (komga.py).

Komga's REST answers give a book's and a library's place as a file-system path (BookDto.url,
LibraryDto.root), its dates as ISO text, and its pages from 1. Requests go through the outbound-address
guard: the host named in the URL may be a private address (a Komga on the LAN), a redirect elsewhere
may not.
"""
import base64
import http.client
import time
from pathlib import PurePosixPath
from urllib.parse import urlsplit

import orjson
from django.utils.translation import gettext as _

from mangacircus import netguard
from mangacircus.errors import Invalid, TooLarge

from .komga import DIRECTIONS, parse_date, relative_path, suggest_name
from .source import Source

MAX_BYTES = 256 * 1024 ** 2  # one unpaged answer of a large library's books
TIMEOUT = 120.0


def _file_url(path):
    """A REST path ("/books/Moon Garden/v01.cbz") as the file URL komga.relative_path reads."""
    if not isinstance(path, str) or not path.startswith("/"):
        return None
    return PurePosixPath(path).as_uri()


class Api:
    def __init__(self, url, login, password):
        parts = urlsplit(url or "")
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise Invalid(_("%(url)s is not a Komga server's address: give http(s)://host[:port]") % {"url": repr(url)})
        self.base, self.host = url.rstrip("/"), parts.hostname
        token = base64.b64encode(f"{login}:{password}".encode()).decode()
        self.headers = {"Authorization": f"Basic {token}", "Accept": "application/json"}

    def _allowed(self, host, port, ip):
        return host == self.host  # the server the admin named, wherever it is; never another one

    def get(self, path):
        deadline = time.monotonic() + TIMEOUT
        try:
            answer = netguard.request("GET", self.base + path, headers=self.headers, allowed=self._allowed,
                                      max_redirects=3, deadline=deadline, connect_timeout=10, read_timeout=TIMEOUT)
        except netguard.OutboundError as e:
            raise Invalid(_("cannot reach Komga at %(base)s: %(error)s") % {"base": self.base, "error": e}) from None
        try:
            status = answer.response.status
            body = answer.read_body(MAX_BYTES, deadline, TIMEOUT)
        except (netguard.DeadlinePassed, OSError, http.client.HTTPException) as e:
            raise Invalid(_("Komga's answer to %(path)s was cut: %(error)s") % {"path": path, "error": e}) from None
        finally:
            answer.close()
        if status == 401:
            raise Invalid(_("Komga refused the user name or password (401)"))
        if status != 200:
            raise Invalid(_("Komga answered %(path)s with HTTP %(status)s: is %(base)s a Komga server?")
                          % {"path": path, "status": status, "base": self.base})
        if len(body) > MAX_BYTES:
            raise TooLarge(_("Komga's answer to %(path)s is larger than %(mb)s MB")
                           % {"path": path, "mb": MAX_BYTES >> 20})
        try:
            return orjson.loads(body)
        except orjson.JSONDecodeError:
            raise Invalid(_("Komga's answer to %(path)s is not JSON: is %(base)s a Komga server?")
                          % {"path": path, "base": self.base}) from None

    def content(self, path):
        """The items of an unpaged Page answer."""
        data = self.get(path)
        items = data.get("content") if isinstance(data, dict) else data
        if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
            raise Invalid(_("Komga's answer to %(path)s is not a list of items") % {"path": path})
        return items


def read(url, login, password):
    """The Source of what `login` sees on the Komga server at `url`."""
    if not login or not password:
        raise Invalid(_("give the Komga user's name (its e-mail) and password"))
    api = Api(url, login, password)
    me = api.get("/api/v2/users/me")
    if not isinstance(me, dict) or not isinstance(me.get("email"), str):
        raise Invalid(_("%(url)s did not answer as Komga does for /api/v2/users/me") % {"url": url})
    source = Source("komga", url)
    source.add_user("me", me["email"], suggest_name(me["email"]), "ADMIN" in (me.get("roles") or []))
    roots = {str(lib.get("id")): _file_url(lib.get("root")) for lib in _list(api, "/api/v1/libraries")}
    series = {str(s.get("id")): s for s in api.content("/api/v1/series?unpaged=true")}
    books = {}
    for book in api.content("/api/v1/books?unpaged=true"):
        books[str(book.get("id"))] = entry = _book(book, roots, series)
        progress = book.get("readProgress")
        if isinstance(progress, dict) and entry is not None:
            _add_progress(source, entry, book, progress)
    for s in series.values():
        _override(source, s)
    for c in api.content("/api/v1/collections?unpaged=true"):
        members = [{"name": str(series[i].get("name")), "title": _title(series[i])}
                   for i in map(str, c.get("seriesIds") or []) if i in series]
        source.add_collection(None, str(c.get("name") or ""), members, ordered=bool(c.get("ordered")), shared=True)
    for r in api.content("/api/v1/readlists?unpaged=true"):
        chosen = [books[i] for i in map(str, r.get("bookIds") or []) if books.get(i)]
        source.add_readlist(None, str(r.get("name") or ""), chosen, shared=True, summary=str(r.get("summary") or ""))
    return source


def _list(api, path):
    data = api.get(path)
    if not isinstance(data, list) or not all(isinstance(i, dict) for i in data):
        raise Invalid(_("Komga's answer to %(path)s is not a list") % {"path": path})
    return data


def _title(series):
    meta = series.get("metadata") or {}
    return str(meta["title"]) if meta.get("title") else None


def _book(book, roots, series):
    """How the plan finds a book: {path, series, title, number, what}, or None when unusable."""
    s = series.get(str(book.get("seriesId"))) or {}
    name = str(s.get("name") or book.get("seriesTitle") or "")
    rel, _why = relative_path(_file_url(book.get("url")), roots.get(str(book.get("libraryId"))))
    meta = book.get("metadata") or {}
    number = meta.get("number") if meta.get("number") not in (None, "") else book.get("number")
    return {"path": rel, "series": name, "title": _title(s), "number": str(number or ""),
            "what": f"{name} / {book.get('name') or book.get('id')}"}


def _add_progress(source, entry, book, progress):
    try:
        page = max(0, int(progress.get("page") or 1) - 1)
        pages = int((book.get("media") or {}).get("pagesCount") or 0) or None
    except (TypeError, ValueError):
        source.skip("progress", entry["what"], "its page is not a number")
        return
    source.add_progress("me", path=entry["path"], series=entry["series"], title=entry["title"], number=entry["number"],
                        page=page, pages=pages, done=bool(progress.get("completed")),
                        t=parse_date(progress.get("lastModified") or progress.get("readDate") or 0),
                        what=entry["what"])


def _override(source, series):
    """The fields a Komga admin edited by hand (locked), as komga.py reads them from the database."""
    meta = series.get("metadata") or {}
    fields = {}
    if meta.get("titleLock") and meta.get("title"):
        fields["title"] = str(meta["title"])
    if meta.get("summaryLock") and meta.get("summary"):
        fields["description"] = str(meta["summary"])
    if meta.get("readingDirectionLock") and meta.get("readingDirection") in DIRECTIONS:
        fields["direction"] = DIRECTIONS[meta["readingDirection"]]
    if meta.get("tagsLock") and meta.get("tags"):
        fields["tags"] = sorted(str(t) for t in meta["tags"])
    alternates = [str(a.get("title")) for a in meta.get("alternateTitles") or [] if isinstance(a, dict)]
    if meta.get("alternateTitlesLock") and alternates:
        fields["altTitles"] = alternates
    if fields:
        source.add_override(str(series.get("name") or ""), fields)
