"""Durability of db.json through real `serve` processes (battery D1, D1b, D2, D3, D4).

D1 and D1b put DATA on a small loop-mounted ext4 image, D4 on a tmpfs: root only, skipped with
the reason elsewhere. The single-writer refusals (D8) are tests/reader/test_serve.py's.
"""
import itertools
import os
import random
import signal
import threading
import time

import pytest

from bench.durability import flush_rate
from bench.server import Server
from mangacircus import db
from mangacircus.jsonfile import StateFileError
from tests.conftest import PASSWORD
from tests.reader.test_serve import _serve
from tests.reliability.support import (
    SCROLL,
    SEEDS,
    CannotMount,
    burst,
    chapter_version,
    fill,
    loss_window,
    mounted,
    ms,
    post_progress,
    read_db,
    saved_progress,
    sha256,
    sized,
)
from tests.support.app import AppServer

pytestmark = [pytest.mark.reliability, pytest.mark.process]

QUIET = {"ACCESS_LOG": "0"}
WINDOW = 0.6  # seconds: the flush delay (0.5 s) and a flush's own time


def start(data, library, env=None):
    """A started Server and how long it took to answer."""
    began = time.monotonic()
    srv = Server(data, library, env={**QUIET, **(env or {})}).start()
    return srv, time.monotonic() - began


def wait_for_chapter(client, chapter, timeout=20):
    """(version name, pages) once the index holds the chapter (the first scan may still run)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return chapter_version(client, chapter)
        except AssertionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


@pytest.mark.timing  # what a kill loses is measured against the flush window
def test_d1_a_kill_9_during_a_burst_loses_at_most_the_flush_window(figures, mount, library_dir, tmp_path):
    case = ("D1", "kill -9 in a progress burst, DATA on ext4")
    data = mount(*case, "ext4", tmp_path / "data", "64M")
    cycles, budget = sized(14, 200), sized(18, 1200)
    rng = random.Random(1)
    windows, ready, corrupt, exercised = [], [], [], 0
    began = time.monotonic()
    while len(windows) < cycles and time.monotonic() - began < budget:
        srv, took = start(data, library_dir)
        ready.append(took)
        stop, acks, thread = threading.Event(), [], None
        try:
            client = srv.client()
            client.signup("admin") if not windows else client.login("admin")
            version = wait_for_chapter(client, SEEDS)
            thread = threading.Thread(target=burst, args=(client, SEEDS, version, stop, acks))
            thread.start()
            time.sleep(rng.uniform(0.2, sized(2.0, 3.0)))
            killed_at = time.monotonic()
            srv.kill9()
        finally:
            stop.set()
            srv.stop()
            if thread:
                thread.join()
        try:
            db.check(data / "db.json")
            entry = saved_progress(data, "admin", SEEDS)
        except (StateFileError, ValueError) as e:
            corrupt.append(str(e))
            continue
        windows.append(loss_window(acks, entry["t"] if entry else 0, killed_at))
        exercised += any(a.at <= killed_at - WINDOW for a in acks)
    worst = max(windows, default=0)
    figures.check(
        *case, f"{len(windows) + len(corrupt)} cycles in {time.monotonic() - began:.0f} s",
        f"0 corrupt or invalid db.json; max loss window ≤ {WINDOW} s; restart ready ≤ 5 s",
        f"{len(corrupt)} corrupt; max loss window {ms(worst)} (mean {ms(sum(windows) / max(1, len(windows)))}); "
        f"{exercised} cycles had acks older than the window; restart ready max {max(ready):.2f} s",
        not corrupt and worst <= WINDOW and max(ready) <= 5 and exercised > 0,
    )


@pytest.mark.timing  # flushes a second
def test_d1b_a_continuous_burst_is_still_flushed_about_twice_a_second(figures, mount, library_dir, tmp_path):
    case = ("D1b", "flushes during a continuous burst, DATA on ext4")
    data = mount(*case, "ext4", tmp_path / "data", "64M")
    seconds = sized(5, 10)
    writes, flushes = flush_rate(data, library_dir, seconds)
    figures.check(*case, f"{seconds} s", "1.5 to 2.2 db.json writes per second",
                  f"{flushes:.2f} writes/s under {writes:.0f} acknowledged changes/s", 1.5 <= flushes <= 2.2)


def test_d2_security_writes_are_on_disk_before_their_answer(figures, library_dir, tmp_path):
    """Each cycle: a password change, a sign-out and an admin revocation in one of their six orders
    (the CI profile takes each once, the full one goes round them), kill -9 right after the last
    200, restart: none of the three comes back."""
    case = ("D2", "security writes, then kill -9 at once")
    data, cycles = tmp_path / "data", sized(6, 50)
    orders = list(itertools.permutations(["password", "revoke", "sign-out"]))
    srv, _ = start(data, library_dir)
    passwords = iter(f"password number {i}" for i in range(10_000))
    current = next(passwords)
    try:
        admin = srv.client().signup("admin")
        for name, password in (("editor", PASSWORD), ("walker", current)):
            assert admin.post("/api/admin/user", {"name": name, "password": password})[0] == 200
        revived, gaps = [], []
        for cycle in range(cycles):
            admin = srv.client().login("admin")
            assert admin.post("/api/admin/user/role", {"name": "editor", "admin": True})[0] == 200
            editor, leaving = srv.client().login("editor"), srv.client().login("admin")
            walker, walker_elsewhere = srv.client().login("walker", current), srv.client().login("walker", current)
            old, new, token = current, next(passwords), leaving.cookies["sid"]
            writes = {
                "password": (walker, "/api/password", {"old": old, "new": new}),
                "sign-out": (leaving, "/api/logout", {}),
                "revoke": (admin, "/api/admin/user/role", {"name": "editor", "admin": False}),
            }
            for kind in orders[cycle % len(orders)]:
                client, path, body = writes[kind]
                status = client.post(path, body)[0]
                assert status == 200, (kind, status)
            answered = time.monotonic()
            os.killpg(srv.proc.pid, signal.SIGKILL)
            gaps.append(time.monotonic() - answered)
            srv.proc.wait()
            current = new
            srv, _ = start(data, library_dir)
            checks = {
                "old password": srv.client().post("/api/login", {"name": "walker", "password": old})[0] != 401,
                "signed-out session": with_token(srv, token).get("/api/me")[0] != 401,
                "revoked admin": with_token(srv, editor.cookies["sid"]).get("/api/admin")[0] != 403,
                "other session of the new password": with_token(srv, walker_elsewhere.cookies["sid"])
                .get("/api/me")[0] != 401,
            }
            revived += [f"cycle {cycle}: {what}" for what, back in checks.items() if back]
    finally:
        srv.stop()
    figures.check(*case, f"{cycles} cycles × 3 writes", "0 revived (old password, session, admin right)",
                  f"{len(revived)} revived; SIGKILL sent within {ms(max(gaps))} of the last 200", not revived)


def with_token(srv, token):
    client = srv.client()
    client.cookies["sid"] = token
    return client


def good_db(tmp_path, library_dir):
    """The bytes of a db.json that a server wrote: two users, sessions, progress, a follow."""
    srv = AppServer(tmp_path / "seed", library_dir).start()
    try:
        admin = srv.client().signup("admin")
        assert admin.post("/api/admin/user", {"name": "reader", "password": PASSWORD})[0] == 200
        version = wait_for_chapter(admin, SEEDS)
        assert post_progress(admin, SEEDS, version, 1)[0] == 200
        assert admin.post("/api/follow", {"m": SEEDS[0], "on": True})[0] == 200
    finally:
        srv.stop()
    return (tmp_path / "seed" / "db.json").read_bytes()


def corrupt_variants(good, offsets):
    """(name, bytes) of db.json files that must not be loaded."""
    for n in offsets:
        yield f"truncated at byte {n}", good[:n]
    yield "empty", b""
    yield "4 KiB of zero bytes", b"\0" * 4096
    yield "zero bytes after the document", good + b"\0" * 16
    yield "invalid UTF-8 in a name", good.replace(b'"reader"', b'"rea\xffder"', 1)
    yield "UTF-16", good.decode().encode("utf-16")
    yield "a list", b"[]"
    yield "null", b"null"
    yield "a section that is a list", b'{"users": [], "sessions": {}}'
    yield "a user without a password hash", b'{"users": {"admin": {"name": "admin", "admin": true}}}'


SPARSE = "a 300 MB sparse file"


def write_variant(folder, name, raw):
    folder.mkdir()
    path = folder / "db.json"
    path.write_bytes(raw)
    if name == SPARSE:
        os.truncate(path, 300 * 1024 * 1024)
    return path


def test_d3_a_corrupt_db_json_is_refused_and_left_byte_identical(figures, tmp_path, library_dir):
    case = ("D3", "corrupt db.json refused, left as it was")
    good = good_db(tmp_path, library_dir)
    rng = random.Random(3)
    offsets = sorted({1, len(good) - 1, *rng.sample(range(2, len(good) - 1), sized(50, 200))})
    variants = [*corrupt_variants(good, offsets), (SPARSE, good)]
    # Every variant through the start-up check in this process; some (all with REL_PROFILE=full)
    # through a real `serve`, which must exit non-zero within 5 s.
    through_serve = {name for name, _ in variants if not name.startswith("truncated")}
    through_serve.add(f"truncated at byte {offsets[len(offsets) // 2]}")
    wrong, slowest, served = [], 0.0, 0
    for i, (name, raw) in enumerate(variants):
        path = write_variant(tmp_path / f"v{i}", name, raw)
        before, listing = sha256(path), sorted(os.listdir(path.parent))
        began = time.monotonic()
        try:
            db.check(path)
            wrong.append(f"{name}: loaded")
        except StateFileError:
            pass
        if name in through_serve or sized(False, True):
            began = time.monotonic()
            try:
                result = _serve(path.parent)
                if result.returncode == 0:
                    wrong.append(f"{name}: serve exited 0")
            except Exception as e:  # noqa: BLE001 - a server that starts runs into the timeout
                wrong.append(f"{name}: serve did not refuse ({type(e).__name__})")
            served += 1
        slowest = max(slowest, time.monotonic() - began)
        if sha256(path) != before:
            wrong.append(f"{name}: the file changed")
        created = set(os.listdir(path.parent)) - set(listing) - {".lock"}
        if created:
            wrong.append(f"{name}: made {sorted(created)}")
    # A leftover db.json.tmp (a crash mid-write) beside a good db.json: ignored, never adopted.
    data = tmp_path / "leftover"
    data.mkdir()
    (data / "db.json").write_bytes(good)
    planted = b'"users":{"fromtmp":{"name":"fromtmp","hash":"x"},'
    (data / "db.json.tmp").write_bytes(good.replace(b'"users":{', planted, 1))
    srv, _ = start(data, library_dir)
    try:
        names = [u["name"] for u in srv.client().login("admin").get("/api/admin")[2]["users"]]
    finally:
        srv.stop()
    if names != ["admin", "reader"]:
        wrong.append(f"leftover db.json.tmp: users {names}")
    if "fromtmp" in read_db(data)["users"]:
        wrong.append("leftover db.json.tmp adopted")
    figures.check(*case, f"{len(variants)} variants ({served} through serve) + a leftover tmp",
                  "each refused within 5 s, byte-identical, nothing made but .lock; a leftover tmp ignored",
                  f"{len(wrong)} wrong; slowest refusal {slowest:.2f} s" + (f": {wrong[:3]}" if wrong else ""),
                  not wrong and slowest <= 5)


def settle(srv):
    """Wait until the server has written what its start made (index, thumbnails, db.json)."""
    client = srv.client().signup("admin")
    versions = {chapter: wait_for_chapter(client, chapter) for chapter in (SEEDS, SCROLL)}
    for chapter in (SEEDS, SCROLL):
        assert client.get(f"/thumb/{chapter[0].replace(' ', '%20')}")[0] == 200
    time.sleep(1.2)
    return client, versions


def write_until_refused(client, chapter, version, limit=5.0):
    """POST progress until a 503 (or `limit` s): (the last acknowledgement's t, seconds to the
    first 503 or None)."""
    began, last, page = time.monotonic(), None, 0
    while time.monotonic() - began < limit:
        page += 1
        status, t = post_progress(client, chapter, version, page)
        if status == 503:
            return last, time.monotonic() - began
        assert status == 200, status
        last = t
        time.sleep(0.02)
    return last, None


def write_until_accepted(client, chapter, version, limit=10.0):
    """POST progress until a 200: (its t, seconds it took) or (None, None)."""
    began = time.monotonic()
    while time.monotonic() - began < limit:
        status, t = post_progress(client, chapter, version, 1)
        if status == 200:
            return t, time.monotonic() - began
        assert status == 503, status
        time.sleep(0.02)
    return None, None


def reads_work(client, chapter):
    paths = ["/api/me", f"/api/chapter?m={chapter[0].replace(' ', '%20')}&c={chapter[1]}", "/api/library"]
    return all(client.get(p)[0] == 200 for p in paths)


def outage(figures, case, data, library_dir, fault):
    """Start on `data`, let `fault()` (a context manager) break writes: writes get 503 at once,
    reads work, db.json stays as it was; after it, writes work again; a kill -9 and a restart keep
    every acknowledged change, the ones answered just before the fault included."""
    srv, _ = start(data, library_dir)
    problems = []
    try:
        client, versions = settle(srv)
        before = sha256(data / "db.json")
        with fault():
            kept, refused_after = write_until_refused(client, SEEDS, versions[SEEDS])
            if refused_after is None:
                problems.append("never refused")
            if not reads_work(client, SEEDS):
                problems.append("a read failed")
            time.sleep(sized(1.0, 5.0))
            if post_progress(client, SEEDS, versions[SEEDS], 0)[0] != 503:
                problems.append("a write was accepted during the fault")
            if sha256(data / "db.json") != before:
                problems.append("db.json changed during the fault")
            leftovers = [n for n in os.listdir(data) if n.endswith(".tmp")]
            if len(leftovers) > 1:
                problems.append(f"leftovers {leftovers}")
        last, recovered_after = write_until_accepted(client, SCROLL, versions[SCROLL])
        if last is None:
            problems.append("writes did not recover")
        time.sleep(WINDOW + 0.4)
        srv.kill9()
        srv, _ = start(data, library_dir)
        for chapter, t in ((SEEDS, kept), (SCROLL, last)):
            entry = saved_progress(data, "admin", chapter)
            if t is not None and (entry is None or entry["t"] < t):
                problems.append(f"{chapter} lost: saved {entry}, acknowledged t={t}")
    finally:
        srv.stop()
    figures.check(*case, "1 outage", "503 within 1.5 s, reads 200, db.json unchanged, recovery, 0 acknowledged lost",
                  f"first 503 after {ms(refused_after or 0)} ({'after' if kept else 'without'} a change "
                  f"acknowledged in the meantime); recovered {ms(recovered_after or 0)} after the fault ended; "
                  f"{'; '.join(problems) or 'nothing lost'}",
                  not problems and refused_after is not None and refused_after <= 1.5)


def test_d4_a_full_disk_refuses_writes_and_loses_nothing(figures, mount, library_dir, tmp_path):
    case = ("D4", "full disk (tmpfs), then space again")
    data = mount(*case, "tmpfs", tmp_path / "data", "8m")

    class Full:
        def __enter__(self):
            self.filler = fill(data)

        def __exit__(self, *exc):
            self.filler.unlink()

    outage(figures, case, data, library_dir, Full)


def test_d4_read_only_data_refuses_writes_and_loses_nothing(figures, mount, library_dir, tmp_path):
    case = ("D4-ro", "DATA read-only (bind), then writable again")
    data = mount(*case, "tmpfs", tmp_path / "data", "8m")
    try:
        with mounted("ro-bind", data):
            pass
    except CannotMount as e:
        figures.skip(*case, str(e))
    outage(figures, case, data, library_dir, lambda: mounted("ro-bind", data))
