"""The downloader killed mid-chapter (battery S1): a real `runscraper` against the fake source
site of tests/scraper/, kill -9 at random moments while a watcher lists LIBRARY every 50 ms as a
scan would. No partial chapter is ever visible, queue.json is always valid, and the job finishes
after the last restart with each chapter published once.

tests/scraper/test_runscraper.py::test_it_survives_repeated_kill_9_mid_chapter is the quick
version of this case; the scraper's other failure modes (S2-S11) are in tests/scraper/.
"""
import random
import threading
import time

import orjson
import pytest

from tests.reliability.support import sized
from tests.scraper.fakesite import FakeSite
from tests.scraper.support import ScraperProcess, complete_chapters

pytestmark = [pytest.mark.reliability, pytest.mark.process]

TOKEN = "reliability-token-0123456789"


def test_s1_a_kill_9_mid_download_never_shows_a_partial_chapter(figures, tmp_path):
    kills, chapters, pages = sized(8, 50), sized(3, 8), 40
    site = FakeSite(chapters=chapters, pages=pages).start()
    site.page_delay = sized(0.04, 0.08)
    library, data = tmp_path / "library", tmp_path / "data"
    library.mkdir()
    polls, partial, odd, stop = [0], [], set(), threading.Event()

    def watch():
        while not stop.wait(0.05):
            polls[0] += 1
            try:
                complete_chapters(library, pages)
            except AssertionError as e:
                partial.append(str(e))
            except FileNotFoundError:
                pass  # a folder renamed away between listing and reading
            odd.update(p.name for p in library.iterdir() if p.name.startswith(".") and p.name != ".staging")

    watcher = threading.Thread(target=watch)
    watcher.start()
    rng, invalid_queue, procs = random.Random(4), [], []
    began = time.monotonic()
    try:
        proc = ScraperProcess(data, library, site.url, TOKEN).start()
        procs.append(proc)
        proc.call("POST", "/jobs", {"kind": "add", "source": "fake", "series": "s1"})
        for _ in range(kills):
            time.sleep(rng.uniform(0.2, 0.7))
            proc.kill9()
            try:
                orjson.loads((data / "scraper" / "queue.json").read_bytes())
            except (OSError, orjson.JSONDecodeError) as e:
                invalid_queue.append(str(e))
            proc = ScraperProcess(data, library, site.url, TOKEN).start()
            procs.append(proc)
        proc.wait_for(lambda s: s["revision"] >= chapters and s["queued"] == 0 and s["job"] is None,
                      timeout=120, what="all chapters")
    finally:
        stop.set()
        watcher.join()
        for p in procs:
            p.stop()
        site.stop()
    published = complete_chapters(library, pages)
    revision = orjson.loads((data / "scraper" / "queue.json").read_bytes())["revision"]  # one per publication
    refetched = sum(site.hits[p] - 1 for p in site.image_paths())
    staging = list((library / ".staging").iterdir()) if (library / ".staging").exists() else []
    figures.check("S1", "runscraper kill -9 mid-download", f"{kills} kills, {polls[0]} polls of LIBRARY",
                  "0 partial chapters seen; queue.json valid after every kill; each chapter published once; "
                  "at most one page fetched again per kill",
                  f"{len(partial)} partial seen; {len(invalid_queue)} invalid queue.json; {len(published)}/{chapters} "
                  f"chapters ({len(set(published))} distinct, {revision} publications); {refetched} pages fetched "
                  f"again; staging left: {len(staging)}; in {time.monotonic() - began:.0f} s",
                  not partial and not invalid_queue and not odd and len(published) == chapters == revision
                  and len(set(published)) == chapters and refetched <= kills and not staging)
