"""Backup figures of a real `manage.py serve` with BACKUP set, a 10 MB db.json and a 2 MB catalog.json:

- the duration of one backup run (pause, snapshot, write, verify, rename: the run's own record),
  against gzip (level 1) + fsync of the same bytes in this process;
- the p99 of POST /api/progress at a fixed rate (open loop: each request has its time slot and its
  latency counts from that slot, so a stalled server cannot hide its stall by being asked less),
  while backups run back to back, against the same rate with no backup.

    python -m bench.backup_bench [--seconds 10] [--rate 50] [--db-mb 10] [--catalog-mb 2]
"""
import argparse
import gzip
import http.client
import json
import os
import statistics
import threading
import time
from pathlib import Path

import orjson
from PIL import Image

from .dbflush import user_data
from .report import Row, table, target
from .serving import PASSWORD, start_server

MANGA = "Bench Garden"


def make_library(root):
    chapter = root / MANGA / "c0001 First"
    chapter.mkdir(parents=True, exist_ok=True)
    for page in range(1, 21):
        Image.new("RGB", (60, 90), (page * 10, 100, 150)).save(chapter / f"{page:03d}.png")
    return root


def prepare(work, db_mb, catalog_mb):
    """DATA with an admin, a db.json and a catalog.json of about these sizes; -> (data, library, backup)."""
    data, library, backup = work / "backup-data", make_library(work / "backup-library"), work / "backup-archives"
    for folder in (data, backup):
        if folder.exists():
            for path in sorted(folder.rglob("*"), reverse=True):
                path.unlink() if path.is_file() or path.is_symlink() else path.rmdir()
    server = start_server(data, library, env={"BACKUP": str(backup)})
    try:
        server.client().signup("admin", PASSWORD)
    finally:
        server.stop()
    db = orjson.loads((data / "db.json").read_bytes())
    bulk = user_data(db_mb)
    for user in bulk["users"].values():  # db.json keeps the hash under "hash"
        user["hash"] = user.pop("password")
    for section, content in bulk.items():
        db.setdefault(section, {}).update(content)
    (data / "db.json").write_bytes(orjson.dumps(db))
    relations = [{"a": f"Series {i:05d}", "b": f"Series {i + 1:05d}", "type": "sequel", "note": "x" * 60}
                 for i in range(int(catalog_mb * 8000))]
    (data / "catalog.json").write_bytes(orjson.dumps({"relations": relations}))
    return data, library, backup


def run_backup(admin):
    """One run through the API; -> its record."""
    runs = len(admin.get("/api/admin/backup")[2]["history"])
    status, _, body = admin.post("/api/admin/backup", {"command": "run"})
    assert status == 200, body
    while True:
        summary = admin.get("/api/admin/backup")[2]
        if not summary["running"] and len(summary["history"]) > runs:
            record = summary["history"][0]
            assert record["ok"], record
            return record
        time.sleep(0.02)


def baseline_seconds(data, folder):
    """gzip (level 1) + fsync of db.json and catalog.json, the bytes a run compresses."""
    payload = (data / "db.json").read_bytes() + (data / "catalog.json").read_bytes()
    started = time.perf_counter()
    with open(folder / "baseline.gz", "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=1) as gz:
            gz.write(payload)
        raw.flush()
        os.fsync(raw.fileno())
    took = time.perf_counter() - started
    (folder / "baseline.gz").unlink()
    return took


def fixed_rate(port, sid, body, rate, seconds, workers=8):
    """Open loop: request i is due at start + i/rate; -> latencies (ms) from each slot, and errors."""
    total = int(rate * seconds)
    start = time.perf_counter() + 0.2
    latencies, errors, lock = [], [], threading.Lock()
    counter = iter(range(total))

    def worker():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {"Content-Type": "application/json", "Cookie": f"sid={sid}"}
        for i in counter:
            slot = start + i / rate
            wait = slot - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            try:
                conn.request("POST", "/api/progress", body=body.replace("{i}", str(i % 20)), headers=headers)
                response = conn.getresponse()
                response.read()
                ok = response.status == 200
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                ok = False
            with lock:
                latencies.append((time.perf_counter() - slot) * 1000)
                if not ok:
                    errors.append(i)
        conn.close()

    threads = [threading.Thread(target=worker) for _ in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, errors


def p99(values):
    return statistics.quantiles(values, n=100)[98]


def backup_rows(work, db_mb=10, catalog_mb=2, seconds=10.0, rate=50, say=print):
    work.mkdir(parents=True, exist_ok=True)
    say(f"backup: preparing a {db_mb:g} MB db.json and a {catalog_mb:g} MB catalog.json")
    data, library, backup = prepare(work, db_mb, catalog_mb)
    server = start_server(data, library, env={"BACKUP": str(backup)})
    try:
        admin = server.client().login("admin", PASSWORD)
        megabytes = [(data / name).stat().st_size / 1e6 for name in ("db.json", "catalog.json")]
        sizes = f"db.json {megabytes[0]:.1f} MB + catalog {megabytes[1]:.1f} MB"
        say("backup: three runs")
        records = [run_backup(admin) for _ in range(3)]
        took = statistics.median((r["finished"] - r["started"]) / 1000 for r in records)
        base = statistics.median(baseline_seconds(data, work) for _ in range(3))
        rows = [Row(f"backup run, {db_mb:g} MB db + {catalog_mb:g} MB catalog", value=took,
                    shown=f"{took:.2f} s ({sizes}, archive {records[-1]['size'] / 1e6:.1f} MB)",
                    baseline=f"gzip -1 + fsync of the bytes {base:.2f} s", ratio=took / base)]
        body = json.dumps({"m": MANGA, "c": "0/1", "v": "c0001 First", "p": 0, "n": 20, "done": False, "shift": []})
        body = body.replace('"p": 0', '"p": {i}')
        sid = admin.cookies["sid"]
        say(f"backup: POST /api/progress at {rate}/s for {seconds:g} s, no backup")
        quiet, quiet_errors = fixed_rate(server.port, sid, body, rate, seconds)
        say(f"backup: POST /api/progress at {rate}/s for {seconds:g} s, backups back to back")
        stop, runs = threading.Event(), []

        def back_to_back():
            while not stop.is_set():
                runs.append(run_backup(admin))

        looping = threading.Thread(target=back_to_back)
        looping.start()
        try:
            busy, busy_errors = fixed_rate(server.port, sid, body, rate, seconds)
        finally:
            stop.set()
            looping.join()
        ratio = p99(busy) / p99(quiet)
        rows.append(Row(f"POST /api/progress p99, {rate}/s, backups", value=p99(busy),
                        shown=f"p99 {p99(busy):.3g} · p50 {statistics.median(busy):.3g} ms ({len(runs)} backups)",
                        baseline=f"no backup: p99 {p99(quiet):.3g} · p50 {statistics.median(quiet):.3g} ms",
                        ratio=ratio, target=target("ratio <= 2 | ≤ 2× no backup"),
                        note=f"{len(busy_errors) + len(quiet_errors)} requests failed" if busy_errors or quiet_errors
                        else ""))
    finally:
        server.stop()
    return rows


def main():
    parser = argparse.ArgumentParser(prog="python -m bench.backup_bench", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="of each progress run (default 10)")
    parser.add_argument("--rate", type=int, default=50, help="progress writes a second (default 50)")
    parser.add_argument("--db-mb", type=float, default=10.0, help="size of db.json (default 10)")
    parser.add_argument("--catalog-mb", type=float, default=2.0, help="size of catalog.json (default 2)")
    parser.add_argument("--dir", default=str(Path(__file__).parent / "out" / "backup"))
    args = parser.parse_args()
    if min(args.seconds, args.rate, args.db_mb, args.catalog_mb) <= 0:
        parser.error("--seconds, --rate, --db-mb and --catalog-mb must be positive")
    rows = backup_rows(Path(args.dir).resolve(), args.db_mb, args.catalog_mb, seconds=args.seconds, rate=args.rate,
                       say=lambda text: print(text, flush=True))
    print(table(rows, "MangaCircus backup benchmark"))


if __name__ == "__main__":
    main()
