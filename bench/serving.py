"""Figures of a real `manage.py serve`: start to browsable, and the latency and throughput of the
reader's routes under closed-loop load from a client pinned to another CPU than the server.

The baseline of every route is GET /api/auth at the same concurrency in the same run: the cost of
gunicorn, Django and the middleware with no work behind them (it answers without the disk).
"""
import json
import os
import time
from urllib.parse import quote

from bench.server import Client, Server

from . import loadgen
from .report import Row, target

SERVER_CPUS = {0}
CLIENT_CPUS = "1"
PASSWORD = "correct horse"


def pinning():
    """(server CPUs, client CPUs) or (None, None) on a machine with one CPU."""
    return (SERVER_CPUS, CLIENT_CPUS) if (os.cpu_count() or 1) >= 2 else (None, None)


def start_server(data, library, env=None, cpus=None, wait=True, collectstatic=False):
    server = Server(data, library, env={"LOG_LEVEL": "WARNING", **(env or {})}, collectstatic=collectstatic)
    server.start(wait=False)
    if cpus:
        # gunicorn forks its worker only after Django is set up, so the worker inherits this.
        os.sched_setaffinity(server.proc.pid, cpus)
    if wait:
        server.wait_ready(timeout=120)
    return server


def make_users(server, count):
    """An admin and count-1 readers, each a signed-in client."""
    admin = server.client().signup("admin", PASSWORD)
    clients = [admin]
    for i in range(1, count):
        status, _, data = admin.post("/api/admin/user", {"name": f"reader{i:02d}", "password": PASSWORD})
        assert status == 200, data
        clients.append(server.client().login(f"reader{i:02d}", PASSWORD))
    return clients


def seed_reading(client, names):
    """Some chapters read and manga followed, so the per-user parts of the library do work."""
    for i, name in enumerate(names):
        # The first chapter: "0/1" in a manga without book folders, "1/1" in one with them.
        if client.post("/api/read", {"m": name, "c": "0/1"})[0] != 200:
            client.post("/api/read", {"m": name, "c": "1/1"})
        if i % 3 == 0:
            client.post("/api/follow", {"m": name, "on": True})


def browser_cookies(server, sids):
    """The Cookie header values of browsers that have shown a page: each session with the CSRF
    cookie the first page set (a library page made for a browser without one is never sent again
    from the page cache, shelf/pagecache.py)."""
    first_visit = Client("127.0.0.1", server.port)
    first_visit.cookies["sid"] = sids[0]
    first_visit.get("/")
    return [f"{sid}; csrftoken={first_visit.cookies['csrftoken']}" for sid in sids]


def wait_for_library(client, count, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, _, data = client.get("/api/library?limit=1")
        if status == 200 and data.get("count") == count:
            return
        time.sleep(0.2)
    raise RuntimeError(f"the library did not reach {count} manga in {timeout} s")


def wait_for_thumbnails(data, count, timeout=None, idle=10):
    """Wait until the reader has made `count` cover thumbnails, or made none for `idle` seconds.

    A reader on a new DATA makes every cover's thumbnail in the background after its first scan;
    that takes minutes of CPU at 2,000 manga, and would otherwise be measured as route latency.
    The wait is at most `timeout` seconds: by default 900, or a fifth of a second a cover when that
    is longer (the xl preset's 10,003 covers).
    """
    timeout = timeout or max(900, count / 5)
    folder, made, last, deadline = data / "thumbs", -1, time.monotonic(), time.monotonic() + timeout
    while time.monotonic() < deadline:
        now = len(list(folder.glob("*.webp"))) if folder.exists() else 0
        if now >= count:
            return now
        if now != made:
            made, last = now, time.monotonic()
        elif time.monotonic() - last > idle:
            return now
        time.sleep(0.5)
    return made


def time_to_browsable(data, library, cookie, cpus, timeout=60):
    """Seconds from spawning `serve` to the first 200 of GET /api/library; the server, still running."""
    started = time.perf_counter()
    server = start_server(data, library, cpus=cpus, wait=False)
    client = Client("127.0.0.1", server.port)
    client.cookies["sid"] = cookie
    while time.perf_counter() - started < timeout:
        if server.proc.poll() is not None:
            raise RuntimeError(f"serve exited: {server.log.read_text()[-2000:]}")
        try:
            if client.get("/api/library?limit=24")[0] == 200:
                return time.perf_counter() - started, server
        except OSError:
            pass
        time.sleep(0.01)
    server.stop()
    raise RuntimeError("serve did not answer /api/library in time")


def start_row(data, library, empty_data, empty_library, cookie, pages, cpus, runs=3):
    """Start to browsable with the snapshot of `library`, against the same start on an empty library;
    the best of `runs` starts of each, taken turn about."""
    best = {"empty": float("inf"), "full": float("inf")}
    for _ in range(runs):
        for kind, folder, tree in (("empty", empty_data, empty_library), ("full", data, library)):
            seconds, server = time_to_browsable(folder, tree, cookie, cpus)
            server.stop()
            best[kind] = min(best[kind], seconds)
    t_empty, t_full = best["empty"], best["full"]
    return Row(
        "start to first 200 of /api/library", value=t_full,
        shown=f"{t_full:.2f} s, snapshot of {pages:,} pages",
        baseline=f"same start, empty library: {t_empty:.2f} s", ratio=t_full / t_empty,
        target=target("value <= 1.5 | ≤ 1.5 s"),
    )


def chapter_target(client, manga):
    """(chapter id, version, page count) of a chapter in the middle of `manga`, from GET /api/chapter."""
    status, _, data = client.get(f"/api/chapter?m={quote(manga)}&c=1/1")
    assert status == 200, (status, data)
    books = data["books"]
    middle = books[len(books) // 2]["chapters"]
    cid = middle[len(middle) // 2]["id"]
    status, _, data = client.get(f"/api/chapter?m={quote(manga)}&c={quote(cid)}")
    return cid, data["version"], len(data["pages"])


def _measure(base, path, cookies, clients, seconds, cpus, method="GET", body=None, wrap=1):
    return loadgen.run(base, path, method=method, cookies=cookies, body=body, wrap=wrap, clients=clients,
                       seconds=seconds, cpus=cpus)


def _figures(r):
    return f"p50 {r['p50']:.3g} · p99 {r['p99']:.3g} ms · {r['rps']:,.0f}/s"


def route_rows(server, cookies, manga, seconds, client_cpus, concurrency=(1, 16), manga_count=None):
    """Rows for /api/chapter, POST /api/progress, /api/library and / at each concurrency. With a
    household-sized library (≤ 500 manga) the library page and its API have a 1.5 ms median target."""
    small = manga_count is not None and manga_count <= 500
    base = server.url
    probe = Client("127.0.0.1", server.port)
    probe.cookies["sid"] = cookies[0]
    cid, version, pages = chapter_target(probe, manga)
    body = ('{"m": ' + json.dumps(manga) + ', "c": ' + json.dumps(cid) + ', "v": ' + json.dumps(version)
            + ', "p": {i}, "n": ' + str(pages) + ', "done": false, "shift": []}')
    routes = [("GET /api/chapter", "GET", f"/api/chapter?m={quote(manga)}&c={quote(cid)}", None, 1,
               {1: "p50", 16: "p99"}),
              ("POST /api/progress", "POST", "/api/progress", body, pages, {16: "p99"}),
              ("GET /api/library", "GET", "/api/library", None, 1, {1: "p50"} if small else {}),
              ("GET / (library page)", "GET", "/", None, 1, {1: "p50"})]
    rows = []
    for clients in concurrency:
        floor = _measure(base, "/api/auth", cookies, clients, seconds, client_cpus)
        for name, method, path, body, wrap, targets in routes:
            on = targets.get(clients)
            # The library page is kept whole in the page cache: 2 ms up to a million pages (xl); a
            # chapter's payload is made from its parts whatever the library's size.
            limit = (25 if on == "p99" else 1.5 if small or name == "GET /api/chapter"
                     else 2 if name == "GET / (library page)" else 30)
            spec = f"value <= {limit} | {on} ≤ {limit} ms" if on else None
            label = f"{name}, {clients} client{'s' if clients > 1 else ''}"
            status, _, answer = probe.request(method, path, raw=body.replace("{i}", "0").encode() if body else None,
                                              headers={"Content-Type": "application/json"} if body else None)
            assert status == 200, (name, status, answer)
            r = _measure(base, path, cookies, clients, seconds, client_cpus, method, body, wrap)
            key = on or "p99"
            rows.append(Row(
                label, value=r[key], shown=_figures(r), baseline=f"auth {_figures(floor)}",
                ratio=r[key] / floor[key] if floor[key] else None, target=target(spec) if spec else None,
                note=f"{r['errors']} of {r['requests']} requests failed" if r["errors"] else "",
            ))
    return rows

