"""A server that trickles its answer is cut at the whole exchange's deadline (battery W2): a peer's
catalog ("Test connection") and a webhook's answer, from a real server on loopback that sends its
head at once and then one byte every 0.2 s, far below any per-read timeout."""
import ipaddress
import socket
import threading
import time

import pytest

from peers import client as peer_client
from reader import webhooks

pytestmark = [pytest.mark.reliability, pytest.mark.timing]
DEADLINE = 1.5


class Trickler:
    """HTTP/1.1 200 with a 100,000-byte Content-Length, then a byte every `every` seconds."""

    def __init__(self, every=0.2):
        self.every = every
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        self.sock.settimeout(0.2)
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn):
        with conn:
            conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
            for _ in range(500):  # bounded: 100 s at most, far past any deadline here
                if self.stop.wait(self.every):
                    return
                try:
                    conn.sendall(b" ")
                except OSError:
                    return

    def close(self):
        self.stop.set()
        self.sock.close()


@pytest.fixture
def trickler():
    server = Trickler()
    yield server
    server.close()


def timed(call):
    started = time.monotonic()
    try:
        call()
    except Exception as e:
        return time.monotonic() - started, e
    return time.monotonic() - started, None


def test_w2_a_trickling_peer_or_webhook_target_is_cut_at_the_deadline(figures, trickler, settings, monkeypatch):
    settings.PEER_ALLOW = ["127.0.0.1"]
    settings.WEBHOOK_ALLOW = [ipaddress.ip_network("127.0.0.1/32")]
    monkeypatch.setattr(peer_client, "TIMEOUT", DEADLINE)
    monkeypatch.setattr(webhooks, "TIMEOUT", DEADLINE)
    url = f"http://127.0.0.1:{trickler.port}"
    peer_took, peer_error = timed(lambda: peer_client.fetch_json(url, "secret", "/api/peer/catalog"))
    hook_took, hook_error = timed(lambda: webhooks.post(url + "/hook", b"{}", {"Content-Type": "application/json"}))
    ok = (isinstance(peer_error, peer_client.PeerError) and "within" in str(peer_error)
          and isinstance(hook_error, webhooks.Refused) and "within" in str(hook_error)
          and peer_took < DEADLINE + 1 and hook_took < DEADLINE + 1)
    figures.check("W2", "a trickling peer and webhook target", "2 exchanges, a byte every 0.2 s",
                  f"cut within the deadline ({DEADLINE:g} s here; 30 s for peers, 5 s for webhooks) + 1 s",
                  f"peer catalog cut after {peer_took:.2f} s ({peer_error}); webhook after {hook_took:.2f} s "
                  f"({hook_error})", ok)
