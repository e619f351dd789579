"""Small stand-ins for the apps' HTTP behaviour against a server (bench.server.Client underneath):
how each one authenticates and what it keeps between requests."""
import base64
from http.cookies import SimpleCookie

from bench.server import Client
from tests.conftest import PASSWORD

BASE = "/komga"


def basic(name, password=PASSWORD, encoding="utf-8"):
    return "Basic " + base64.b64encode(f"{name}:{password}".encode(encoding)).decode()


def set_cookies(headers):
    """{name: morsel} of every Set-Cookie header."""
    found = {}
    for header in headers.get_all("Set-Cookie") or []:
        found.update(SimpleCookie(header))
    return found


class App(Client):
    """A client whose requests carry the app's own headers; `seen` keeps (method, path, status)."""

    def __init__(self, server, headers=None):
        host, port = server.url.removeprefix("http://").split(":")
        super().__init__(host, int(port))
        self.headers = dict(headers or {})
        self.seen = []

    def call(self, method, path, body=None, headers=None, raw=None):
        status, hdrs, data = self.request(method, BASE + path, body=body, headers={**self.headers, **(headers or {})},
                                          raw=raw)
        self.seen.append((method, path, status))
        assert not 300 <= status < 400, f"{method} {path} redirected: {hdrs.get('Location')}"
        if status == 200 and isinstance(data, (dict, list)):
            assert hdrs.get("Content-Type") == "application/json", (path, hdrs.get("Content-Type"))
        return status, hdrs, data


class MihonExtension(App):
    """No credentials first; on a 401 the same request again with Basic (ISO-8859-1, OkHttp's), then
    cookies from the shared jar."""

    def __init__(self, server, name, password=PASSWORD):
        super().__init__(server, {"User-Agent": "TachiyomiKomga/1.6", "Accept": "application/json"})
        self.credentials = basic(name, password, "latin-1")

    def call(self, method, path, body=None, headers=None, raw=None):
        status, hdrs, data = super().call(method, path, body, headers, raw)
        if status == 401:
            assert hdrs.get("WWW-Authenticate", "").startswith("Basic"), "a 401 without WWW-Authenticate"
            retry = {**(headers or {}), "Authorization": self.credentials}
            status, hdrs, data = super().call(method, path, body, retry, raw)
        return status, hdrs, data
