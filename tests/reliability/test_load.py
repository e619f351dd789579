"""Concurrent readers (battery Q1, named L1 in the issue) against a real `serve`: 50 signed-in
clients read chapters, save progress and load pages for a bounded time (CI: 20 s), with no errors,
and db.json keeps each user's last acknowledged position through a kill -9.

The clients are threads of this process, on the same 2 cores as the server, so the latencies are
those of a loaded machine; `python -m bench` measures the server alone with wrk.
"""
import http.client
import random
import threading
import time
from urllib.parse import quote

import pytest

from bench.server import Server
from tests.conftest import PASSWORD
from tests.reliability.support import (
    SCROLL,
    SEEDS,
    chapter_version,
    ms,
    percentile,
    post_progress,
    read_db,
    sized,
)
from tests.support.pages import wait_for_library

pytestmark = [pytest.mark.reliability, pytest.mark.process, pytest.mark.timing]  # fifty readers' latencies

CHAPTERS = (SEEDS, ("Moon Garden", "1/2"), SCROLL)


def reader(client, name, rng, deadline, versions, pages, record):
    """One reader until `deadline`: 70 % chapter reads, 25 % progress saves, 5 % page images."""
    i = 0
    while time.monotonic() < deadline:
        i += 1
        chapter = rng.choice(CHAPTERS)
        roll = rng.random()
        began = time.monotonic()
        try:
            if roll < 0.70:
                kind = "chapter"
                status = client.get(f"/api/chapter?m={quote(chapter[0])}&c={quote(chapter[1])}")[0]
            elif roll < 0.95:
                kind = "progress"
                status, t = post_progress(client, chapter, versions[chapter], i)
                if status == 200:
                    record["acks"][(name, chapter)] = t
            else:
                kind = "lib"
                cookie = {"Cookie": f"sid={client.cookies['sid']}"}
                status = client.send("GET", "/" + rng.choice(pages), headers=cookie)[0]
        except (OSError, http.client.HTTPException) as e:
            kind, status = "error", repr(e)
        record["latency"].setdefault(kind, []).append(time.monotonic() - began)
        if status != 200:
            record["errors"].append((name, kind, status))


def test_q1_fifty_readers_at_once_get_no_errors_and_keep_their_progress(figures, data_dir, library_dir):
    users, seconds = 50, sized(8, 60)
    srv = Server(data_dir, library_dir, env={"ACCESS_LOG": "0"}).start()
    record = {"acks": {}, "latency": {}, "errors": []}
    try:
        admin = srv.client().signup("admin")
        wait_for_library(admin, 2)
        versions = {chapter: chapter_version(admin, chapter) for chapter in CHAPTERS}
        pages = [p["u"] for chapter in CHAPTERS
                 for p in admin.get(f"/api/chapter?m={quote(chapter[0])}&c={quote(chapter[1])}")[2]["pages"]]
        clients = {}
        for n in range(users):
            name = f"reader{n}"
            assert admin.post("/api/admin/user", {"name": name, "password": PASSWORD})[0] == 200
            clients[name] = srv.client().login(name)
        deadline = time.monotonic() + seconds
        threads = [threading.Thread(target=reader, args=(client, name, random.Random(n), deadline, versions, pages,
                                                          record))
                   for n, (name, client) in enumerate(clients.items())]
        began = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - began
        time.sleep(1.0)  # longer than the flush window: everything acknowledged must be on disk
        srv.kill9()
    finally:
        srv.stop()
    progress = read_db(data_dir)["progress"]
    kept = sum(all(progress.get(name, {}).get(chapter[0], {}).get(chapter[1], {}).get("t") == t
                   for (who, chapter), t in record["acks"].items() if who == name)
               for name in clients)
    latency = record["latency"]
    total = sum(len(v) for v in latency.values())
    p99 = {kind: percentile(values, 99) for kind, values in latency.items()}
    figures.check("Q1", f"{users} concurrent readers, {seconds} s", f"{total} requests ({total / elapsed:.0f}/s)",
                  "0 errors; every user's last acknowledged progress in db.json after a kill -9",
                  f"{len(record['errors'])} errors; progress p99 {ms(p99.get('progress', 0))} "
                  f"(p50 {ms(percentile(latency.get('progress', []), 50))}), chapter p99 {ms(p99.get('chapter', 0))}, "
                  f"lib p99 {ms(p99.get('lib', 0))}; last progress kept for {kept}/{users} users"
                  + (f": {record['errors'][:3]}" if record["errors"] else ""),
                  not record["errors"] and kept == users)
