"""The daemon's private control API (spec §6), on SCRAPER_URL, for the reader's admin proxy only.

Every request needs `Authorization: Bearer SCRAPER_TOKEN` (compared in constant time). JSON in,
JSON out, errors as {"error": message}. The browser never calls this: the reader forwards admin
requests from /api/admin/scraper/<path> with the token (scraper/proxy.py).
"""
import dataclasses
import hmac
import logging
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import orjson

from . import queue, sources
from .errors import InvalidInput, ScraperError

log = logging.getLogger(__name__)
MAX_BODY = 64 * 1024


class ApiError(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status, self.message = status, message


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
            body = self._body() if method == "POST" else {}
            for route_method, pattern, view in ROUTES:
                match = pattern.fullmatch(parts.path)
                if match and route_method == method:
                    status, result = 200, view(self.daemon, body=body, query=parse_qs(parts.query), **match.groupdict())
                    if isinstance(result, tuple):
                        status, result = result
                    return self._send(status, result)
            raise ApiError(404, f"no route {method} {parts.path}")
        except ApiError as e:
            self._send(e.status, {"error": e.message})
        except InvalidInput as e:
            self._send(400, {"error": e.message})
        except (LookupError, ValueError) as e:
            self._send(404 if isinstance(e, LookupError) else 400, {"error": str(e).strip("'\"")})
        except ScraperError as e:
            self._send(502, {"error": e.message})
        except Exception:
            log.exception("control API: %s %s", method, self.path)
            self._send(500, {"error": "internal error in the scraper; its log has the details"})

    def _check_token(self):
        header = self.headers.get("Authorization", "")
        given = header[7:].strip() if header.lower().startswith("bearer ") else ""
        if not given or not hmac.compare_digest(given.encode(), self.token.encode()):
            raise ApiError(401, "missing or wrong token")

    def _body(self):
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            raise ApiError(400, "invalid Content-Length") from None
        if length > MAX_BODY:
            raise ApiError(413, "request body is too large")
        raw = self.rfile.read(length) if length else b"{}"
        try:
            data = orjson.loads(raw)
        except orjson.JSONDecodeError:
            raise ApiError(400, "request body is not valid JSON") from None
        if not isinstance(data, dict):
            raise ApiError(400, "request body must be a JSON object")
        return data

    def _send(self, status, payload):
        raw = orjson.dumps(payload)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.send_header("Cache-Control", "no-store")
        if status == 401:
            self.send_header("WWW-Authenticate", 'Bearer realm="mangacircus-scraper"')
        self.end_headers()
        self.wfile.write(raw)


# Views: (daemon, body, query, **path groups) -> dict or (status, dict)

def _text(data, name, required=True, max_length=1000):
    value = data.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > max_length:
        raise ApiError(400, f"{name} must be a non-empty string of at most {max_length} characters")
    return value.strip()


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
        raise ApiError(400, f"kind must be one of {', '.join(queue.KINDS)}")
    if kind == "discover":
        job, created = queue.add_job(d.queue, "discover", "all")
        return (201 if created else 200), {"job": _job_view(job), "created": created}
    source = sources.get(body.get("source"))
    series = source.check_id(d.transport(source), _text(body, "series"))
    chapters = None
    if kind == "chapters":
        chapters = body.get("chapters")
        if not isinstance(chapters, list) or not chapters or not all(isinstance(c, str) and c for c in chapters):
            raise ApiError(400, "chapters must be a non-empty list of chapter ids")
    job, created = queue.add_job(d.queue, kind, source.key, series, chapters,
                                 lang=_text(body, "lang", required=False, max_length=16))
    return (201 if created else 200), {"job": _job_view(job), "created": created}


def job_action(d, body, query, job_id, action):
    if action == "retry":
        job = queue.retry(d.queue, job_id)
    elif action == "cancel":
        job = d.cancel(job_id)
    else:
        job = queue.move(d.queue, job_id, body.get("to"))
    return {"job": _job_view(job)}


def pause(d, body, query):
    return {"paused": True, "idle": d.pause()}


def resume(d, body, query):
    d.resume()
    return {"paused": False}


def list_sources(d, body, query):
    return {"sources": [{**s.describe(), "interval": d.pace_for(s)} for s in sources.all_sources()]}


def search(d, body, query):
    source = sources.get((query.get("source") or [None])[0])
    text = (query.get("q") or [""])[0][:200]
    return {"results": [dataclasses.asdict(r) for r in source.search(d.transport(source), text)]}


def list_series(d, body, query):
    return {"series": queue.list_series(d.queue)}


def add_series(d, body, query):
    return add_job(d, {**body, "kind": "add", "series": body.get("id")}, query)


def change_series(d, body, query, key):
    auto = body.get("auto")
    if auto is not None and not isinstance(auto, bool):
        raise ApiError(400, "auto must be true or false")
    lang = _text(body, "lang", required=False, max_length=16)
    return {"series": queue.update_series(d.queue, key, auto=auto, lang=lang)}


def get_settings(d, body, query):
    return {"settings": queue.current_settings(d.queue)}


def post_settings(d, body, query):
    def floor(key):
        try:
            return sources.get(key).pace
        except InvalidInput:
            return None

    return {"settings": queue.update_settings(d.queue, body, floor)}


def history(d, body, query):
    failed = [_job_view(j) for j in queue.list_jobs(d.queue) if j["state"] == "failed" or j["error"]]
    return {"published": queue.recent_publications(d.queue, 200), "failed": failed}


ROUTES = [
    ("GET", re.compile(r"/status"), status),
    ("GET", re.compile(r"/revision"), revision),
    ("GET", re.compile(r"/jobs"), list_jobs),
    ("POST", re.compile(r"/jobs"), add_job),
    ("POST", re.compile(r"/jobs/(?P<job_id>j[0-9a-f]{12})/(?P<action>retry|cancel|move)"), job_action),
    ("POST", re.compile(r"/pause"), pause),
    ("POST", re.compile(r"/resume"), resume),
    ("GET", re.compile(r"/sources"), list_sources),
    ("GET", re.compile(r"/search"), search),
    ("GET", re.compile(r"/series"), list_series),
    ("POST", re.compile(r"/series"), add_series),
    ("POST", re.compile(r"/series/(?P<key>[0-9a-f]{12})"), change_series),
    ("GET", re.compile(r"/settings"), get_settings),
    ("POST", re.compile(r"/settings"), post_settings),
    ("GET", re.compile(r"/history"), history),
]
