"""`manage.py serve` as a real process: single writer, corrupt state refusal, crash durability."""
import http.client
import os
import random
import subprocess
import sys
import threading
import time

import orjson
import pytest

from bench.server import ROOT, Server

pytestmark = pytest.mark.process


@pytest.fixture
def server(real_server):
    return real_server


def _serve(data, *extra, timeout=10):
    env = {**os.environ, "DATA": str(data), "SECRET_KEY": "x", "SCAN_INTERVAL": "0"}
    return subprocess.run(
        [sys.executable, "manage.py", "serve", "--bind", "127.0.0.1:0", "--no-collectstatic", *extra],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout,
    )


def test_it_refuses_a_second_reader_on_the_same_data(server):
    result = _serve(server.data)  # exits on its own: a second server would serve until the timeout
    assert result.returncode != 0
    assert f"pid {server.proc.pid}" in result.stderr
    assert server.client().get("/api/auth")[0] == 200


def test_it_refuses_more_than_one_worker(data_dir):
    result = _serve(data_dir, "--workers", "2")
    assert result.returncode != 0
    assert "--workers must be 1" in result.stderr


def test_it_refuses_to_start_on_a_corrupt_db_and_leaves_it_alone(data_dir):
    db = data_dir / "db.json"
    db.write_bytes(b'{"users": {"admin": {"name": "admin", "hash": "x"')
    before = db.read_bytes()
    result = _serve(data_dir)
    assert result.returncode != 0
    assert "db.json is not valid JSON" in result.stderr
    assert db.read_bytes() == before


def test_it_keeps_every_change_older_than_the_flush_window_after_kill_9(data_dir, library_dir):
    """A burst of settings changes, then kill -9 at a random moment: the file always parses and
    holds every change acknowledged more than 0.6 s before the kill."""
    def burst(client, cycle, stop, acks):
        i = 0
        while not stop.is_set():
            i += 1
            zoom = round(0.2 + (cycle * 2000 + i) * 0.0005, 4)
            try:
                status, _, _ = client.post("/api/settings", {"zoom": {"page": zoom}})
            except (OSError, http.client.HTTPException):
                return
            if status == 200:
                acks.append((time.monotonic(), zoom))

    rng = random.Random(7)
    for cycle in range(3):
        srv = Server(data_dir, library_dir).start()
        client = srv.client()
        if cycle == 0:
            client.signup("admin")
        else:
            client.login("admin")
        acks = []
        stop = threading.Event()
        thread = threading.Thread(target=burst, args=(client, cycle, stop, acks))
        thread.start()
        time.sleep(rng.uniform(1.0, 2.5))
        killed_at = time.monotonic()
        srv.kill9()
        stop.set()
        thread.join()
        data = orjson.loads((data_dir / "db.json").read_bytes())
        saved = data["users"]["admin"]["settings"]["zoom"]["page"]
        old_enough = [zoom for t, zoom in acks if t <= killed_at - 0.6]
        assert old_enough, "the burst acknowledged nothing before the kill"
        assert saved >= old_enough[-1]
        assert saved <= acks[-1][1]


def test_it_answers_503_while_writes_fail_and_recovers(server, admin):
    blocker = server.data / "db.json.tmp"
    blocker.mkdir()  # every write of db.json now fails
    try:
        assert admin.post("/api/settings", {"skipExtras": True})[0] == 200
        deadline = time.monotonic() + 5
        status = 200
        while time.monotonic() < deadline:
            status, headers, data = admin.post("/api/settings", {"skipCovers": True})
            if status == 503:
                break
            time.sleep(0.1)
        assert status == 503
        assert headers["Retry-After"]
        assert admin.get("/api/me")[0] == 200  # reads keep working
    finally:
        blocker.rmdir()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and admin.post("/api/settings", {"skipCovers": True})[0] != 200:
        time.sleep(0.1)
    server.stop()
    saved = orjson.loads((server.data / "db.json").read_bytes())["users"]["admin"]["settings"]
    assert saved["skipExtras"] is True and saved["skipCovers"] is True


def test_it_flushes_on_sigterm(server, admin):
    assert admin.post("/api/settings", {"flowPageGap": False})[0] == 200
    server.stop()
    saved = orjson.loads((server.data / "db.json").read_bytes())
    assert saved["users"]["admin"]["settings"]["flowPageGap"] is False


def _post_chunked(port, cookie, body):
    """POST /api/settings with Transfer-Encoding: chunked (http.client chunks an iterable body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    pieces = [body[i:i + 65536] for i in range(0, len(body), 65536)]
    conn.request("POST", "/api/settings", body=iter(pieces),
                 headers={"Content-Type": "application/json", "Cookie": f"sid={cookie}"})
    response = conn.getresponse()
    answer = response.status, orjson.loads(response.read())
    conn.close()
    return answer


def test_it_reads_chunked_request_bodies_up_to_1_mb(data_dir, library_dir):
    srv = Server(data_dir, library_dir).start()
    try:
        admin = srv.client().signup("admin")
        sid = admin.cookies["sid"]
        assert _post_chunked(srv.port, sid, b'{"skipCovers": true}')[0] == 200
        assert admin.get("/api/me")[2]["settings"]["skipCovers"] is True
        status, data = _post_chunked(srv.port, sid, b'{"a": "' + b"x" * (1024 * 1024) + b'"}')
        assert (status, data["error"]) == (413, "request body is larger than 1 MB")
        assert _post_chunked(srv.port, sid, b'{"skipCovers": false' + b" " * (1024 * 1024 - 40) + b"}")[0] == 200
        assert admin.get("/api/me")[2]["settings"]["skipCovers"] is False
    finally:
        srv.stop()


def test_its_background_threads_run_at_a_lower_priority_and_the_heap_is_frozen(data_dir, library_dir):
    """mangacircus/pauses.py in the real worker: the scanner and thumbnail threads are niced and the
    objects alive after the first scan are out of the collector's sight."""
    server = Server(data_dir, library_dir, env={"LOG_LEVEL": "INFO"}).start()
    try:
        worker = int(open(f"/proc/{server.proc.pid}/task/{server.proc.pid}/children").read().split()[0])
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and "long-lived objects frozen" not in server.log.read_text():
            time.sleep(0.1)
        assert "long-lived objects frozen" in server.log.read_text()
        tasks = os.listdir(f"/proc/{worker}/task")
        nice = {int(tid): os.getpriority(os.PRIO_PROCESS, int(tid)) for tid in tasks}
    finally:
        server.stop()
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    assert nice[worker] == mine  # the main thread, and with it every request thread, keeps its priority
    assert sorted(n - mine for n in nice.values() if n != mine) == [10, 10]  # the scanner and the thumbnails
