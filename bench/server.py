"""A real `manage.py serve` process on loopback, and a small cookie-keeping JSON client.

A harness for the benchmark and for the tests that need a real process (tests/conftest.py);
it imports nothing from tests/."""
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from http.cookies import SimpleCookie
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, data, library=None, env=None, threads=8, collectstatic=False):
        self.data = Path(data)
        self.library = library
        self.port = free_port()
        self.env = {
            **os.environ, "DATA": str(data), "SCRYPT_LOG_N": "10", "SECRET_KEY": "test-secret",
            "SCAN_INTERVAL": "0", "SCAN_SETTLE": "0", "LOG_LEVEL": "WARNING", **(env or {}),
        }
        if library is not None:
            self.env["LIBRARY"] = str(library)
        self.threads = threads
        self.collectstatic = collectstatic  # as a deployment runs it: hashed names, cached for good
        self.proc = None
        self.log = self.data.parent / f"serve-{self.port}.log"

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self, wait=True):
        self.data.mkdir(parents=True, exist_ok=True)
        self._log_at = self.log.stat().st_size if self.log.exists() else 0
        self.proc = subprocess.Popen(
            [sys.executable, "manage.py", "serve", "--bind", f"127.0.0.1:{self.port}",
             "--threads", str(self.threads), *([] if self.collectstatic else ["--no-collectstatic"])],
            cwd=ROOT, env=self.env, stdout=open(self.log, "ab"), stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        if wait:
            self.wait_ready()
        return self

    def wait_ready(self, timeout=20, moves=3):
        """Until /api/auth answers. A port free when it was picked can be taken by another process
        (the suite's workers start servers side by side) before serve binds it: serve then gives up,
        and starts again on another free port, `moves` times at most."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                with open(self.log, "rb") as log:
                    log.seek(self._log_at)
                    taken = b"Address already in use" in log.read()
                if taken and moves > 0:
                    self.port, moves = free_port(), moves - 1
                    self.start(wait=False)
                    continue
                raise RuntimeError(f"serve exited with {self.proc.returncode}:\n{self.log.read_text()}")
            try:
                if self.client().get("/api/auth")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.025)
        raise RuntimeError(f"serve did not become ready:\n{self.log.read_text()}")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()

    def kill9(self):
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def client(self):
        return Client("127.0.0.1", self.port)


class Client:
    """Keeps the sid cookie like a browser would; POSTs JSON."""

    def __init__(self, host, port):
        self.host, self.port = host, port
        self.cookies = {}

    def request(self, method, path, body=None, headers=None, raw=None):
        """-> (status, headers, the parsed JSON body, or the bytes when it is not JSON)."""
        hdrs = dict(headers or {})
        if self.cookies:
            hdrs.setdefault("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        payload = raw
        if body is not None:
            payload = json.dumps(body).encode()
            hdrs.setdefault("Content-Type", "application/json")
        status, resp_headers, data = self.send(method, path, payload, hdrs)
        self.keep_cookies(resp_headers)
        try:
            parsed = json.loads(data) if data else None
        except ValueError:
            parsed = data
        return status, resp_headers, parsed

    def send(self, method, path, payload=None, headers=None):
        """One request exactly as given (no cookies added, nothing parsed): (status, headers, bytes)."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        conn.request(method, path, body=payload, headers=headers or {})
        resp = conn.getresponse()
        data = resp.read()
        conn.close()
        return resp.status, resp.headers, data

    def keep_cookies(self, headers):
        for header in headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                if morsel["max-age"] == "0" or not morsel.value:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, body=None, **kw):
        return self.request("POST", path, body=body if body is not None else {}, **kw)

    def signup(self, name, password="correct horse"):
        status, _, data = self.post("/api/signup", {"name": name, "password": password})
        assert status == 200, data
        return self

    def login(self, name, password="correct horse"):
        status, _, data = self.post("/api/login", {"name": name, "password": password})
        assert status == 200, data
        return self
