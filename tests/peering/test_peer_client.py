""""Test connection" says what is wrong in words, against real local servers that answer wrongly."""
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from bench.server import free_port

PRESENT = "present-secret-for-the-test-0123456789"


class Answers(BaseHTTPRequestHandler):
    routes = {}

    def log_message(self, *args):
        pass

    def do_GET(self):
        status, body = self.routes.get(self.path, (404, b'{"error": "not found"}'))
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def fake(settings):
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Answers)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield httpd
    httpd.shutdown()


@pytest.fixture
def server(data_dir, library_dir):
    from tests.support.app import AppServer

    srv = AppServer(data_dir, library_dir, env={"PEER_ALLOW": "127.0.0.1"}).start()
    yield srv
    srv.stop()


def connection_answer(admin, url):
    """The answer of "test connection" for a peer at `url`."""
    admin.post("/api/admin/peers/p", {"delete": True})
    status, _, data = admin.post("/api/admin/peers", {"name": "p", "url": url, "present": PRESENT})
    assert status == 200, data
    return admin.post("/api/admin/peers/p/test", {})[2]


@pytest.mark.parametrize("path, answer, words", [
    ("/api/peer/catalog", (200, b'{"protocol": 2, "manga": []}'),
     "another version of the peer API (2, this server speaks 1)"),
    ("/api/peer/catalog", (200, b"<html>hello</html>"), "did not answer JSON: is that URL a MangaCircus server?"),
    ("/api/peer/catalog", (401, b'{"error": "missing or wrong peer secret"}'), "the peer refused our secret (401)"),
    ("/api/peer/catalog", (429, b'{"error": "too many attempts"}'), "rate limiting us (429)"),
    ("/nothing", (200, b"{}"), "no peer API at that URL (404)"),
])
def test_it_names_what_the_peer_answered_wrongly(admin, fake, path, answer, words):
    Answers.routes = {path: answer}
    result = connection_answer(admin, f"http://127.0.0.1:{fake.server_address[1]}")
    assert result["ok"] is False and words in result["message"], result


def test_it_names_a_refused_connection_and_a_tls_failure(admin, fake):
    closed = free_port()
    result = connection_answer(admin, f"http://127.0.0.1:{closed}")
    assert result == {"ok": False,
                      "message": "127.0.0.1 refused the connection: is the peer's server running on that port?"}
    result = connection_answer(admin, f"https://127.0.0.1:{fake.server_address[1]}")  # TLS to a plain HTTP server
    assert result["ok"] is False and result["message"].startswith("TLS failed with 127.0.0.1"), result


def test_it_names_a_name_that_does_not_resolve(admin):
    result = connection_answer(admin, "https://peer.invalid")
    assert result["ok"] is False and "cannot be resolved (DNS)" in result["message"]


def test_it_refuses_a_private_address_not_in_peer_allow(admin, settings):
    settings.PEER_ALLOW = []
    result = connection_answer(admin, f"http://127.0.0.1:{free_port()}")
    assert result["ok"] is False and "PEER_ALLOW=127.0.0.1" in result["message"]


def test_the_secret_it_presents_is_the_one_sent(admin, fake):
    seen = []

    class Echo(Answers):
        def do_GET(self):
            seen.append(self.headers.get("Authorization"))
            super().do_GET()

    Answers.routes = {"/api/peer/catalog": (200, b'{"protocol": 1, "manga": []}')}
    fake.RequestHandlerClass = Echo
    assert connection_answer(admin, f"http://127.0.0.1:{fake.server_address[1]}")["ok"] is True
    assert seen == [f"Bearer {PRESENT}"]
