"""Fake AniList, MyAnimeList and MangaUpdates on one loopback server, answering in the shapes their
public API docs give (each handler names its page).

    /anilist/oauth/authorize    GET: redirects at once to redirect_uri?code=…&state=… (the user approved)
    /anilist/oauth/token        POST JSON (docs.anilist.co/guide/auth/authorization-code)
    /anilist/graphql            POST: Viewer, SaveMediaListEntry, MediaListCollection (the GraphQL schema)
    /mal/oauth/authorize        GET, PKCE plain (myanimelist.net/apiconfig/references/authorization)
    /mal/oauth/token            POST form: authorization_code with code_verifier, refresh_token
    /mal/api/users/@me          GET; /mal/api/manga/<id>/my_list_status PATCH form;
    /mal/api/users/@me/mangalist  GET (myanimelist.net/apiconfig/references/api/v2)
    /mu/v1/account/login        PUT JSON; /mu/v1/lists/series/update, /mu/v1/lists/series POST JSON;
    /mu/v1/lists/<id>/search    POST JSON (api.mangaupdates.com, its OpenAPI description)

`fake.log` has (method, path, headers, body) of each request; `fake.updates` the progress each
site received, as (site, entry id, fields). `revoked` (a set of tokens) answers them 401;
`too_many = (n, seconds)` answers the next n requests 429 with Retry-After, `failing = n` 500; `hold` (an Event)
makes every request wait for it, as a site that hangs.
"""
import secrets
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

import orjson

VIEWER = {"id": 5001, "name": "anilistreader"}
MAL_USER = {"id": 7001, "name": "malreader", "joined_at": "2020-01-01T00:00:00+00:00"}
MU_USER = {"uid": 9001, "username": "mureader", "password": "mu password"}


class FakeTrackers:
    def __init__(self):
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.log, self.updates = [], []
        self.codes = {}        # code -> (site, redirect_uri, code_challenge)
        self.tokens = {}       # access token -> site
        self.refresh_tokens = {}
        self.revoked = set()
        self.too_many = (0, 0)
        self.failing = 0       # the next n requests answer 500
        self.hold = None
        self.mu_series = set()  # MangaUpdates series on the user's lists
        self.lists = {"anilist": [], "myanimelist": [], "mangaupdates": []}  # for the imports
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def env(self):
        return {"ANILIST_OAUTH_URL": f"{self.base}/anilist/oauth", "ANILIST_API_URL": f"{self.base}/anilist/graphql",
                "ANILIST_CLIENT_ID": "4242", "ANILIST_CLIENT_SECRET": "anilist-secret",
                "MAL_OAUTH_URL": f"{self.base}/mal/oauth", "MAL_API_URL": f"{self.base}/mal/api",
                "MAL_CLIENT_ID": "mal-client", "MANGAUPDATES_API_URL": f"{self.base}/mu/v1"}

    def start(self):
        self._thread.start()
        return self

    def stop(self):
        if self.hold is not None:
            self.hold.set()
        self.server.shutdown()
        self.server.server_close()

    def _token(self, site, refresh=False):
        token = f"{site}-token-{secrets.token_hex(8)}"
        self.tokens[token] = site
        out = {"token_type": "Bearer", "expires_in": 31536000 if site == "anilist" else 2678400,
               "access_token": token}
        if refresh:
            out["refresh_token"] = f"{site}-refresh-{secrets.token_hex(8)}"
            self.refresh_tokens[out["refresh_token"]] = site
        return out

    def _authorized(self, headers, site):
        token = (headers.get("Authorization") or "").removeprefix("Bearer ")
        return self.tokens.get(token) == site and token not in self.revoked

    def answer(self, method, path, headers, body):
        """(status, headers, JSON-able body or bytes)."""
        url = urlsplit(path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        if url.path in ("/anilist/oauth/authorize", "/mal/oauth/authorize"):
            site = url.path.split("/")[1]
            if site == "mal" and query.get("code_challenge_method") != "plain":
                return 400, {}, {"error": "invalid_request"}
            code = secrets.token_hex(8)
            self.codes[code] = (site, query["redirect_uri"], query.get("code_challenge"))
            back = f"{query['redirect_uri']}?{urlencode({'code': code, 'state': query['state']})}"
            return 302, {"Location": back}, b""
        if url.path == "/anilist/oauth/token":
            # {grant_type, client_id, client_secret, redirect_uri, code} -> {token_type, expires_in, access_token}
            request = orjson.loads(body)
            found = self.codes.pop(request.get("code"), None)
            if (not found or found[0] != "anilist" or found[1] != request.get("redirect_uri")
                    or request.get("client_secret") != "anilist-secret"):
                return 400, {}, {"error": "invalid_grant", "message": "Invalid authorization code"}
            return 200, {}, self._token("anilist")
        if url.path == "/mal/oauth/token":
            form = {k: v[0] for k, v in parse_qs(body.decode()).items()}
            if form.get("grant_type") == "refresh_token":
                if self.refresh_tokens.pop(form.get("refresh_token"), None) != "mal":
                    return 400, {}, {"error": "invalid_grant", "message": "The refresh token is invalid."}
                return 200, {}, self._token("mal", refresh=True)
            found = self.codes.pop(form.get("code"), None)
            if (not found or found[0] != "mal" or form.get("client_id") != "mal-client"
                    or form.get("code_verifier") != found[2]):  # plain: the verifier is the challenge
                return 400, {}, {"error": "invalid_grant", "message": "Failed to verify code_verifier"}
            return 200, {}, self._token("mal", refresh=True)
        if url.path == "/anilist/graphql":
            if not self._authorized(headers, "anilist"):
                return 401, {}, {"data": None, "errors": [{"message": "Invalid token", "status": 401}]}
            request = orjson.loads(body)
            query_text, variables = request["query"], request.get("variables") or {}
            if "Viewer" in query_text:
                return 200, {}, {"data": {"Viewer": VIEWER}}
            if "SaveMediaListEntry" in query_text:
                self.updates.append(("anilist", str(variables["mediaId"]), variables))
                return 200, {}, {"data": {"SaveMediaListEntry": {
                    "id": 1, "mediaId": variables["mediaId"], "status": variables.get("status"),
                    "progress": variables.get("progress"), "progressVolumes": variables.get("progressVolumes")}}}
            if "MediaListCollection" in query_text:
                entries = [{"mediaId": int(i), "status": s, "progress": p, "progressVolumes": None}
                           for i, p, s in self.lists["anilist"]]
                return 200, {}, {"data": {"MediaListCollection": {"lists": [{"entries": entries}]}}}
            return 400, {}, {"data": None, "errors": [{"message": "unknown query", "status": 400}]}
        if url.path.startswith("/mal/api/"):
            if not self._authorized(headers, "mal"):
                return 401, {}, {"error": "invalid_token"}
            rest = url.path.removeprefix("/mal/api")
            if rest == "/users/@me":
                return 200, {}, MAL_USER
            if rest.startswith("/manga/") and rest.endswith("/my_list_status") and method == "PATCH":
                form = {k: v[0] for k, v in parse_qs(body.decode()).items()}
                self.updates.append(("myanimelist", rest.split("/")[2], form))
                return 200, {}, {"status": form.get("status"), "is_rereading": False, "score": 0,
                                 "num_chapters_read": int(form.get("num_chapters_read", 0)),
                                 "num_volumes_read": int(form.get("num_volumes_read", 0)),
                                 "updated_at": "2026-12-04T00:00:00+00:00"}
            if rest == "/users/@me/mangalist":
                return 200, {}, {"data": [{"node": {"id": int(i), "title": f"Manga {i}"},
                                           "list_status": {"status": s, "num_chapters_read": p, "num_volumes_read": 0}}
                                          for i, p, s in self.lists["myanimelist"]], "paging": {}}
        if url.path == "/mu/v1/account/login" and method == "PUT":
            request = orjson.loads(body)
            if (request.get("username"), request.get("password")) != (MU_USER["username"], MU_USER["password"]):
                return 401, {}, {"status": "exception", "reason": "Invalid username or password.", "context": {}}
            token = f"mu-session-{secrets.token_hex(8)}"
            self.tokens[token] = "mu"
            return 200, {}, {"status": "success", "reason": "Successfully logged in.",
                             "context": {"session_token": token, "uid": MU_USER["uid"]}}
        if url.path.startswith("/mu/v1/lists/"):
            if not self._authorized(headers, "mu"):
                return 401, {}, {"status": "exception", "reason": "You must be logged in", "context": {}}
            items = orjson.loads(body)
            if url.path == "/mu/v1/lists/series/update":
                if any(i["series"]["id"] not in self.mu_series for i in items):
                    return 400, {}, {"status": "exception", "reason": "Series not on a list", "context": {}}
                self.updates.extend(("mangaupdates", str(i["series"]["id"]), i) for i in items)
                return 200, {}, {"status": "success", "reason": "Series updated", "context": {}}
            if url.path == "/mu/v1/lists/series":
                self.mu_series.update(i["series"]["id"] for i in items)
                self.updates.extend(("mangaupdates", str(i["series"]["id"]), i) for i in items)
                return 200, {}, {"status": "success", "reason": "Series added", "context": {}}
            if url.path.endswith("/search"):
                list_id = int(url.path.split("/")[4])
                results = [{"record": {"series": {"id": int(i), "title": f"Series {i}"}, "list_id": list_id,
                                       "status": {"volume": 0, "chapter": p}}, "metadata": {}}
                           for i, p, s in self.lists["mangaupdates"] if (s == "completed") == (list_id == 2)]
                return 200, {}, {"total_hits": len(results), "page": 1, "per_page": 100, "results": results}
        return 404, {}, {"error": "not found"}

    def _handler(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                """Quiet: the tests read what was asked from the fake's log."""

            def _serve(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                fake.log.append((self.command, self.path, dict(self.headers), body))
                if fake.hold is not None:
                    fake.hold.wait(30)
                count, seconds = fake.too_many
                if count > 0:
                    fake.too_many = (count - 1, seconds)
                    status, extra = 429, {"Retry-After": str(seconds)}
                    data = {"errors": [{"message": "Too Many Requests.", "status": 429}]}
                elif fake.failing > 0:
                    fake.failing -= 1
                    status, extra, data = 500, {}, {"errors": [{"message": "Internal Server Error", "status": 500}]}
                else:
                    status, extra, data = fake.answer(self.command, self.path, self.headers, body)
                raw = data if isinstance(data, bytes) else orjson.dumps(data)
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(raw)))
                    for name, value in extra.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(raw)
                except OSError:
                    pass  # the client gave up on a held request

            do_GET = do_POST = do_PUT = do_PATCH = _serve

        return Handler
