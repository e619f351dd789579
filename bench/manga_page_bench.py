"""The manga page (/manga/<name>/) and GET /api/manga of a 60-chapter and a 1,200-chapter series,
as a reader sees them: from the page cache while nothing changed (1 client, p50 against /api/auth
in the same run; targets ≤ 1.5 ms and ≤ 5 ms), and right after each of the reader's own progress
writes, which the page shows, so it is made again from its parts (the chapter list per Manga
object and each chapter row's HTML, kept under what they show: shelf/manga_detail.py,
shelf/tiles.py), against the same requests from the cache through the same Python client.
"""
import os
import shutil
import statistics
import time
from urllib.parse import quote

from . import loadgen, serving
from .generate import own_copy
from .report import Row, target

SERIES = {"Sixty Chapters": 60, "Twelve Hundred Chapters": 1200}
TARGETS = {60: 1.5, 1200: 5.0}
WRITES = 60  # a second of load (the preset's) makes 60 writes; the tiny preset's 0.2 s, 12


def make_library(folder, page):
    """The two series, two pages a chapter, every page a hard link to `page`."""
    shutil.rmtree(folder, ignore_errors=True)
    page = own_copy(page, folder)
    for name, count in SERIES.items():
        for c in range(1, count + 1):
            chapter = folder / name / f"c{c:04d} Chapter {c}"
            chapter.mkdir(parents=True)
            for p in (1, 2):
                os.link(page, chapter / f"{p:03d}{page.suffix}")
    return folder


def _timed(client, name, path, count, write, runs):
    """p50 ms of `path` through this client, `runs` times, right after a progress write each time
    when `write` (the write itself not counted)."""
    times = []
    for i in range(runs):
        if write:
            n = 1 + (i * 7) % count
            body = {"m": name, "c": f"0/{n}", "v": f"c{n:04d} Chapter {n}", "p": i % 2, "n": 2}
            status, _, answer = client.post("/api/progress", body)
            assert status == 200, answer
        started = time.perf_counter()
        status, _, _ = client.get(path)
        times.append((time.perf_counter() - started) * 1000)
        assert status == 200, path
    return statistics.median(times)


def rows(work, page, seconds, server_cpus, client_cpus):
    library = make_library(work / "manga-page-library", page)
    data = work / "data-manga-page"
    shutil.rmtree(data, ignore_errors=True)
    server = serving.start_server(data, library, cpus=server_cpus)
    try:
        reader = serving.make_users(server, 1)[0]
        serving.wait_for_library(reader, len(SERIES), 120)
        browser = serving.browser_cookies(server, [reader.cookies["sid"]])  # with the CSRF cookie a page set
        floor = loadgen.run(server.url, "/api/auth", cookies=browser, clients=1, seconds=seconds, cpus=client_cpus)
        out = []
        for name, count in SERIES.items():
            routes = (("manga page", f"/manga/{quote(name)}/"), ("/api/manga", f"/api/manga?m={quote(name)}"))
            for label, path in routes:
                assert reader.get(path)[0] == 200
                calm = loadgen.run(server.url, path, cookies=browser, clients=1, seconds=seconds, cpus=client_cpus)
                limit = TARGETS[count]
                out.append(Row(f"{label}, {count:,} chapters, 1 client", value=calm["p50"],
                               shown=f"p50 {calm['p50']:.3g} · p99 {calm['p99']:.3g} ms",
                               baseline=f"auth p50 {floor['p50']:.3g} ms", ratio=calm["p50"] / floor["p50"],
                               target=target(f"value <= {limit} | p50 ≤ {limit} ms")))
                runs = max(12, round(WRITES * seconds))
                cached = _timed(reader, name, path, count, False, runs)
                made = _timed(reader, name, path, count, True, runs)
                out.append(Row(f"{label}, {count:,} chapters, after a write", value=made,
                               shown=f"p50 {made:.3g} ms", baseline=f"from the cache, same client: p50 {cached:.3g} ms",
                               ratio=made / cached))
        return out
    finally:
        server.stop()
