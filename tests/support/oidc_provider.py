"""A small OpenID provider on loopback, for the OpenID Connect tests: discovery, JWKS, authorize
(with a sign-in form for a browser), token (PKCE S256, client_secret_basic), userinfo, end-session.

ID tokens are signed RS256 with an RSA key made at start, through joserfc (Authlib's JOSE library).
The PKCE check here is hashlib's, not the app's helper, so the two sides cannot share a mistake.
`spoil` makes the next ID tokens wrong in one way: "signature", "expired", "nonce", "audience".
"""
import base64
import hashlib
import html
import json
import secrets
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

from joserfc import jwt
from joserfc.jwk import RSAKey

CLIENT_ID, CLIENT_SECRET = "mangacircus", "s3cret-of-the-client"


class Provider:
    def __init__(self, groups_in_userinfo=False):
        self.key = RSAKey.generate_key(2048, parameters={"kid": "k1", "use": "sig"}, private=True)
        self.users = {}  # name -> {password, sub, email, email_verified, groups}
        self.codes = {}
        self.tokens = {}  # access token -> claims
        self.spoil = None
        self.groups_in_userinfo = groups_in_userinfo
        self.ended = []  # the end-session requests' parameters
        self.http = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}"
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.http.shutdown()
        self.http.server_close()

    def add_user(self, name, password="provider pass", email=None, email_verified=True, groups=(), sub=None):
        self.users[name] = {"password": password, "sub": sub or f"sub-{name}", "email": email,
                            "email_verified": email_verified, "groups": list(groups), "name": name}

    def discovery(self):
        return {
            "issuer": self.url, "authorization_endpoint": self.url + "/authorize",
            "token_endpoint": self.url + "/token", "jwks_uri": self.url + "/jwks",
            "userinfo_endpoint": self.url + "/userinfo", "end_session_endpoint": self.url + "/end-session",
            "response_types_supported": ["code"], "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"], "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["client_secret_basic"],
        }

    def authorize(self, params, name):
        """The redirect (a URL) for a sign-in of `name` asked with `params`; ValueError when refused."""
        if params.get("client_id") != CLIENT_ID or params.get("response_type") != "code":
            raise ValueError("unknown client or response type")
        if params.get("code_challenge_method") != "S256" or not params.get("code_challenge"):
            raise ValueError("PKCE S256 is required")
        code = secrets.token_urlsafe(16)
        self.codes[code] = {"params": params, "user": self.users[name], "at": time.time()}
        return params["redirect_uri"] + "?" + urlencode({"code": code, "state": params.get("state", "")})

    def token(self, form, authorization):
        expected = "Basic " + base64.b64encode(f"{CLIENT_ID}:{CLIENT_SECRET}".encode()).decode()
        if authorization != expected:
            return 401, {"error": "invalid_client"}
        grant = self.codes.pop(form.get("code", ""), None)
        if grant is None or form.get("grant_type") != "authorization_code":
            return 400, {"error": "invalid_grant"}
        params = grant["params"]
        challenge = base64.urlsafe_b64encode(hashlib.sha256(form.get("code_verifier", "").encode()).digest())
        if challenge.rstrip(b"=").decode() != params["code_challenge"] or form.get("redirect_uri") != params[
                "redirect_uri"]:
            return 400, {"error": "invalid_grant"}
        user, now = grant["user"], int(time.time())
        claims = {"iss": self.url, "sub": user["sub"], "aud": CLIENT_ID, "iat": now, "exp": now + 300,
                  "nonce": params.get("nonce"), "preferred_username": user["name"]}
        if user["email"]:
            claims.update(email=user["email"], email_verified=user["email_verified"])
        if not self.groups_in_userinfo:
            claims["groups"] = user["groups"]
        if self.spoil == "expired":
            claims.update(iat=now - 3600, exp=now - 1800)
        elif self.spoil == "nonce":
            claims["nonce"] = "another-nonce"
        elif self.spoil == "audience":
            claims["aud"] = "another-client"
        id_token = jwt.encode({"alg": "RS256", "kid": "k1"}, claims, self.key)
        if self.spoil == "signature":
            head, body, signature = id_token.split(".")
            forged = dict(claims, preferred_username="admin", sub="sub-admin")
            body = base64.urlsafe_b64encode(json.dumps(forged).encode()).rstrip(b"=").decode()
            id_token = f"{head}.{body}.{signature}"
        access = secrets.token_urlsafe(24)
        self.tokens[access] = {"sub": user["sub"], "groups": user["groups"], "preferred_username": user["name"]}
        return 200, {"access_token": access, "token_type": "Bearer", "expires_in": 300, "id_token": id_token}


LOGIN_FORM = """<!doctype html><title>Test provider</title><h1>Test provider</h1>
<form method="post"><input type="hidden" name="query" value="{query}">
<label>User <input name="username"></label><label>Password <input name="password" type="password"></label>
<button id="provider-sign-in">Log in</button></form>"""


def _handler(provider):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def _send(self, status, body=b"", content_type="application/json", headers=None):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def _json(self, status, data):
            self._send(status, json.dumps(data).encode())

        def do_GET(self):
            parts = urlsplit(self.path)
            query = {k: v[0] for k, v in parse_qs(parts.query).items()}
            if parts.path == "/.well-known/openid-configuration":
                self._json(200, provider.discovery())
            elif parts.path == "/jwks":
                self._json(200, {"keys": [provider.key.as_dict(private=False)]})
            elif parts.path == "/authorize":
                form = LOGIN_FORM.format(query=html.escape(parts.query))
                self._send(200, form.encode(), "text/html; charset=utf-8")
            elif parts.path == "/userinfo":
                claims = provider.tokens.get(self.headers.get("Authorization", "").removeprefix("Bearer "))
                self._json(200, claims) if claims else self._json(401, {"error": "invalid_token"})
            elif parts.path == "/end-session":
                provider.ended.append(query)
                self._send(200, b"<!doctype html><title>Signed out</title><h1>Signed out at the provider</h1>",
                           "text/html; charset=utf-8")
            else:
                self._json(404, {"error": "not found"})

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
            path = urlsplit(self.path).path
            if path == "/token":
                self._json(*provider.token(form, self.headers.get("Authorization")))
            elif path == "/authorize":
                user = provider.users.get(form.get("username", ""))
                if not user or user["password"] != form.get("password"):
                    self._send(401, b"wrong user or password", "text/plain")
                    return
                params = {k: v[0] for k, v in parse_qs(form.get("query", "")).items()}
                self._send(302, headers={"Location": provider.authorize(params, form["username"])})
            else:
                self._json(404, {"error": "not found"})

    return Handler
