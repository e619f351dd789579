"""The daemon's private control API, on SCRAPER_URL, for the reader's admin proxy only.

Every request needs `Authorization: Bearer SCRAPER_TOKEN` (compared in constant time). JSON in,
JSON out, errors as {"error": message}. The browser never calls this: the reader forwards admin
requests from /api/admin/scraper/<path> with the token (scraper/proxy.py).

A standard-library threaded server with a route table, not a second web framework: views raise the
domain errors of mangacircus/errors.py and `error_answer()` is the one place that turns an error
into a status (docs/scraper.md, "Private API").
"""
import base64
import dataclasses
import datetime
import hmac
import logging
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import orjson

from mangacircus.errors import Conflict, DomainError, Invalid, NotFound, WrongCredentials
from mangacircus.http import body_length, json_object

from . import mangadex_accounts, queue, sources
from .errors import InvalidInput, ScraperError
from .images import verify
from .sources.base import PageInfo

log = logging.getLogger(__name__)
INTERNAL = "internal error in the scraper; its log has the details"


class ApiServer:
    def __init__(self, daemon, url, token):
        assert token, "the control API needs a token"
        parts = urlsplit(url)
        self.address = (parts.hostname or "127.0.0.1", parts.port or 8091)
        self.daemon, self.token = daemon, token
        self.httpd = None

    def start(self):
        handler = type("Handler", (_Handler,), {"daemon": self.daemon, "token": self.token})
        self.httpd = ThreadingHTTPServer(self.address, handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, name="scraper api", daemon=True).start()
        return self

    def stop(self):
        if self.httpd:
            self.httpd.shutdown()
            self.httpd.server_close()


def error_answer(error):
    """-> (status, message, headers) for an error raised while answering a request."""
    if isinstance(error, DomainError):
        headers = dict(error.headers)
        if isinstance(error, WrongCredentials):
            headers["WWW-Authenticate"] = 'Bearer realm="mangacircus-scraper"'
        return error.status, error.message, headers
    if isinstance(error, InvalidInput):  # a source refused what the admin typed
        return Invalid.status, error.message, {}
    if isinstance(error, ScraperError):  # the source failed: a bad gateway
        return 502, error.message, {}
    if isinstance(error, LookupError):  # queue.py: no such job or series
        return NotFound.status, str(error).strip("'\""), {}
    if isinstance(error, ValueError):  # queue.py: a value it refuses, the message names it
        return Invalid.status, str(error).strip("'\""), {}
    return 500, INTERNAL, {}


def route(method, path):
    """-> (view, path groups) from ROUTES; NotFound when none matches."""
    for route_method, pattern, view in ROUTES:
        match = pattern.fullmatch(path)
        if match and route_method == method:
            return view, match.groupdict()
    raise NotFound(f"no route {method} {path}")


def parse_body(headers, rfile):
    """A POST body as a JSON object (none is {}), within the reader's own limits (mangacircus/http.py)."""
    length = body_length(headers.get("Content-Length"))
    return json_object(rfile.read(length)) if length else {}


class _Handler(BaseHTTPRequestHandler):
    daemon = None
    token = ""
    server_version = "MangaCircus-scraper"
    sys_version = ""

    def do_GET(self):
        self._handle("GET")

    def do_POST(self):
        self._handle("POST")

    def log_message(self, fmt, *args):
        log.debug("api: " + fmt, *args)

    def _handle(self, method):
        try:
            self._check_token()
            parts = urlsplit(self.path)
            body = parse_body(self.headers, self.rfile) if method == "POST" else {}
            view, groups = route(method, parts.path)
            result = view(self.daemon, body=body, query=parse_qs(parts.query), **groups)
            status, payload = result if isinstance(result, tuple) else (200, result)
            self._send(status, payload)
        except Exception as e:
            status, message, headers = error_answer(e)
            if status == 500:
                log.exception("control API: %s %s", method, self.path)
            self._send(status, {"error": message}, headers)

    def _check_token(self):
        header = self.headers.get("Authorization", "")
        given = header[7:].strip() if header.lower().startswith("bearer ") else ""
        if not given or not hmac.compare_digest(given.encode(), self.token.encode()):
            raise WrongCredentials("missing or wrong token")

    def _send(self, status, payload, headers=None):
        raw = orjson.dumps(payload)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.send_header("Cache-Control", "no-store")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(raw)


# Views: (daemon, body, query, **path groups) -> dict or (status, dict)

def _text(data, name, required=True, max_length=1000, strip=True):
    value = data.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > max_length:
        raise Invalid(f"{name} must be a non-empty string of at most {max_length} characters")
    return value.strip() if strip else value


_LANG = re.compile(r"[a-z]{2,3}(-[a-z]{2,4})?")


def _lang(data):
    """An optional language code (en, pt-br) from a request body."""
    value = _text(data, "lang", required=False, max_length=16)
    if value is not None and not _LANG.fullmatch(value):
        raise Invalid("lang must be a language code like en or pt-br")
    return value


def _job_view(job):
    view = {k: v for k, v in job.items() if k != "scope"}
    scope = job["scope"]
    view["scope"] = {"chapters": len(scope.get("chapters", [])), "lang": scope.get("lang")}
    return view


def status(d, body, query):
    return d.status()


def revision(d, body, query):
    return {"revision": queue.revision(d.queue)}


def list_jobs(d, body, query):
    state = (query.get("state") or [None])[0]
    return {"jobs": [_job_view(j) for j in queue.list_jobs(d.queue, state)]}


def add_job(d, body, query):
    kind = body.get("kind")
    if kind not in queue.KINDS:
        raise Invalid(f"kind must be one of {', '.join(queue.KINDS)}")
    if kind == "discover":
        job, created = queue.add_job(d.queue, "discover", "all")
        return (201 if created else 200), {"job": _job_view(job), "created": created}
    source = sources.get(body.get("source"))
    if source.transport == "local":
        _refuse_import_without_library(d)
    # Not stripped here: each source's check_id does (a folder's path may end in a space).
    series = source.check_id(d.transport(source), _text(body, "series", strip=False))
    chapters = None
    if kind == "chapters":
        chapters = body.get("chapters")
        if not isinstance(chapters, list) or not chapters or not all(isinstance(c, str) and c for c in chapters):
            raise Invalid("chapters must be a non-empty list of chapter ids")
    auto = body.get("auto") if kind == "add" else None
    if auto is not None and not isinstance(auto, bool):
        raise Invalid("auto must be true or false")
    job, created = queue.add_job(d.queue, kind, source.key, series, chapters,
                                 lang=_lang(body),
                                 auto=auto)
    d.wake.set()
    return (201 if created else 200), {"job": _job_view(job), "created": created}


def _refuse_import_without_library(d):
    """An import is asked for by an admin who waits for it: say at once why it cannot happen."""
    problem = d.check_library(force=True)
    if problem:
        raise Conflict(f"folder imports are off: {problem} (an import writes its chapters into the library)")


def job_action(d, body, query, job_id, action):
    if action == "retry":
        job = queue.retry(d.queue, job_id)
    elif action == "cancel":
        job = d.cancel(job_id)
    else:
        job = queue.move(d.queue, job_id, body.get("to"))
    return {"job": _job_view(job)}


def pause(d, body, query):
    """{"lease": seconds} (the backup's): held in memory and ended by itself after the lease."""
    lease = body.get("lease")
    if lease is not None and (isinstance(lease, bool) or not isinstance(lease, (int, float)) or not 1 <= lease <= 3600):
        raise Invalid("lease must be a number of seconds from 1 to 3600")
    return {"paused": True, "idle": d.pause(lease=lease)}


def resume(d, body, query):
    """{"lease": true} ends only a leased pause; an admin's pause stays."""
    lease_only = body.get("lease") is True
    d.resume(lease_only=lease_only)
    return {"paused": d.paused}


def list_sources(d, body, query):
    return {"sources": [{**s.describe(), "interval": d.pace_for(s)} for s in sources.all_sources()],
            "importRoots": [str(root) for root in d.local.roots], "libraryProblem": d.check_library(force=True)}


def search(d, body, query):
    source = sources.get((query.get("source") or [None])[0])
    text = (query.get("q") or [""])[0][:200]
    return {"results": [dataclasses.asdict(r) for r in source.search(d.transport(source), text)]}


def list_chapters(d, body, query):
    """The chapters of a series at its source (in `lang`), for an admin who picks some to download
    without following the series."""
    source = sources.get((query.get("source") or [None])[0])
    series = source.check_id(d.transport(source), (query.get("series") or [""])[0])
    lang = _lang({"lang": (query.get("lang") or [None])[0]}) or (source.languages or ("en",))[0]
    return {"chapters": [dataclasses.asdict(c) for c in source.chapters(d.transport(source), series, lang)]}


def list_series(d, body, query):
    next_run = queue.next_discover(d.queue, datetime.datetime.now().astimezone())
    return {"series": [{**s, "nextCheck": next_run if s["auto"] else None, "error": queue.series_errors(d.queue, s)}
                       for s in queue.list_series(d.queue)]}


def add_series(d, body, query):
    return add_job(d, {**body, "kind": "add", "series": body.get("id")}, query)


def remove_series(d, body, query, key):
    """Stop following a series; its folders stay in the library."""
    return {"removed": queue.remove_series(d.queue, key)}


def cover(d, body, query):
    """A search result's cover as a data: URL (the page may load images only from the reader)."""
    source = sources.get((query.get("source") or [None])[0])
    url = source.thumbnail((query.get("url") or [""])[0])
    if not url:
        raise Invalid("not a cover of this source")
    data, _type = d.transport(source).fetch_page(PageInfo(url=url))
    ext = verify(data)[0]
    mime = {"jpg": "jpeg"}.get(ext, ext)
    return {"image": f"data:image/{mime};base64," + base64.b64encode(data).decode()}


def change_series(d, body, query, key):
    auto = body.get("auto")
    if auto is not None and not isinstance(auto, bool):
        raise Invalid("auto must be true or false")
    lang = _lang(body)
    return {"series": queue.update_series(d.queue, key, auto=auto, lang=lang)}


def get_settings(d, body, query):
    return {"settings": queue.current_settings(d.queue)}


def post_settings(d, body, query):
    def floor(key):
        try:
            return sources.get(key).pace
        except InvalidInput:
            return None

    def switches(key):
        try:
            return sources.get(key).options
        except InvalidInput:
            return None

    return {"settings": queue.update_settings(d.queue, body, floor, switches)}


def history(d, body, query):
    jobs = queue.list_jobs(d.queue)
    failed = [_job_view(j) for j in jobs if j["state"] == "failed" or j["error"]]
    warnings = [_job_view(j) for j in jobs if j.get("warnings")]
    return {"published": queue.recent_publications(d.queue, 200), "failed": failed, "warnings": warnings}


# MangaDex accounts (scraper/mangadex_accounts.py). The reader names the user it signed in; the
# admin proxy refuses these paths, so an admin reaches only their own connection too.

def _user(value):
    return _text({"user": value}, "user", max_length=64)


def _first(query, name):
    return (query.get(name) or [None])[0]


def _mangadex(d):
    return d.transport(sources.get("mangadex"))


def account_status(d, body, query):
    return {"account": d.accounts.status(_user(_first(query, "user")))}


def account_connect(d, body, query):
    user = _user(body.get("user"))
    client_id, secret, username, password = mangadex_accounts.check_connect(body)
    return {"account": d.accounts.connect(_mangadex(d), user, client_id, secret, username, password)}


def account_disconnect(d, body, query):
    return {"disconnected": d.accounts.disconnect(_user(body.get("user")))}


def account_follows(d, body, query):
    """The user's MangaDex follows, each with whether this server follows it (auto-update on) or
    has chapters of it already."""
    follows = d.accounts.follows(_mangadex(d), _user(_first(query, "user")))
    here = {s["id"]: s for s in queue.list_series(d.queue) if s["source"] == "mangadex"}
    return {"follows": [{"id": f.id, "title": f.title, "year": f.year, "status": f.status,
                         "languages": list(f.languages), "cover_url": f.cover_url,
                         "followed": bool(here.get(f.id, {}).get("auto")), "here": f.id in here}
                        for f in follows]}


def account_read(d, body, query):
    """The chapters the user marked read on MangaDex, in the MangaDex series this server has
    (followed, or with chapters downloaded): the reader matches them to the chapters it holds."""
    ids = [s["id"] for s in queue.list_series(d.queue) if s["source"] == "mangadex"]
    read = d.accounts.read_markers(_mangadex(d), _user(_first(query, "user")), ids)
    return {"read": read, "series": len(ids)}


ROUTES = [
    ("GET", re.compile(r"/account"), account_status),
    ("POST", re.compile(r"/account"), account_connect),
    ("POST", re.compile(r"/account/disconnect"), account_disconnect),
    ("GET", re.compile(r"/account/follows"), account_follows),
    ("GET", re.compile(r"/account/read"), account_read),
    ("GET", re.compile(r"/status"), status),
    ("GET", re.compile(r"/revision"), revision),
    ("GET", re.compile(r"/jobs"), list_jobs),
    ("POST", re.compile(r"/jobs"), add_job),
    ("POST", re.compile(r"/jobs/(?P<job_id>j[0-9a-f]{12})/(?P<action>retry|cancel|move)"), job_action),
    ("POST", re.compile(r"/pause"), pause),
    ("POST", re.compile(r"/resume"), resume),
    ("GET", re.compile(r"/sources"), list_sources),
    ("GET", re.compile(r"/search"), search),
    ("GET", re.compile(r"/chapters"), list_chapters),
    ("GET", re.compile(r"/series"), list_series),
    ("POST", re.compile(r"/series"), add_series),
    ("POST", re.compile(r"/series/(?P<key>[0-9a-f]{12})"), change_series),
    ("POST", re.compile(r"/series/(?P<key>[0-9a-f]{12})/remove"), remove_series),
    ("GET", re.compile(r"/cover"), cover),
    ("GET", re.compile(r"/settings"), get_settings),
    ("POST", re.compile(r"/settings"), post_settings),
    ("GET", re.compile(r"/history"), history),
]
