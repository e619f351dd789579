"""The peer source in an in-process daemon against a small real HTTP server playing a peer: pages are
checked against the announced size and hash, names are kept, loopback needs PEER_ALLOW, pages go over
one kept connection and are fsynced once per chapter, and a resume refetches a staged page that is
no longer what was announced."""
import hashlib
import io
import ipaddress
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest
from PIL import Image

from scraper import names, queue
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
        self.pages = []  # (file, client port) of each page request, in order
        self.events = []  # ("page", file) of each page request; a test may add its own
        self.close_after_answer = False  # close each connection without saying so, as an idle timeout does
        peer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                parts = urlsplit(self.path)
                peer.requests.append(parts.path)
                self.close_connection = peer.close_after_answer
                if self.headers.get("Authorization") != f"Bearer {SECRET}":
                    return self.answer(401, b'{"error": "missing or wrong peer secret"}')
                if parts.path == "/api/peer/catalog":
                    return self.answer(200, json.dumps(peer.catalog()).encode())
                name = parse_qs(parts.query)["f"][0]
                peer.pages.append((name, self.client_address[1]))
                peer.events.append(("page", name))
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


def many_pages(fake_peer, count):
    fake_peer.announced = {f"{n:03d}.png": png((n, 100, 200)) for n in range(1, count + 1)}
    fake_peer.served = dict(fake_peer.announced)


def test_the_pages_of_a_chapter_come_over_one_connection(peer_daemon, fake_peer, library):
    many_pages(fake_peer, 30)
    queue.add_job(peer_daemon.queue, "add", "peer", "far/Far Away")
    drain(peer_daemon)
    assert [n for n, _port in fake_peer.pages] == list(fake_peer.announced)
    assert len({port for _n, port in fake_peer.pages}) == 1


def test_a_connection_the_peer_closed_meanwhile_is_replaced_without_an_error(peer_daemon, fake_peer, library):
    many_pages(fake_peer, 5)
    fake_peer.close_after_answer = True
    queue.add_job(peer_daemon.queue, "add", "peer", "far/Far Away")
    drain(peer_daemon)
    assert [j["state"] for j in queue.list_jobs(peer_daemon.queue)] == ["done", "done"]
    assert [n for n, _port in fake_peer.pages] == list(fake_peer.announced)  # each page asked for once
    assert len({port for _n, port in fake_peer.pages}) == 5
    folder = library / "Far Away" / "b01" / "c0001 One [Team]"
    assert {p.name: p.read_bytes() for p in folder.glob("*.png")} == fake_peer.announced


def test_staged_pages_are_fsynced_once_per_chapter_after_the_last_page(peer_daemon, fake_peer, library, monkeypatch):
    """No fsync in staging while pages arrive; then every page and the folder, before the rename."""
    many_pages(fake_peer, 30)
    events, real_fsync, real_checkpoint = fake_peer.events, os.fsync, queue.checkpoint
    checkpoints = []

    def fsync(fd):
        events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        return real_fsync(fd)

    def checkpoint(q, job, chapter, page, staging, durable=True):
        checkpoints.append((page, durable))
        return real_checkpoint(q, job, chapter, page, staging, durable)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(queue, "checkpoint", checkpoint)
    queue.add_job(peer_daemon.queue, "add", "peer", "far/Far Away")
    drain(peer_daemon)
    job = next(j for j in queue.list_jobs(peer_daemon.queue) if j["kind"] == "chapters")
    staging = str(library / ".staging" / names.staging_name(job["id"], "far/Far Away/b01/c0001 One [Team]"))
    events = [(kind, os.path.relpath(x, staging) if kind == "fsync" else x) for kind, x in events
              if kind == "page" or x == staging or x.startswith(staging + "/")]
    last_page = max(i for i, (kind, _name) in enumerate(events) if kind == "page")
    assert not [e for e in events[:last_page] if e[0] == "fsync"]
    synced = [name for kind, name in events[last_page:] if kind == "fsync"]
    assert set(synced) == {*fake_peer.announced, ".chapter.json.tmp", "."}
    assert checkpoints == [(25, False), (30, True)]  # every 25 pages, and the durable one before the rename
    folder = library / "Far Away" / "b01" / "c0001 One [Team]"
    assert {p.name: p.read_bytes() for p in folder.glob("*.png")} == fake_peer.announced


def test_a_resume_keeps_staged_pages_that_match_and_refetches_a_short_one(peer_daemon, fake_peer, library):
    """Pages are staged without their own fsync, so after a power cut one may be short or empty:
    a resume keeps only those whose bytes are still the announced ones."""
    many_pages(fake_peer, 6)
    queue.add_job(peer_daemon.queue, "add", "peer", "far/Far Away")
    assert peer_daemon.process_one_job()  # the add job: it queues the chapters job
    job = next(j for j in queue.list_jobs(peer_daemon.queue) if j["kind"] == "chapters")
    staging = library / ".staging" / names.staging_name(job["id"], "far/Far Away/b01/c0001 One [Team]")
    staging.mkdir(parents=True)
    pages = fake_peer.announced
    (staging / "001.png").write_bytes(pages["001.png"])
    (staging / "002.png").write_bytes(pages["002.png"])
    (staging / "003.png").write_bytes(pages["003.png"][:40])  # cut short
    (staging / "004.png").write_bytes(b"")  # its blocks never written
    (staging / ".005.png.tmp").write_bytes(pages["005.png"][:10])  # killed while writing
    drain(peer_daemon)
    assert [j["state"] for j in queue.list_jobs(peer_daemon.queue)] == ["done", "done"]
    assert [n for n, _port in fake_peer.pages] == ["003.png", "004.png", "005.png", "006.png"]
    folder = library / "Far Away" / "b01" / "c0001 One [Team]"
    assert {p.name: p.read_bytes() for p in folder.glob("*.png")} == pages
    assert not list(folder.glob(".*"))
