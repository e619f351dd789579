"""The peer source in an in-process daemon against a small real HTTP server playing a peer: pages are
checked against the announced size and hash, names are kept, and loopback needs PEER_ALLOW."""
import hashlib
import io
import ipaddress
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest
from PIL import Image

from scraper import queue
from tests.scraper.conftest import drain, make_daemon

SECRET = "present-to-fake-peer-0123456789abc"


def png(color):
    buffer = io.BytesIO()
    Image.new("RGB", (40, 60), color).save(buffer, "PNG")
    return buffer.getvalue()


class FakePeer:
    """Announces one version of two pages; `served` may differ from what is announced."""

    def __init__(self):
        self.announced = {"001 [cover].png": png((200, 0, 0)), "002.png": png((0, 200, 0))}
        self.served = dict(self.announced)
        self.requests = []
        peer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                parts = urlsplit(self.path)
                peer.requests.append(parts.path)
                if self.headers.get("Authorization") != f"Bearer {SECRET}":
                    return self.answer(401, b'{"error": "missing or wrong peer secret"}')
                if parts.path == "/api/peer/catalog":
                    return self.answer(200, json.dumps(peer.catalog()).encode())
                name = parse_qs(parts.query)["f"][0]
                return self.answer(200, peer.served[name], "image/png")

            def answer(self, status, body, kind="application/json"):
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def catalog(self):
        pages = [[n, len(b), hashlib.sha256(b).hexdigest()] for n, b in self.announced.items()]
        version = {"name": "c0001 One [Team]", "path": "b01/c0001 One [Team]", "meta": {"title": "One"},
                   "pageCount": 2, "size": 0, "hash": "h", "pages": pages}
        return {"protocol": 1, "manga": [{"name": "Far Away", "title": "Far Away", "meta": {"authors": ["Q"]},
                                          "books": [{"key": "1", "chapters": [{"key": "1", "versions": [version]}]}]}]}


@pytest.fixture
def library(tmp_path):
    path = tmp_path / "library"
    path.mkdir()
    return path


@pytest.fixture
def fake_peer(settings, tmp_path, library):
    peer = FakePeer()
    data = tmp_path / "data"
    data.mkdir()
    (data / "peers.json").write_text(json.dumps({"peers": {"far": {"url": peer.url, "present": SECRET,
                                                                   "enabled": True}}}))
    settings.DATA, settings.LIBRARY = data, library
    settings.PEER_ALLOW = [ipaddress.ip_network("127.0.0.1/32")]
    yield peer
    peer.httpd.shutdown()


@pytest.fixture
def peer_daemon(tmp_path, library, fake_peer):
    d = make_daemon(tmp_path, library, tmp_path)
    yield d
    d.close()


def test_it_keeps_the_peers_folder_and_page_names(peer_daemon, fake_peer, library):
    queue.add_job(peer_daemon.queue, "add", "peer", "far/Far Away")
    drain(peer_daemon)
    folder = library / "Far Away" / "b01" / "c0001 One [Team]"
    assert sorted(p.name for p in folder.iterdir()) == ["001 [cover].png", "002.png", "chapter.json"]
    assert (folder / "002.png").read_bytes() == fake_peer.announced["002.png"]
    meta = json.loads((folder / "chapter.json").read_text())
    assert (meta["title"], meta["fetchedBy"], meta["fetchedId"]) == ("One", "peer", "far/Far Away/b01/c0001 One [Team]")
    assert json.loads((library / "Far Away" / "manga.json").read_text())["authors"] == ["Q"]


def test_it_rejects_a_page_whose_bytes_do_not_match_the_announced_hash(peer_daemon, fake_peer, library):
    fake_peer.served["002.png"] = png((0, 201, 0))  # same size, other bytes
    assert len(fake_peer.served["002.png"]) == len(fake_peer.announced["002.png"])
    queue.add_job(peer_daemon.queue, "add", "peer", "far/Far Away")
    drain(peer_daemon)
    job = [j for j in queue.list_jobs(peer_daemon.queue) if j["kind"] == "chapters"][0]
    # the chapter fails on its own (docs/scraper.md, "When a chapter fails")
    assert job["state"] == "done" and len(job["failed"]) == 1, job
    assert "page 2" in job["error"] and "SHA-256" in job["error"], job
    assert not (library / "Far Away" / "b01").exists()  # manga.json is written at add time, no chapter
    assert not any(p.name == "002.png" for p in (library / ".staging").rglob("*"))


def test_it_rejects_a_page_of_another_size(peer_daemon, fake_peer, library):
    fake_peer.served["001 [cover].png"] = png((200, 0, 0)) + b"\0"
    queue.add_job(peer_daemon.queue, "add", "peer", "far/Far Away")
    drain(peer_daemon)
    job = [j for j in queue.list_jobs(peer_daemon.queue) if j["kind"] == "chapters"][0]
    assert job["state"] == "done" and len(job["failed"]) == 1 and "bytes arrived where" in job["error"], job
    assert not (library / "Far Away" / "b01").exists()  # manga.json is written at add time, no chapter


def test_a_peer_on_loopback_needs_peer_allow(peer_daemon, fake_peer, settings, library):
    settings.PEER_ALLOW = []
    queue.add_job(peer_daemon.queue, "add", "peer", "far/Far Away")
    drain(peer_daemon)
    job = queue.list_jobs(peer_daemon.queue)[0]
    assert job["state"] == "failed" and "refusing 127.0.0.1" in job["error"], job
    assert fake_peer.requests == []
