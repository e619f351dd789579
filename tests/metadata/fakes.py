"""Fake AniList, MangaUpdates and MangaDex on one loopback server, answering tests/metadata/answers.py.

    /anilist                 POST GraphQL: Page(media search) or Media(id)
    /mu/v1/series/search     POST {"search"}
    /mu/v1/series/<id>       GET
    /dex/manga?title=        GET (relationships bare)
    /dex/manga/<id>          GET (relationships expanded)
    /covers/<name>, /dex/covers/<id>/<file>.512.jpg   a PNG

`fake.log` has (monotonic time, method, path, body) of every request; `fake.hold` (an Event) makes
every request wait until it is set, as a provider that hangs; `fake.too_many = n` answers the next
n requests 429 with Retry-After: 1.
"""
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import orjson

from tests.scraper.fakesite import png

from . import answers


class FakeProviders:
    def __init__(self):
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.media = {m["id"]: m for m in answers.anilist_library(self.base)}
        self.log = []
        self.hold = None
        self.too_many = 0
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def env(self):
        return {"METADATA_PROVIDERS": "anilist,mangaupdates,mangadex", "ANILIST_API_URL": f"{self.base}/anilist",
                "MANGAUPDATES_API_URL": f"{self.base}/mu/v1", "MANGADEX_API_URL": f"{self.base}/dex"}

    def start(self):
        self._thread.start()
        return self

    def stop(self):
        if self.hold is not None:
            self.hold.set()
        self.server.shutdown()
        self.server.server_close()

    def queries(self):
        """The AniList queries asked, as "search:<text>" or "id:<id>"."""
        out = []
        for _t, method, path, body in self.log:
            if path == "/anilist":
                variables = orjson.loads(body)["variables"]
                out.append(f"search:{variables['search']}" if "search" in variables else f"id:{variables['id']}")
        return out

    def answer(self, method, path, body):
        """(status, content type, bytes)."""
        if path.startswith(("/covers/", "/dex/covers/")):
            return 200, "image/png", png(len(path))
        if path == "/anilist" and method == "POST":
            request = orjson.loads(body)
            variables = request["variables"]
            if "search" in variables:
                wanted = variables["search"].casefold()
                found = [m for m in self.media.values()
                         if any(wanted in t.casefold() or t.casefold() in wanted
                                for t in (*m["title"].values(), *m["synonyms"]) if t)]
                return 200, "application/json", orjson.dumps({"data": {"Page": {"media": found}}})
            found = self.media.get(variables["id"])
            if found is None:
                return 404, "application/json", orjson.dumps(
                    {"data": {"Media": None}, "errors": [{"message": "Not Found.", "status": 404}]})
            return 200, "application/json", orjson.dumps({"data": {"Media": found}})
        if path == "/mu/v1/series/search" and method == "POST":
            return 200, "application/json", orjson.dumps(answers.mangaupdates_search(self.base))
        if re.fullmatch(r"/mu/v1/series/\d+", path):
            return 200, "application/json", orjson.dumps(answers.mangaupdates_series(self.base))
        if path.startswith("/dex/manga?"):
            return 200, "application/json", orjson.dumps(answers.mangadex_search())
        if path.startswith(f"/dex/manga/{answers.DEX_ID}"):
            return 200, "application/json", orjson.dumps(answers.mangadex_manga())
        return 404, "application/json", b'{"errors": [{"message": "not found"}]}'

    def _handler(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _serve(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                fake.log.append((time.monotonic(), self.command, self.path, body))
                if fake.hold is not None:
                    fake.hold.wait(30)
                if fake.too_many > 0:
                    fake.too_many -= 1
                    status, kind, data, extra = 429, "application/json", b'{"errors": []}', {"Retry-After": "1"}
                else:
                    (status, kind, data), extra = fake.answer(self.command, self.path, body), {}
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", kind)
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in extra.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the client gave up on a held request

            do_GET = do_POST = _serve

        return Handler


class DirectChannel:
    """The worker's channel to a reader running in this process (the app of tests/support/app.py):
    the same handlers the local-admin actions run."""

    def __init__(self):
        from metadata import matches

        self.matches = matches
        self.results = []

    def next(self, limit):
        return self.matches.next_handler({"limit": limit})["items"]

    def hand_in(self, result):
        self.results.append(result)
        self.matches.record(result)
