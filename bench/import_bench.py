"""The import's row (docs/import.md): a Komga database of 10,000 read-progress rows (4 users, made by
bench/komga_db.py from Komga's migrations) against an index of as many chapters, dry run then
import (the backup, four new accounts with their password hashes, one write of db.json), in a
process of its own; the baseline is sqlite3 reading the same rows.

    python -m bench.import_bench
"""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .report import Row, skipped, target

ROOT = Path(__file__).resolve().parent.parent
NAME = "Komga import, 10,000 progress rows"
USERS, MANGA, CHAPTERS = 4, 100, 25  # 100 manga × 25 chapters = 2,500 books, each read by the 4 users


def synthetic_index():
    from library import index
    from library.model import Book, Chapter, Manga, Version

    manga = {}
    for m in range(MANGA):
        name = f"Series {m:03d}"
        chapters = [Chapter("0", str(c), [Version(f"c{c:04d}.cbz", dir=name, files=["001.jpg"] * 20,
                                                  sizes=[(800, 1200)] * 20, stamp=1, archive=f"{name}/c{c:04d}.cbz")])
                    for c in range(1, CHAPTERS + 1)]
        manga[name] = Manga(name, [Book("0", chapters)], title=name, sort_title=name, meta={}, direction="rtl",
                            cover=None, added=m, updated=m, stamp=1)
    found = index.Index(manga)
    index.replace(found)
    return found


def komga_database(path):
    from .komga_db import Komga

    k = Komga(path)
    for u in range(USERS):
        k.user(f"U{u}", f"reader{u}@example.org")
    for m in range(MANGA):
        for c in range(1, CHAPTERS + 1):
            bid = f"B{m}-{c}"
            k.book(bid, f"Series {m:03d}", f"Series {m:03d}/c{c:04d}.cbz", c, 20)
            for u in range(USERS):
                k.progress(bid, f"U{u}", (m + c + u) % 20 + 1, (m + u) % 3 == 0)
    k.close()


def measure():
    """In the subprocess (Django set up, DATA a fresh folder): the figures, as JSON on stdout."""
    import django

    django.setup()
    from django.conf import settings

    from catalog import store as catalog_store
    from imports import actions
    from mangacircus import db

    path = settings.DATA / "database.sqlite"
    komga_database(path)
    index = synthetic_index()
    db.open_db(settings.DATA / "db.json")
    catalog_store.STATE.open()
    started = time.perf_counter()
    dry = actions.run({"source": "komga", "path": str(path)}, index)
    planned = time.perf_counter()
    done = actions.run({"source": "komga", "path": str(path), "apply": True}, index)
    applied = time.perf_counter()
    again = actions.run({"source": "komga", "path": str(path)}, index)
    catalog_store.STATE.close()
    db.close_db()
    conn = sqlite3.connect(path)
    raw = time.perf_counter()
    rows = conn.execute("SELECT * FROM READ_PROGRESS r JOIN BOOK b ON b.ID = r.BOOK_ID").fetchall()
    raw = time.perf_counter() - raw
    print(json.dumps({"rows": len(rows), "dry": planned - started, "apply": applied - planned, "raw": raw,
                      "written": done["written"], "changes": dry["changes"], "again": again["changes"]}))


def rows(say=lambda text: None):
    say("import: a Komga database of 10,000 progress rows")
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "mangacircus.settings", "DATA": str(data), "LIBRARY": tmp,
               "SECRET_KEY": "bench", "LOG_LEVEL": "ERROR"}
        env.pop("BACKUP", None)
        run = subprocess.run([sys.executable, "-c", "from bench.import_bench import measure; measure()"], cwd=ROOT,
                             env=env, capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        return [skipped(NAME, f"the measuring process failed: {(run.stderr.strip().splitlines() or ['?'])[-1]}")]
    f = json.loads(run.stdout.strip().splitlines()[-1])
    total = f["dry"] + f["apply"]
    return [Row(NAME, total, f"{total:.2f} s (dry run {f['dry']:.2f} s, import {f['apply']:.2f} s, "
                f"{f['written']:,} written; again: {f['again']} changes)",
                f"sqlite3 reads the {f['rows']:,} rows {f['raw'] * 1000:.0f} ms", total / max(f["raw"], 0.001),
                target("value <= 10 | ≤ 10 s"))]


if __name__ == "__main__":
    from .report import table

    print(table(rows(lambda text: print(text, file=sys.stderr)), "Import"))
