"""A fake MangaDex on loopback: the documented JSON shapes, its limits, and hostile modes.

Routes: GET /manga (search), /manga/<id>, /manga/<id>/feed, /at-home/server/<chapter>,
/node/<n>/<token>/data/<hash>/<file> (40×60 PNG) and /node/<n>/<token>/data-saver/<hash>/<file>
(20×30 JPEG, the smaller images of `chapter.dataSaver`), /covers/<manga>/<file>; POST /report.
Documents follow https://api.mangadex.org/docs/: the envelope (result, response, data, limit,
offset, total), relationships whose `attributes` appear only when `includes[]` asks, the limit
caps (400 above 100 for lists, 500 for the feed) and the 10,000 result window (400 "Result window
is too large"). Every object carries fields this module has never heard of (`zz…`), as a newer API
would.

It lives in bench/ because `python -m bench` measures the mangadex module against it too; the
tests use it the same way (tests/scraper/sources/test_mangadex*.py).

Hostile modes (an action is fn(handler, body) writing a whole, possibly broken, answer; the tests'
fakesite.py has more of them):
- `script[path]` / `always[path]`: actions for the next requests / every request of one path;
- `flaky`: that share of requests (seeded) answers 500, 502 or 503;
- `kind_script[kind]` / `kind_always[kind]`: actions for the next requests / every request of one
  kind: "api", "at-home", "node", "cover", "report";
- `flaky_kinds`: the kinds `flaky` applies to (default all);
- `bad_nodes`: at-home node numbers that answer 502 (each at-home call hands out the next number);
- `report_delay`: seconds the report endpoint sleeps before answering;
- `node_base`: where at-home sends the images (another server: the address guard must judge it);
- `drop`: (kind, attribute) removed from every manga or chapter document (schema drift).

Accounts (the personal API client flow, https://api.mangadex.org/docs/02-authentication/personal-clients/):
POST /realms/mangadex/protocol/openid-connect/token answers like MangaDex's Keycloak (password
and refresh_token grants; 401 invalid_grant "Invalid user credentials", 401 unauthorized_client,
400 invalid_grant "Token is not active" for a revoked or unknown refresh token); access tokens
last `access_seconds` (900, as MangaDex's) unless `expire()` ends them, then the API answers 401.
GET /user/follows/manga (paged, at most 100, `includes[]=cover_art`) and GET /manga/read?ids[]=
and /manga/<id>/read answer the user's follows and read markers. Set them with `add_account()`,
`follow()`, `mark_read()`; `revoke()` ends a user's refresh tokens.
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
from urllib.parse import parse_qs, urlsplit

import orjson
from PIL import Image

NO_GROUP = "00e03853-1b96-4f41-9542-c71b8692033b"
DATE = "2024-05-01T10:00:00+00:00"


def uuid(*parts):
    digest = f"{zlib.crc32(repr(parts).encode()):08x}" * 4
    return f"{digest[:8]}-{digest[8:12]}-4{digest[13:16]}-a{digest[17:20]}-{digest[20:32]}"


@functools.lru_cache(maxsize=None)
def png(seed, size=(40, 60)):
    out = io.BytesIO()
    Image.new("RGB", size, ((seed * 37) % 256, (seed * 91) % 256, (seed * 53) % 256)).save(out, "PNG")
    return out.getvalue()


@functools.lru_cache(maxsize=None)
def jpeg(seed, size=(20, 30)):
    out = io.BytesIO()
    Image.new("RGB", size, ((seed * 37) % 256, (seed * 91) % 256, (seed * 53) % 256)).save(out, "JPEG", quality=40)
    return out.getvalue()


def status(code, headers=None, body=b"{}"):
    def act(h, _body):
        h.send_response(code)
        for k, v in (headers or {}).items():
            h.send_header(k, v)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)
    return act


def html_page(h, body):
    """A browser check: status 200, text/html, on a JSON route."""
    status(200, {"Content-Type": "text/html; charset=utf-8"},
           b"<!DOCTYPE html><html><head><title>Just a moment...</title></head>"
           b"<body>Checking your browser</body></html>")(h, body)


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # clients that hang up (a killed daemon, an aborted request) are expected here


def unknown(obj, name):
    """Fields no version of the module knows, as a newer API adds them."""
    return {**obj, "zzAdded": {"note": f"new in a later API ({name})", "list": [1, 2]}, "zzFlag": True}


class Group:
    def __init__(self, name):
        self.id, self.name = uuid("group", name), name


class FakeDex:
    def __init__(self):
        self.hits, self.log = Counter(), []   # log: (monotonic time, path) of every request
        self.inflight = self.max_inflight = 0
        self.user_agents = set()
        self.script, self.always = {}, {}
        self.flaky = 0.0
        self.random = random.Random(7)
        self.lock = threading.Lock()
        self.httpd = None
        self.manga = {}         # id -> manga entity (without relationships' attributes)
        self.feeds = {}         # manga id -> [chapter entity]
        self.pages = {}         # chapter id -> number of pages
        self.kind_script, self.kind_always = {}, {}
        self.flaky_kinds = None
        self.bad_nodes = set()
        self.nodes = 0
        self.report_delay = 0.0
        self.node_base = None   # another base for the at-home nodes (default: this server)
        self.reports = []
        self.kinds = Counter()
        self.drop = None
        self.clients, self.accounts = {}, {}    # client id -> secret; username -> password
        self.access, self.refresh = {}, {}      # token -> (username, monotonic end); token -> username
        self.following, self.read = {}, {}      # username -> [manga ids]; username -> [chapter ids]
        self.grants = []                        # (grant_type, username or None) of every token request
        self.access_seconds = 900
        self.authorizations = []                # the Authorization header of every request (None: none)

    # The corpus

    def add_manga(self, title, original="ja", tags=(), alt=(), languages=("en",), author="A. Writer",
                  manga_id=None, year=2019, status_="ongoing", cover="cover-1.png"):
        manga_id = manga_id or uuid("manga", title)
        author_id = uuid("author", author)
        attrs = {
            "title": {"en" if original != "ko" else "ko-ro": title}, "altTitles": [dict([a]) for a in alt],
            "description": {"en": f"About {title}.", "fr": f"À propos de {title}."}, "isLocked": False,
            "links": {"al": "12345", "mu": "abc", "raw": "https://example.org/raw"}, "originalLanguage": original,
            "lastVolume": "", "lastChapter": "", "publicationDemographic": "seinen", "status": status_,
            "year": year, "contentRating": "safe",
            "tags": [unknown({"id": uuid("tag", t), "type": "tag", "attributes": {"name": {"en": t}, "group": "format"},
                              "relationships": []}, "tag") for t in tags],
            "state": "published", "chapterNumbersResetOnNewVolume": False, "createdAt": DATE, "updatedAt": DATE,
            "version": 3, "availableTranslatedLanguages": list(languages), "latestUploadedChapter": None,
        }
        self.manga[manga_id] = {
            "id": manga_id, "type": "manga", "attributes": unknown(attrs, "manga.attributes"),
            "relationships": [
                {"id": author_id, "type": "author", "attributes": {"name": author, "zzAdded": 1}},
                {"id": author_id, "type": "artist", "attributes": {"name": author, "zzAdded": 1}},
                {"id": uuid("cover", title), "type": "cover_art", "attributes": {"fileName": cover, "volume": "1"}},
            ]}
        self.feeds[manga_id] = []
        return manga_id

    def add_chapter(self, manga_id, number, volume=None, title="", groups=(), lang="en", pages=3, uploader="uploader1",
                    external=None, unavailable=False, chapter_id=None):
        chapter_id = chapter_id or uuid("chapter", manga_id, number, volume, lang, tuple(g.id for g in groups),
                                        len(self.feeds[manga_id]))
        attrs = {"volume": volume, "chapter": number, "title": title, "translatedLanguage": lang,
                 "externalUrl": external, "isUnavailable": unavailable, "publishAt": DATE, "readableAt": DATE,
                 "createdAt": DATE, "updatedAt": DATE, "pages": 0 if external else pages, "version": 1}
        rels = [{"id": g.id, "type": "scanlation_group", "attributes": {"name": g.name, "website": None}}
                for g in groups]
        rels += [{"id": manga_id, "type": "manga"}, {"id": uuid("user", uploader), "type": "user",
                                                     "attributes": {"username": uploader, "roles": []}}]
        self.feeds[manga_id].append({"id": chapter_id, "type": "chapter", "attributes": unknown(attrs, "chapter"),
                                     "relationships": rels})
        self.pages[chapter_id] = 0 if external else pages
        return chapter_id

    def add_many(self, manga_id, count, lang="en"):
        group = Group("Bulk Scans")
        for n in range(1, count + 1):
            self.add_chapter(manga_id, str(n), volume=str((n - 1) // 10 + 1), groups=(group,), lang=lang, pages=1,
                             chapter_id=uuid("bulk", manga_id, n))

    # Accounts

    def add_account(self, username, password, client_id="personal-client-1", secret="s3cret"):
        self.accounts[username], self.clients[client_id] = password, secret
        return client_id, secret

    def follow(self, username, *manga_ids):
        self.following.setdefault(username, []).extend(manga_ids)

    def mark_read(self, username, *chapter_ids):
        self.read.setdefault(username, []).extend(chapter_ids)

    def expire(self, username):
        """End the user's access tokens now (the API answers 401 until a refresh)."""
        with self.lock:
            self.access = {t: (u, 0 if u == username else end) for t, (u, end) in self.access.items()}

    def revoke(self, username):
        with self.lock:
            self.refresh = {t: u for t, u in self.refresh.items() if u != username}

    def _issue(self, username):
        with self.lock:
            n = len(self.access) + len(self.refresh) + 1
            access, refresh = f"acc-{n}-{uuid('a', username, n)}", f"ref-{n}-{uuid('r', username, n)}"
            self.access[access] = (username, time.monotonic() + self.access_seconds)
            self.refresh[refresh] = username
        return self.ok({"access_token": access, "expires_in": self.access_seconds, "refresh_expires_in": 7776000,
                        "refresh_token": refresh, "token_type": "Bearer", "not-before-policy": 0,
                        "session_state": uuid("session", username), "scope": "openid groups profile email"})

    def token(self, posted):
        form = {k: v[0] for k, v in parse_qs(posted.decode()).items()}
        grant = form.get("grant_type")
        self.grants.append((grant, form.get("username")))
        if self.clients.get(form.get("client_id")) != form.get("client_secret") or not form.get("client_id"):
            return self.oauth_error(401, "unauthorized_client", "Invalid client or Invalid client credentials")
        if grant == "password":
            if not form.get("username") or self.accounts.get(form["username"]) != form.get("password"):
                return self.oauth_error(401, "invalid_grant", "Invalid user credentials")
            return self._issue(form["username"])
        if grant == "refresh_token":
            username = self.refresh.get(form.get("refresh_token"))
            if username is None:
                return self.oauth_error(400, "invalid_grant", "Token is not active")
            return self._issue(username)
        return self.oauth_error(400, "unsupported_grant_type", "Unsupported grant_type")

    def oauth_error(self, code, error, description):
        return code, orjson.dumps({"error": error, "error_description": description}), "application/json"

    def user_of(self, headers):
        value = headers.get("Authorization") or ""
        username, end = self.access.get(value[7:], (None, 0)) if value.startswith("Bearer ") else (None, 0)
        return username if username and time.monotonic() < end else None

    def account_route(self, path, query, headers):
        username = self.user_of(headers)
        if username is None:
            return self.error(401, "unauthorized_http_exception", "Token is invalid or expired")
        if path == "/user/follows/manga":
            limit, offset, error = self._paging(query, 100)
            if error:
                return error
            ids = self.following.get(username, [])
            return self.ok(unknown({"result": "ok", "response": "collection", "limit": limit, "offset": offset,
                                    "total": len(ids), "data": [self.entity(self.manga[m], query, "manga")
                                                                 for m in ids[offset:offset + limit]]}, "list"))
        wanted = set(query.get("ids[]", [])) if path == "/manga/read" else {path.split("/")[2]}
        chapters = {c["id"] for m in wanted for c in self.feeds.get(m, [])}
        return self.ok({"result": "ok", "data": [c for c in self.read.get(username, []) if c in chapters]})

    # Serving

    @property
    def url(self):
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()

    def handle(self, h):
        with self.lock:
            self.inflight += 1
            self.max_inflight = max(self.max_inflight, self.inflight)
        try:
            self._handle(h)
        finally:
            with self.lock:
                self.inflight -= 1

    def start(self):
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                site.handle(self)

            def do_POST(self):
                site.handle(self)

            def log_message(self, *args):
                pass

        self.httpd = _QuietServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, args=(0.02,), daemon=True).start()
        return self

    @staticmethod
    def kind_of(path):
        for prefix, kind in (("/at-home/", "at-home"), ("/node/", "node"), ("/covers/", "cover"),
                             ("/report", "report"), ("/realms/", "auth")):
            if path.startswith(prefix):
                return kind
        return "api"

    def api_gaps(self, kinds=("api", "at-home", "node", "cover", "report")):
        """Seconds between the starts of consecutive requests of these kinds."""
        times = [t for t, p in self.log if self.kind_of(p) in kinds]
        return [b - a for a, b in zip(times, times[1:])]

    def _handle(self, h):
        parts = urlsplit(h.path)
        path, kind = parts.path, self.kind_of(parts.path)
        length = int(h.headers.get("Content-Length") or 0)
        posted = h.rfile.read(length) if length else b""
        with self.lock:
            self.hits[path] += 1
            self.kinds[kind] += 1
            self.log.append((time.monotonic(), path))
            self.user_agents.add(h.headers.get("User-Agent"))
            self.authorizations.append(h.headers.get("Authorization"))
            scripted = self.script.get(path) or self.kind_script.get(kind)
            action = scripted.pop(0) if scripted else self.always.get(path) or self.kind_always.get(kind)
            flaky = (self.flaky and (self.flaky_kinds is None or kind in self.flaky_kinds)
                     and self.random.random() < self.flaky)
        if h.command == "POST" and kind == "report":
            self.reports.append(orjson.loads(posted))
            if self.report_delay:
                time.sleep(self.report_delay)
        code, body, content_type = self.route(h.command, path, parse_qs(parts.query), h.headers, posted)
        if action:
            return action(h, body or b"")
        if flaky:
            code = self.random.choice((500, 502, 503))
            return status(code, {"Content-Type": "text/html"}, b"<h1>Bad gateway</h1>")(h, b"")
        status(code, {"Content-Type": content_type}, body)(h, body)

    def route(self, method, path, query, headers=None, posted=b""):
        """-> (status, body, content type)."""
        if method == "POST" and path == "/realms/mangadex/protocol/openid-connect/token":
            return self.token(posted)
        if method == "POST":
            return (200, b'{"result":"ok"}', "application/json") if path == "/report" else self.error(404, "not_found")
        if path in ("/user/follows/manga", "/manga/read") or re.fullmatch(r"/manga/[0-9a-f-]{36}/read", path):
            return self.account_route(path, query, headers or {})
        if path == "/manga":
            return self.search(query)
        if m := re.fullmatch(r"/manga/([0-9a-f-]{36})", path):
            manga = self.manga.get(m.group(1))
            if not manga:
                return self.error(404, "not_found_http_exception", "Manga not found")
            return self.ok({"result": "ok", "response": "entity", "data": self.entity(manga, query, "manga")})
        if m := re.fullmatch(r"/manga/([0-9a-f-]{36})/feed", path):
            return self.feed(m.group(1), query)
        if m := re.fullmatch(r"/at-home/server/([0-9a-f-]{36})", path):
            count = self.pages.get(m.group(1))
            if count is None:
                return self.error(404, "not_found_http_exception", "Chapter not found")
            with self.lock:
                self.nodes += 1
                node = self.nodes
            digest = m.group(1).replace("-", "")
            files = [f"{n}-{digest[:8]}.png" for n in range(1, count + 1)]
            saver = [f.replace(".png", ".jpg") for f in files]
            return self.ok({"result": "ok", "baseUrl": f"{self.node_base or self.url}/node/{node}/tok{node}",
                            "chapter": {"hash": digest, "data": files, "dataSaver": saver, "zzAdded": 1}, "zzAdded": 2})
        if m := re.fullmatch(r"/node/(\d+)/[^/]+/data/([0-9a-f]{32})/(\d+)-[0-9a-f]{8}\.png", path):
            if int(m.group(1)) in self.bad_nodes:
                return 502, b"<h1>node down</h1>", "text/html"
            return 200, png(zlib.crc32(f"{m.group(2)}/{m.group(3)}".encode()) % 1000), "image/png"
        if m := re.fullmatch(r"/node/(\d+)/[^/]+/data-saver/([0-9a-f]{32})/(\d+)-[0-9a-f]{8}\.jpg", path):
            return 200, jpeg(zlib.crc32(f"{m.group(2)}/{m.group(3)}".encode()) % 1000), "image/jpeg"
        if m := re.fullmatch(r"/covers/([0-9a-f-]{36})/(.+)", path):
            return (200, png(5, (60, 90)), "image/png") if m.group(1) in self.manga else self.error(404, "not_found")
        return self.error(404, "not_found_http_exception", "No route")

    def ok(self, payload):
        return 200, orjson.dumps(payload), "application/json"

    def error(self, code, error_id, detail=""):
        body = {"result": "error", "errors": [{"id": uuid("err", error_id), "status": code, "title": error_id,
                                               "detail": detail, "context": None}]}
        return code, orjson.dumps(body), "application/json"

    def _paging(self, query, cap):
        try:
            limit, offset = int(query.get("limit", ["10"])[0]), int(query.get("offset", ["0"])[0])
        except ValueError:
            return None, None, self.error(400, "validation_exception", "limit and offset must be integers")
        if limit > cap or limit < 0 or offset < 0:
            return None, None, self.error(400, "validation_exception", f"limit must be at most {cap}")
        if offset + limit > 10_000:
            return None, None, self.error(
                400, "bad_request_http_exception",
                "Result window is too large, offset + limit must be less than or equal to 10000")
        return limit, offset, None

    def entity(self, obj, query, kind):
        """A copy with relationship attributes only for the included types, and `drop` applied."""
        included = set(query.get("includes[]", []))
        rels = [r if r["type"] in included else {"id": r["id"], "type": r["type"]} for r in obj["relationships"]]
        attrs = dict(obj["attributes"])
        if self.drop and self.drop[0] == kind:
            attrs.pop(self.drop[1], None)
        return unknown({**obj, "attributes": attrs, "relationships": rels}, kind)

    def search(self, query):
        limit, offset, error = self._paging(query, 100)
        if error:
            return error
        words = query.get("title", [""])[0].lower()
        hits = [m for m in self.manga.values()
                if any(words in t.lower() for t in m["attributes"]["title"].values())]
        page = hits[offset:offset + limit]
        return self.ok(unknown({"result": "ok", "response": "collection", "limit": limit, "offset": offset,
                                "total": len(hits), "data": [self.entity(m, query, "manga") for m in page]}, "list"))

    def feed(self, manga_id, query):
        if manga_id not in self.feeds:
            return self.error(404, "not_found_http_exception", "Manga not found")
        limit, offset, error = self._paging(query, 500)
        if error:
            return error
        langs = set(query.get("translatedLanguage[]", []))
        chapters = [c for c in self.feeds[manga_id] if not langs or c["attributes"]["translatedLanguage"] in langs]
        if query.get("order[chapter]", ["asc"])[0] == "desc":
            chapters = chapters[::-1]
        page = chapters[offset:offset + limit]
        return self.ok(unknown({"result": "ok", "response": "collection", "limit": limit, "offset": offset,
                                "total": len(chapters), "data": [self.entity(c, query, "chapter") for c in page]},
                               "list"))

    def image_requests(self):
        return [p for _t, p in self.log if p.startswith("/node/")]

    def chapter_ids(self, manga_id):
        return [c["id"] for c in self.feeds[manga_id]]


def standard(dex):
    """The corpus most tests use: returns {name: id}."""
    fans, moon, joint = Group("Fans"), Group("Moon Scans"), Group("Joint Team")
    garden = dex.add_manga("Moon Garden", original="ja", tags=("Romance", "Drama"),
                           alt=(("ja", "月の庭"), ("fr", "Le Jardin de Lune")), languages=("en", "fr"))
    ids = {"garden": garden}
    ids["c1"] = dex.add_chapter(garden, "1", "1", "Roots", (fans,))
    ids["c1b"] = dex.add_chapter(garden, "1", "1", "Roots", (moon,))          # a second group: a second version
    ids["c2"] = dex.add_chapter(garden, "2", "1", "Stems", (fans, joint))    # two groups on one upload
    ids["c3.9"] = dex.add_chapter(garden, "3.9", None, "Ninth", (fans,))
    ids["c3.10"] = dex.add_chapter(garden, "3.10", None, "Tenth", (fans,))
    ids["c4"] = dex.add_chapter(garden, "4", "2", "Elsewhere", (fans,), external="https://mangaplus.example/4")
    ids["c5"] = dex.add_chapter(garden, "5", "2", "Gone", (fans,), unavailable=True)
    ids["c10.5"] = dex.add_chapter(garden, "10.5", None, "Extra", (), uploader="kind_reader")  # no group: uploader
    nogroup = Group("No Group")
    nogroup.id = NO_GROUP
    ids["oneshot"] = dex.add_chapter(garden, None, None, "", (nogroup,), uploader="")
    ids["fr1"] = dex.add_chapter(garden, "1", "1", "Racines", (fans,), lang="fr")
    ids["strip"] = dex.add_manga("Night Strip", original="ko", tags=("Long Strip", "Action"), languages=("en",))
    dex.add_chapter(ids["strip"], "1", None, "Start", (moon,))
    return ids

