"""db.json flush: serialise + write + fsync + rename + fsync(dir) through mangacircus.jsonfile, against
a raw write+fsync of the same bytes to the same folder.

The document is user data as the reader keeps it (progress entries of many users over many
chapters, with follows and votes), grown to the wanted size. Each side runs `runs` times, turn
about; the median is kept (an fsync's time varies with whatever else the disk is doing), with the
flush's CPU time (serialising, mostly) beside it: the rest is waiting for the disk or for a CPU.
"""
import os
import statistics
import time

import orjson

from mangacircus.jsonfile import JsonFile

from .report import Row, target


def user_data(megabytes):
    """A db.json-shaped dict of about `megabytes` MB once serialised."""
    data = {"users": {}, "sessions": {}, "progress": {}, "reading": {}, "follows": {}, "notes": {},
            "votes": {}, "known": {}}
    want = int(megabytes * 1e6)
    size, user = 0, 0
    while size < want:
        name = f"reader{user:03d}"
        data["users"][name] = {"name": name, "admin": user == 0, "password": "scrypt$" + "ab" * 60,
                               "settings": {"direction": "rtl", "zoom": {"page": 1.0}}, "created": 1_760_000_000_000}
        progress = data["progress"][name] = {}
        for m in range(100):
            manga = f"Moon Garden {m:04d}"
            progress[manga] = {f"1/{c}": {"v": f"c{c:04d} Part {c} [MangaDex]", "p": c % 20, "n": 20,
                                          "t": 1_760_000_000_000 + c, "done": c % 3 != 0, "shift": []}
                               for c in range(1, 41)}
        data["follows"][name] = [f"Moon Garden {m:04d}" for m in range(0, 100, 3)]
        user += 1
        size = len(orjson.dumps(data))
    return data


def _raw_write(path, payload):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        view = memoryview(payload)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)


def flush_row(folder, megabytes, runs, limit_ms=None):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"db-{megabytes}mb.json"
    path.unlink(missing_ok=True)
    db = JsonFile(path, delay=3600, max_wait=3600)  # the background writer never fires during the run
    try:
        with db.lock:
            db.data.update(user_data(megabytes))
        payload = orjson.dumps(db.data)
        flushes, raws, cpus = [], [], []
        for i in range(runs):
            with db.lock:
                db.data["users"]["reader000"]["settings"]["zoom"]["page"] = 1 + i / 100
                db.touch()
            started, cpu = time.perf_counter(), time.thread_time()
            assert db.flush()
            flushes.append(time.perf_counter() - started)
            cpus.append(time.thread_time() - cpu)
            started = time.perf_counter()
            _raw_write(folder / "raw.json", payload)
            raws.append(time.perf_counter() - started)
    finally:
        db.close()
        path.unlink(missing_ok=True)
        (folder / "raw.json").unlink(missing_ok=True)
    flush, raw, cpu = (statistics.median(times) * 1000 for times in (flushes, raws, cpus))
    size = len(payload) / 1e6
    return Row(
        f"db.json flush, {megabytes} MB", value=flush,
        shown=f"{flush:.1f} ms (cpu {cpu:.0f}), max {max(flushes) * 1000:.0f}; {size:.1f} MB",
        baseline=f"raw write+fsync {raw:.1f} ms", ratio=flush / raw,
        target=target(f"value <= {limit_ms} | ≤ {limit_ms} ms") if limit_ms else None,
    )
