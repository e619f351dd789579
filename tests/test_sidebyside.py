"""`python -m bench.sidebyside`: the library page, or a series page, against another server's page, round
by round.

The other server here is a small local HTTP server that answers its page only with the session
cookie the command is told to send, so the test sees the header arrive and an error counted."""
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parent.parent
COOKIE = "sessionid=abc123"


class _Page(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        ok = self.path in ("/series/1", "/series/1?p=1") and self.headers.get("Cookie") == COOKIE
        body = b'{"issues": [1, 2, 3]}' if ok else b"{}"
        self.send_response(200 if ok else 403)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        """Quiet: wrk's thousands of requests would fill the test's output."""


@pytest.fixture
def other():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


def run(*args):
    return subprocess.run([sys.executable, "-m", "bench.sidebyside", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=240)


def test_it_compares_the_library_page_with_the_other_page(tmp_path, library_dir, other):
    done = run("--library", str(library_dir), "--data", str(tmp_path / "data"), "--other", other + "/series/1?p=1",
               "--other-header", f"Cookie: {COOKIE}", "--seconds", "1", "--rounds", "2", "--clients", "2")
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    out = done.stdout
    assert "MangaCircus at http://127.0.0.1:" in out and ": 2 manga" in out and "2 cover thumbnails made" in out
    for n in (1, 2):
        assert f"round {n}  MangaCircus GET /" in out and f"round {n}  other /series/1 (with its query)" in out
    assert "errors" not in out
    assert "median of 2 rounds: MangaCircus " in out and "× (target ≥ 2×: " in out


def test_it_compares_a_series_page_against_its_own_target(tmp_path, library_dir, other):
    done = run("--library", str(library_dir), "--data", str(tmp_path / "data"), "--other", other + "/series/1",
               "--other-header", f"Cookie: {COOKIE}", "--page", "/manga/Moon%20Garden/", "--target", "5",
               "--seconds", "1", "--rounds", "1", "--clients", "2")
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "round 1  MangaCircus GET /manga/Moon%20Garden/" in done.stdout
    assert "× (target ≥ 5×: " in done.stdout


def test_an_other_page_that_refuses_counts_as_errors_and_fails(tmp_path, library_dir, other):
    done = run("--library", str(library_dir), "--data", str(tmp_path / "data"), "--other", other + "/series/1",
               "--seconds", "1", "--rounds", "1", "--clients", "1")
    assert done.returncode == 1
    assert "errors" in done.stdout


def test_it_refuses_bad_arguments_with_a_message(tmp_path, library_dir):
    bad_header = run("--library", str(library_dir), "--data", str(tmp_path), "--other", "http://127.0.0.1:9/",
                     "--other-header", "no colon")
    assert bad_header.returncode == 2 and "a header is 'Name: value'" in bad_header.stderr
    bad_url = run("--library", str(library_dir), "--data", str(tmp_path), "--other", "127.0.0.1:9/x")
    assert bad_url.returncode == 2 and "--other must be an http:// or https:// URL" in bad_url.stderr
    not_ours = run("--library", str(library_dir), "--data", str(tmp_path / "data"), "--other", "http://127.0.0.1:9/",
                   "--page", "/manga/Nothing%20Here/", "--seconds", "1", "--rounds", "1")
    assert not_ours.returncode == 1 and "our --page /manga/Nothing%20Here/ answered HTTP 404" in not_ours.stderr
    relative = run("--library", str(library_dir), "--data", str(tmp_path), "--other", "http://127.0.0.1:9/",
                   "--page", "manga/x/")
    assert relative.returncode == 2 and "--page must be a path starting with /" in relative.stderr
    no_library = run("--library", str(tmp_path / "none"), "--data", str(tmp_path), "--other", "http://127.0.0.1:9/")
    assert no_library.returncode == 2 and "is not a folder" in no_library.stderr
