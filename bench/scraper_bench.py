"""Benchmark rows for the mangadex module against the fake MangaDex (bench/fakedex.py).

- requests a page for a 40-page chapter (every request of the add job: manga, cover, feed,
  at-home, images and their reports, divided by 40), normally and with 30 % of answers 5xx;
- the parser's time for a 1,234-chapter feed (three pages of 500), against decoding the JSON alone;
- the gaps between consecutive requests of a real job at the module's own pace (0.5 s, the
  at-home bucket 2 s): the 5th percentile must not be under the pace.

The daemon needs Django's settings, so the measuring runs in a subprocess (`measure()`), which
prints its figures as JSON; `rows()` turns them into table rows.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .report import Row, skipped, target

ROOT = Path(__file__).resolve().parent.parent
PAGES = 40
NAMES = ["MangaDex requests/page, 40 pages", "MangaDex requests/page, 30 % 5xx", "MangaDex parser, 1,234-chapter feed",
         "MangaDex request gaps, p5 vs pace"]


def _daemon(work, **limits):
    from scraper.daemon import Daemon
    from scraper.http import Limits

    library = work / "library"
    library.mkdir(parents=True)
    options = {"connect_timeout": 2, "read_timeout": 2, "deadline": 5, "retries": 4, "retry_base": 0.01, **limits}
    daemon = Daemon(work / "data", library, stall_seconds=30, limits=Limits(**options), retry_delays=[0, 0, 0])
    daemon.start()
    return daemon


def _run_add(work, dex, manga):
    from scraper import queue

    daemon = _daemon(work)
    try:
        queue.add_job(daemon.queue, "add", "mangadex", manga, lang="en")
        while daemon.process_one_job():
            pass
        return queue.revision(daemon.queue)
    finally:
        daemon.close()


def requests_per_page(work, flaky):
    from scraper.sources import mangadex

    from .fakedex import FakeDex, Group

    dex = FakeDex().start()
    try:
        manga = dex.add_manga("Forty Pages")
        dex.add_chapter(manga, "1", "1", "Long", (Group("Fans"),), pages=PAGES)
        mangadex.SOURCE.configure(dex.url)
        at_home, mangadex.AT_HOME_SECONDS = mangadex.AT_HOME_SECONDS, 0.0
        mangadex.SOURCE.pace = 0.0  # the count does not depend on the pace: no waiting here
        dex.flaky = flaky
        published = _run_add(work, dex, manga)
        return {"perPage": sum(dex.hits.values()) / PAGES, "published": published, "images": dex.kinds["node"],
                "reports": dex.kinds["report"]}
    finally:
        del mangadex.SOURCE.pace  # the module's own pace again
        mangadex.AT_HOME_SECONDS = at_home
        dex.stop()


def parser_time():
    import orjson

    from scraper.sources import mangadex

    from .fakedex import FakeDex

    dex = FakeDex()
    manga = dex.add_manga("Very Long")
    dex.add_many(manga, 1234)
    docs = [dex.feed(manga, {"limit": ["500"], "offset": [str(o)], "includes[]": ["scanlation_group", "user"]})[1]
            for o in (0, 500, 1000)]
    best_parse = best_decode = float("inf")
    for _ in range(7):
        started = time.perf_counter()
        count = sum(len(mangadex.parse_feed(orjson.loads(d), "en")[0]) for d in docs)
        best_parse = min(best_parse, time.perf_counter() - started)
        started = time.perf_counter()
        for d in docs:
            orjson.loads(d)
        best_decode = min(best_decode, time.perf_counter() - started)
    assert count == 1234
    return {"parseMs": best_parse * 1000, "decodeMs": best_decode * 1000, "bytes": sum(len(d) for d in docs)}


def pacing(work):
    from scraper.sources import mangadex

    from .fakedex import FakeDex, Group

    dex = FakeDex().start()
    try:
        manga = dex.add_manga("Paced")
        dex.add_chapter(manga, "1", None, "A", (Group("Fans"),), pages=6)
        dex.add_chapter(manga, "2", None, "B", (Group("Fans"),), pages=2)
        mangadex.SOURCE.configure(dex.url)
        _run_add(work, dex, manga)
        gaps = sorted(dex.api_gaps())
        at_home = [t for t, p in dex.log if p.startswith("/at-home/")]
        return {"pace": mangadex.SOURCE.pace, "p5": gaps[max(0, len(gaps) * 5 // 100 - 1)] if gaps else None,
                "min": gaps[0] if gaps else None, "count": len(gaps), "maxInflight": dex.max_inflight,
                "atHomeGap": at_home[1] - at_home[0] if len(at_home) > 1 else None}
    finally:
        dex.stop()


def measure():
    """In the subprocess (Django set up): every figure, as JSON on stdout."""
    import django

    django.setup()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        figures = {"normal": requests_per_page(tmp / "normal", 0.0), "flaky": requests_per_page(tmp / "flaky", 0.3),
                   "parser": parser_time(), "pacing": pacing(tmp / "pacing")}
    print(json.dumps(figures))


def rows(say=lambda text: None):
    say("scraper: the mangadex module against the fake MangaDex")
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "mangacircus.settings", "DATA": str(Path(tmp) / "data"),
               "LIBRARY": tmp, "SECRET_KEY": "bench", "LOG_LEVEL": "ERROR"}
        run = subprocess.run([sys.executable, "-c", "from bench.scraper_bench import measure; measure()"], cwd=ROOT,
                             env=env, capture_output=True, text=True, timeout=600)
    names = NAMES
    if run.returncode != 0:
        why = f"the measuring process failed: {run.stderr.strip().splitlines()[-1] if run.stderr.strip() else '?'}"
        return [skipped(n, why) for n in names]
    f = json.loads(run.stdout.strip().splitlines()[-1])
    normal, flaky, parser, pace = f["normal"], f["flaky"], f["parser"], f["pacing"]
    return [
        Row(names[0], normal["perPage"], f"{normal['perPage']:.2f} requests ({normal['images']} images, "
            f"{normal['reports']} reports)", "floor: 1 image + 1 report = 2.00", normal["perPage"] / 2,
            target("value <= 2.2 | ≤ 2.2 a page")),
        Row(names[1], flaky["perPage"], f"{flaky['perPage']:.2f} requests ({flaky['images']} images, "
            f"{'published' if flaky['published'] else 'NOT published'})", f"normal run {normal['perPage']:.2f}",
            flaky["perPage"] / normal["perPage"], target("ratio <= 1.6 | ≤ 1.6× normal")),
        Row(names[2], parser["parseMs"], f"{parser['parseMs']:.1f} ms ({parser['bytes'] >> 10} KiB of JSON)",
            f"orjson decode alone {parser['decodeMs']:.1f} ms", parser["parseMs"] / max(parser["decodeMs"], 0.001),
            target("value <= 100 | ≤ 100 ms")),
        Row(names[3], pace["p5"], f"p5 {pace['p5']:.3f} s, min {pace['min']:.3f} s ({pace['count']} gaps, "
            f"at-home {pace['atHomeGap']:.1f} s, in flight ≤ {pace['maxInflight']})", f"pace {pace['pace']:.2f} s",
            pace["p5"] / pace["pace"], target("ratio >= 1.0 | p5 ≥ pace")),
    ]


if __name__ == "__main__":
    from .report import table

    print(table(rows(lambda text: print(text, file=sys.stderr)), "MangaDex module"))
