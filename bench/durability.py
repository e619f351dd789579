"""Durability figures of db.json through a real `serve`: flushes per second under a burst of
acknowledged changes, and the loss window after kill -9.

    python -m bench.durability [--cycles 10]
"""
import argparse
import http.client
import os
import random
import tempfile
import threading
import time
from pathlib import Path

import orjson

from bench.server import Server


def burst(client, seconds, acks, offset):
    stop = time.monotonic() + seconds
    i = 0
    while time.monotonic() < stop:
        i += 1
        zoom = round(0.2 + (offset + i) * 0.0001, 4)
        try:
            status, _, _ = client.post("/api/settings", {"zoom": {"page": zoom}})
        except (OSError, http.client.HTTPException):
            return
        if status == 200:
            acks.append((time.monotonic(), zoom))


def flush_rate(data, library, seconds=5.0):
    """(acknowledged changes per second, db.json writes per second) during `seconds` of a burst."""
    srv = Server(data, library).start()
    try:
        client = srv.client().signup("admin")
        db = data / "db.json"
        writes, last, acks = 0, None, []
        worker = threading.Thread(target=burst, args=(client, seconds, acks, 0))
        started = time.monotonic()
        worker.start()
        while worker.is_alive():
            time.sleep(0.002)
            try:
                st = os.stat(db)
            except FileNotFoundError:
                continue
            # Inode numbers are reused between renames, so compare the whole stamp.
            stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
            if stamp != last:
                writes += 1 if last else 0
                last = stamp
        elapsed = time.monotonic() - started
    finally:
        srv.stop()
    return len(acks) / elapsed, writes / elapsed


def loss_windows(data, library, cycles, rng):
    # Each cycle's zoom values start 0.2 above the last cycle's (a burst of ≤ 2.5 s makes fewer
    # than 2,000 changes) and must stay within the setting's 6.0.
    assert cycles <= 28, "at most 28 cycles fit under the zoom setting's maximum"
    windows = []
    for cycle in range(cycles):
        srv = Server(data, library).start()
        client = srv.client().login("admin")
        acks = []
        worker = threading.Thread(target=burst, args=(client, 10.0, acks, (cycle + 1) * 2000))
        worker.start()
        time.sleep(rng.uniform(0.8, 2.5))
        killed = time.monotonic()
        srv.kill9()
        worker.join()
        saved = orjson.loads((data / "db.json").read_bytes())["users"]["admin"]["settings"]["zoom"]["page"]
        lost = [t for t, zoom in acks if zoom > saved and t <= killed]
        windows.append(killed - min(lost) if lost else 0.0)
    return windows


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cycles", type=int, default=10)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="mc-bench-"))
    data, library = root / "data", root / "library"
    library.mkdir()
    writes, flushes = flush_rate(data, library)
    windows = loss_windows(data, library, args.cycles, random.Random(1))
    print(f"acknowledged changes per second under a burst: {writes:.0f}")
    print(f"db.json flushes per second under that burst:    {flushes:.2f}")
    print(f"loss window after kill -9 over {len(windows)} cycles: max {max(windows):.3f} s, "
          f"mean {sum(windows) / len(windows):.3f} s")


if __name__ == "__main__":
    main()
