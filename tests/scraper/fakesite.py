"""A fake manga site on loopback, with hostile modes, for the scraper tests.

Routes (JSON unless noted):
    /search?q=            [{"id", "title"}]
    /series/<id>          {"id", "title", "authors"}
    /series/<id>/chapters [{"id", "number", "title", "group"}]
    /chapter/<cid>        {"pages": [url, ...]}
    /img/<cid>/<n>.png    a PNG (different per page)

Hostile behaviour is scripted per path: `site.script[path] = [action, ...]` serves the actions to
the next requests of that path, then normal answers again; `site.always[path]` serves one action
to every request. `site.flaky = 0.3` answers a seeded 30 % of requests with 502/503.
"""
import functools
import io
import random
import re
import threading
import time
import zlib
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import orjson
from PIL import Image


@functools.lru_cache(maxsize=None)
def png(seed, size=(40, 60)):
    out = io.BytesIO()
    Image.new("RGB", size, ((seed * 37) % 256, (seed * 91) % 256, (seed * 53) % 256)).save(out, "PNG")
    return out.getvalue()


# Actions: each is fn(handler, body) and writes a whole (possibly broken) response.

def status(code, headers=None, body=b"{}"):
    def act(h, _body):
        h.send_response(code)
        for k, v in (headers or {}).items():
            h.send_header(k, v)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)
    return act


class _FirstWrite:
    """A handler's output that calls `on_first` (once) before its first byte is written."""

    def __init__(self, wfile, on_first):
        self._wfile, self._on_first = wfile, on_first

    def done(self):
        if self._on_first:
            on_first, self._on_first = self._on_first, None
            on_first()

    def write(self, data):
        self.done()
        return self._wfile.write(data)

    def __getattr__(self, name):
        return getattr(self._wfile, name)


def truncate(h, body):
    """Content-Length says all of it, half arrives, then the connection closes."""
    h.send_response(200)
    h.send_header("Content-Type", "image/png")
    h.send_header("Content-Length", str(len(body)))
    h.end_headers()
    h.wfile.write(body[: len(body) // 2])
    h.close_connection = True


def chunked_cut(h, body):
    """A chunked body that stops mid-stream, without its final chunk."""
    h.send_response(200)
    h.send_header("Content-Type", "image/png")
    h.send_header("Transfer-Encoding", "chunked")
    h.end_headers()
    half = body[: len(body) // 2]
    h.wfile.write(f"{len(half):x}\r\n".encode() + half + b"\r\n")
    h.close_connection = True


def endless(h, body):
    h.send_response(200)
    h.send_header("Content-Type", "image/png")
    h.end_headers()
    h.close_connection = True
    block = b"\0" * 65536
    try:
        while True:
            h.wfile.write(block)
    except OSError:
        pass


def declared(size):
    def act(h, body):
        h.send_response(200)
        h.send_header("Content-Type", "image/png")
        h.send_header("Content-Length", str(size))
        h.end_headers()
        try:
            h.wfile.write(body)
            time.sleep(2)
        except OSError:
            pass
        h.close_connection = True
    return act


def drip(interval):
    """The whole body, one byte every `interval` seconds."""
    def act(h, body):
        h.send_response(200)
        h.send_header("Content-Type", "image/png")
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        try:
            for i in range(len(body)):
                h.wfile.write(body[i:i + 1])
                h.wfile.flush()
                time.sleep(interval)
        except OSError:
            pass
        h.close_connection = True
    return act


def hang(release):
    """Half the body, then silence with the socket open until `release` is set."""
    def act(h, body):
        h.send_response(200)
        h.send_header("Content-Type", "image/png")
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body[: len(body) // 2])
        h.wfile.flush()
        release.wait(30)
        h.close_connection = True
    return act


def html(h, body):
    status(200, {"Content-Type": "image/png"}, b"<!doctype html><html><body>Please wait...</body></html>")(h, body)


def redirect(location):
    return status(302, {"Location": location}, b"")


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # clients that hang up (a killed daemon, an aborted request) are expected here


class FakeSite:
    def __init__(self, chapters=3, pages=4, series_id="s1", title="Moon Garden"):
        self.series = {series_id: {"title": title, "chapters": [
            {"id": f"{series_id}c{n}", "number": str(n), "title": f"Part {n}", "group": "Fans", "pages": pages}
            for n in range(1, chapters + 1)]}}
        self.hits = Counter()
        self.log = []               # (monotonic time, path) of every request
        self.inflight = self.max_inflight = 0
        self.user_agents = set()
        self.script = {}
        self.always = {}
        self.flaky = 0.0
        self.random = random.Random(7)
        self.page_delay = 0.0
        self.lock = threading.Lock()
        self.httpd = None

    @property
    def url(self):
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def start(self):
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                site.handle(self)

            def log_message(self, *args):
                pass

        self.httpd = _QuietServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        # A short poll interval: shutdown() waits for the loop to notice (0.5 s by default).
        threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True).start()
        return self

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()

    def chapter(self, cid):
        for series in self.series.values():
            for chapter in series["chapters"]:
                if chapter["id"] == cid:
                    return chapter
        return None

    def image_paths(self):
        return [p for p in self.hits if p.startswith("/img/")]

    def handle(self, h):
        """Counts a request in flight until its answer starts: once the bytes are out, the client
        may send its next request before this handler has returned."""
        with self.lock:
            self.inflight += 1
            self.max_inflight = max(self.max_inflight, self.inflight)
        answering = _FirstWrite(h.wfile, self._answered)
        h.wfile = answering
        try:
            self._handle(h)
        finally:
            answering.done()

    def _answered(self):
        with self.lock:
            self.inflight -= 1

    def times(self, path):
        return [t for t, p in self.log if p == path]

    def _handle(self, h):
        path = h.path.split("?")[0]
        with self.lock:
            self.hits[path] += 1
            self.log.append((time.monotonic(), path))
            self.user_agents.add(h.headers.get("User-Agent"))
            scripted = self.script.get(path)
            action = scripted.pop(0) if scripted else self.always.get(path)
            flaky = self.flaky and self.random.random() < self.flaky
        body, content_type = self.answer(h.path)
        if action:
            return action(h, body or b"")
        if body is None:
            return status(404)(h, b"")
        if flaky:
            code = self.random.choice((502, 503))
            return status(code, {"Content-Type": "text/html"}, b"<h1>Bad gateway</h1>")(h, body)
        if path.startswith("/img/") and self.page_delay:
            time.sleep(self.page_delay)
        status(200, {"Content-Type": content_type}, body)(h, body)

    def answer(self, full_path):
        path, _, query = full_path.partition("?")
        if path == "/search":
            q = query.partition("=")[2].lower()
            return orjson.dumps([{"id": k, "title": v["title"]} for k, v in self.series.items()
                                 if q in v["title"].lower()]), "application/json"
        if m := re.fullmatch(r"/series/([^/]+)", path):
            s = self.series.get(m.group(1))
            payload = orjson.dumps({"id": m.group(1), "title": s["title"], "authors": ["A. Writer"]}) if s else None
            return payload, "application/json"
        if m := re.fullmatch(r"/series/([^/]+)/chapters", path):
            s = self.series.get(m.group(1))
            return (orjson.dumps([{k: c[k] for k in ("id", "number", "title", "group")} for c in s["chapters"]])
                    if s else None), "application/json"
        if m := re.fullmatch(r"/chapter/([^/]+)", path):
            c = self.chapter(m.group(1))
            return (orjson.dumps({"pages": [f"{self.url}/img/{c['id']}/{n}.png" for n in range(1, c["pages"] + 1)]})
                    if c else None), "application/json"
        if m := re.fullmatch(r"/img/([^/]+)/(\d+)\.png", path):
            c = self.chapter(m.group(1))
            return (png(zlib.crc32(path.encode()) % 1000) if c else None), "image/png"
        if path == "/canary":
            return b"{}", "application/json"
        return None, ""
