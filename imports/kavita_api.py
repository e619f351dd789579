"""Reading a running Kavita server through its REST API (docs/import.md, "From Kavita's API"), with one
user's API key: that user, their progress per chapter, ratings and want-to-read, and the collections
and reading lists they see. Everything maps as from Kavita's database (kavita.py).

The API key buys a JWT (POST /api/Plugin/authenticate), sent as a Bearer token; the user's roles are
the token's `role` claims, as Kavita's web app reads them (its UserDto has none). Kavita answers in
camelCase JSON, a date as ISO text without a zone (the …Utc fields in UTC), a paged list as a plain
list with its page in a `Pagination` header. Requests go through the outbound-address guard to the
host named in the URL only (it may be a private address); a redirect to another host is refused.
"""
import base64
import http.client
import math
import re
import time
from urllib.parse import quote, quote_plus, urlencode, urlsplit

import orjson
from django.utils.translation import gettext as _

from mangacircus import netguard
from mangacircus.errors import Invalid, TooLarge

from .kavita import chapter_number, relative_path, stars
from .komga import parse_date
from .source import Source

MAX_BYTES = 64 * 1024 ** 2   # one answer: a page of series, or one series' volumes with their chapters
MAX_TOTAL = 1024 ** 3        # all the answers of one import
PAGE_SIZE = 500
MAX_PAGES = 1000             # of one paged list
TIMEOUT = 120.0
REDIRECTS = 3
PLUGIN = "mangacircus"
JWT = re.compile(r"[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]*)*")  # base64url parts: nothing that could break its header
# An empty FilterV2Dto: every series the user may see, by sort name (SortField.SortName 1, FilterCombination.And 1).
EVERYTHING = {"id": 0, "name": None, "statements": [], "combination": 1,
              "sortOptions": {"sortField": 1, "isAscending": True}, "limitTo": 0}


class Api:
    def __init__(self, url, api_key):
        parts = urlsplit(url or "")
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise Invalid(_("%(url)s is not a Kavita server's address: give http(s)://host[:port]")
                          % {"url": repr(url)})
        self.base, self.host, self.key = url.rstrip("/"), parts.hostname, api_key
        self.headers = {"Accept": "application/json"}
        self.received, self.cached = 0, {}

    def _allowed(self, host, port, ip):
        return host == self.host  # the server the admin named, wherever it is; never another one

    def _hidden(self, text):
        """An error's text without the API key, which the authenticate call carries in its query."""
        for form in {self.key, quote(self.key, safe=""), quote_plus(self.key)}:
            text = text.replace(form, "…")
        return text

    def call(self, method, path, query=None, body=None):
        """(the JSON answer, its Pagination header or None); errors name `path`, never the query."""
        url = self.base + path + (f"?{urlencode(query)}" if query else "")
        headers = {**self.headers, **({"Content-Type": "application/json"} if body is not None else {})}
        data = orjson.dumps(body) if body is not None else None
        deadline = time.monotonic() + TIMEOUT
        for _hop in range(REDIRECTS + 1):
            try:
                # max_redirects=0: each redirect comes back here to be judged by its host
                answer = netguard.request(method, url, body=data, headers=headers, allowed=self._allowed,
                                          max_redirects=0, deadline=deadline, connect_timeout=10,
                                          read_timeout=TIMEOUT)
                break
            except netguard.TooManyRedirects as e:
                host = _host(e.url)
                if host != self.host:
                    raise Invalid(_("Kavita at %(base)s sent %(path)s on to another host (%(host)s): "
                                    "refused, only %(asked)s is asked")
                                  % {"base": self.base, "path": path, "host": host or "?",
                                     "asked": self.host}) from None
                url = e.url
            except netguard.OutboundError as e:
                raise Invalid(self._hidden(_("cannot reach Kavita at %(base)s: %(error)s")
                                          % {"base": self.base, "error": e})) from None
        else:
            raise Invalid(_("Kavita at %(base)s redirected %(path)s more than %(max)s times")
                          % {"base": self.base, "path": path, "max": REDIRECTS})
        try:
            status, paging = answer.response.status, answer.response.getheader("Pagination")
            raw = answer.read_body(MAX_BYTES, deadline, TIMEOUT)
        except (netguard.DeadlinePassed, OSError, http.client.HTTPException) as e:
            raise Invalid(self._hidden(_("Kavita's answer to %(path)s was cut: %(error)s")
                                      % {"path": path, "error": e})) from None
        finally:
            answer.close()
        if status == 401:
            raise Invalid(_("Kavita refused the API key (401)"))
        if status != 200:
            raise Invalid(_("Kavita answered %(path)s with HTTP %(status)s: is %(base)s a Kavita server?")
                          % {"path": path, "status": status, "base": self.base})
        if len(raw) > MAX_BYTES:
            raise TooLarge(_("Kavita's answer to %(path)s is larger than %(mb)s MB")
                           % {"path": path, "mb": MAX_BYTES >> 20})
        self.received += len(raw)
        if self.received > MAX_TOTAL:
            raise TooLarge(_("Kavita's answers add up to more than %(mb)s MB") % {"mb": MAX_TOTAL >> 20})
        try:
            return orjson.loads(raw), paging
        except orjson.JSONDecodeError:
            raise Invalid(_("Kavita's answer to %(path)s is not JSON: is %(base)s a Kavita server?")
                          % {"path": path, "base": self.base}) from None

    def items(self, method, path, query=None, body=None):
        return _items(self.call(method, path, query, body)[0], path)

    def pages(self, method, path, query=None, body=None):
        """Every item of a paged list, page after page to the last its Pagination header names."""
        found = []
        for number in range(1, MAX_PAGES + 1):
            data, paging = self.call(method, path, {**(query or {}), "PageNumber": number, "PageSize": PAGE_SIZE},
                                     body)
            found += _items(data, path)
            last = _total_pages(paging)
            if not data or (number >= last if last is not None else len(data) != PAGE_SIZE):
                return found
        raise TooLarge(_("Kavita's %(path)s has more than %(pages)s pages of %(size)s")
                       % {"path": path, "pages": MAX_PAGES, "size": PAGE_SIZE})

    def chapters(self, series_id):
        """{chapter id: ChapterDto} of one series (its VolumeDtos), asked once."""
        if series_id not in self.cached:
            chapters = {}
            for volume in self.items("GET", "/api/Series/volumes", {"seriesId": series_id}):
                for chapter in _items(volume.get("chapters") or [], "/api/Series/volumes"):
                    if _id(chapter.get("id")) is not None:
                        chapters[chapter["id"]] = chapter
            self.cached[series_id] = chapters
        return self.cached[series_id]


def _host(url):
    try:
        return urlsplit(url).hostname
    except ValueError:
        return None


def _items(data, path):
    if not isinstance(data, list) or not all(isinstance(i, dict) for i in data):
        raise Invalid(_("Kavita's answer to %(path)s is not a list of items") % {"path": path})
    return data


def _total_pages(header):
    try:
        total = orjson.loads(header or "null")
    except orjson.JSONDecodeError:
        return None
    return _id(total.get("totalPages")) if isinstance(total, dict) else None


def _id(value):
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _roles(token):
    """The `role` claims of Kavita's JWT (one text, or a list). Its signature is not checked: the
    token only says who the server took the key for, as the server's own web app reads it."""
    try:
        part = token.split(".")[1]
        claims = orjson.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))
    except (IndexError, ValueError):
        return []
    role = claims.get("role") if isinstance(claims, dict) else None
    if isinstance(role, str):
        return [role]
    return [r for r in role if isinstance(r, str)] if isinstance(role, list) else []


def read(url, api_key):
    """The Source of what the user of `api_key` sees on the Kavita server at `url`."""
    if not api_key:
        raise Invalid(_("give the Kavita user's API key (Kavita: User settings → API Key / OPDS)"))
    api = Api(url, api_key)
    me = api.call("POST", "/api/Plugin/authenticate", {"apiKey": api_key, "pluginName": PLUGIN})[0]
    token = me.get("token") if isinstance(me, dict) else None
    if not isinstance(token, str) or not JWT.fullmatch(token) or not isinstance(me.get("username"), str):
        raise Invalid(_("%(url)s did not answer as Kavita does for /api/Plugin/authenticate") % {"url": url})
    api.headers["Authorization"] = f"Bearer {token}"
    source = Source("kavita", url)
    name = me["username"]
    source.add_user("me", name, name, "Admin" in _roles(token))
    prefs = api.call("GET", "/api/Users/get-preferences")[0]
    if isinstance(prefs, dict) and prefs.get("collapseSeriesRelationships") is True:
        source.not_imported("series", "related series", f"{name} has Collapse Series Relationships on in Kavita, so "
                            "its API lists no series that is another's sequel, spin-off…: turn it off and import again")
    folders = {_id(lib.get("id")): [f for f in lib.get("folders") or [] if isinstance(f, str)]
               for lib in api.items("GET", "/api/Library/libraries")}
    series = {s["id"]: s for s in api.pages("POST", "/api/Series/all-v2", body=EVERYTHING)
              if _id(s.get("id")) is not None}
    for s in series.values():
        _add_rating(source, s)
        if _positive(s.get("pagesRead")):
            chapters = api.chapters(s["id"])
            for cid in sorted(chapters):
                _add_progress(source, chapters[cid], s, folders)
    for s in api.pages("POST", "/api/want-to-read/v2", body=EVERYTHING):
        source.add_want("me", _series(s))
    _collections(api, source, name)
    _readlists(api, source, series, folders)
    return source


def _positive(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0


def _series(series):
    """How the plan looks a series up: its name, and the other title it has there (as kavita.py)."""
    name = str(series.get("name") or series.get("seriesName") or "")
    title = next((str(t) for t in (series.get("originalName"), series.get("localizedName")) if t and str(t) != name),
                 None)
    return {"name": name, "title": title}


def _add_rating(source, series):
    rating = series.get("userRating")
    if not isinstance(rating, (int, float)) or isinstance(rating, bool) or not math.isfinite(rating):
        return
    if series.get("hasUserRated") or rating > 0:  # older Kavitas: 0 meant not rated
        source.add_rating("me", _series(series), stars(rating))


def _files(chapter):
    """The chapter's file paths, in the order kavita.py reads them (sorted)."""
    return sorted(f["filePath"] for f in chapter.get("files") or []
                  if isinstance(f, dict) and isinstance(f.get("filePath"), str))


def _inside(paths, folders):
    """(the first file's path below the library folder that holds it, None) or (None, why)."""
    rel, why = None, None
    for file_path in paths:
        rel, why = relative_path(file_path, folders)
        if rel is not None:
            break
    return rel, why


def _what(series, paths, otherwise):
    """How the plan names a chapter it does not find by path: "Series / file name"."""
    name = paths[0].replace("\\", "/").rstrip("/").rpartition("/")[2] if paths else otherwise
    return f"{series['name']} / {name}"


def _add_progress(source, chapter, series, folders):
    s, paths = _series(series), _files(chapter)
    what = _what(s, paths, chapter.get("range") or chapter.get("id"))
    try:
        pages_read, pages = int(chapter.get("pagesRead") or 0), int(chapter.get("pages") or 0)
    except (TypeError, ValueError, OverflowError):
        source.skip("progress", what, "its page is not a number")
        return
    if pages_read <= 0:
        return  # a chapter marked unread there: nothing to bring over
    rel, why = _inside(paths, folders.get(_id(series.get("libraryId")), []))
    if paths and rel is None:
        source.skip("progress", what, why)
        return
    done = 0 < pages <= pages_read
    page = pages - 1 if done else max(0, pages_read - 1)
    number = "" if chapter.get("isSpecial") else chapter_number(chapter.get("minNumber"))
    source.add_progress("me", path=rel, series=s["name"], title=s["title"], number=number, page=page,
                        pages=pages or None, done=done, t=max(0, parse_date(chapter.get("lastReadingProgressUtc"))),
                        what=None if rel else what)


def _collections(api, source, name):
    """The user's own collections (shared here when promoted there, as kavita.py), and the promoted
    ones of other users, which are the whole server's here."""
    for c in api.items("GET", "/api/Collection"):
        if _id(c.get("id")) is None:
            continue
        members = api.pages("GET", "/api/Series/series-by-collection", {"collectionId": c["id"]})
        members.sort(key=lambda s: str(s.get("sortName") or s.get("name") or ""))
        owner = "me" if c.get("owner") == name else None
        source.add_collection(owner, str(c.get("title") or ""), [_series(s) for s in members], ordered=False,
                              shared=bool(c.get("promoted")) or owner is None, summary=str(c.get("summary") or ""))


def _readlists(api, source, series, folders):
    """The user's reading lists (shared when promoted) and the promoted ones of others (ReadingListDto
    names no owner: the user's own are those listed without the promoted ones), each chapter found as
    its progress would be."""
    query = {"sortByLastModified": "false"}
    own = {_id(r.get("id")) for r in api.pages("POST", "/api/ReadingList/lists", {**query, "includePromoted": "false"})}
    for r in api.pages("POST", "/api/ReadingList/lists", {**query, "includePromoted": "true"}):
        if _id(r.get("id")) is None:
            continue
        items = api.items("GET", "/api/ReadingList/items", {"readingListId": r["id"]})
        items.sort(key=lambda i: (_id(i.get("order")) or 0, _id(i.get("id")) or 0))
        books = [_book(api, item, series, folders) for item in items]
        owner = "me" if r["id"] in own else None
        source.add_readlist(owner, str(r.get("title") or ""), books, shared=bool(r.get("promoted")) or owner is None,
                            summary=str(r.get("summary") or ""))


def _book(api, item, series, folders):
    """A reading list's chapter as kavita.py names one: {path, series, title, number, what}."""
    sid, cid = _id(item.get("seriesId")), _id(item.get("chapterId"))
    chapter = api.chapters(sid).get(cid, {}) if sid is not None else {}
    s = _series(series.get(sid) or item)
    paths = _files(chapter)
    rel, _why = _inside(paths, folders.get(_id(series.get(sid, item).get("libraryId")), []))
    return {"path": rel, "series": s["name"], "title": s["title"],
            "number": "" if chapter.get("isSpecial") or not chapter else chapter_number(chapter.get("minNumber")),
            "what": _what(s, paths, cid)}
