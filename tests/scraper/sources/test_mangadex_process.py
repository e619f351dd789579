"""A real runscraper on the fake MangaDex (MANGADEX_API_URL), killed with SIGKILL at random points."""
import json
import random
import threading
import time

import pytest

from bench.fakedex import FakeDex, Group
from tests.scraper.conftest import TOKEN
from tests.scraper.support import ScraperProcess

pytestmark = pytest.mark.process


def chapters_seen(library):
    """Every chapter folder a reader could see now; fails on an incomplete one."""
    found = []
    for chapter_json_dir in [p for p in [*library.glob("*/*"), *library.glob("*/*/*")] if p.is_dir()]:
        if any(part.startswith(".") for part in chapter_json_dir.relative_to(library).parts):
            continue
        if not chapter_json_dir.name.startswith("c0"):
            continue
        names = sorted(p.name for p in chapter_json_dir.iterdir())
        assert names == ["001.png", "002.png", "003.png", "chapter.json"], f"partial {chapter_json_dir}: {names}"
        found.append(str(chapter_json_dir.relative_to(library)))
    return sorted(found)


def test_kill_9_at_random_points_leaves_no_partial_folder(tmp_path, library):
    dex = FakeDex().start()
    manga = dex.add_manga("Small Tale", original="ja")
    fans = Group("Fans")
    for number, volume in (("1", "1"), ("2", "1"), ("3", None)):
        dex.add_chapter(manga, number, volume, f"Part {number}", (fans,))
    partial, stop = [], threading.Event()

    def watch():
        while not stop.is_set():
            try:
                chapters_seen(library)
            except AssertionError as e:
                partial.append(str(e))
            except FileNotFoundError:
                pass
            time.sleep(0.005)

    watcher = threading.Thread(target=watch)
    watcher.start()
    procs = []

    def start():
        procs.append(ScraperProcess(tmp_path / "data", library, "", TOKEN, {"MANGADEX_API_URL": dex.url}).start())
        return procs[-1]

    rng = random.Random(11)
    try:
        proc = start()
        status, _ = proc.call("POST", "/series", {"source": "mangadex", "id": manga, "lang": "en"})
        assert status == 201
        for _kill in range(4):
            time.sleep(rng.uniform(0.5, 2.5))
            proc.kill9()
            json.loads((tmp_path / "data" / "scraper" / "queue.json").read_text())  # always whole
            proc = start()
        proc.wait_for(lambda s: s["revision"] == 3 and s["queued"] == 0 and s["job"] is None, timeout=90,
                      what="all chapters")
    finally:
        stop.set()
        watcher.join()
        for p in procs:
            p.stop()
        dex.stop()
    assert partial == []
    assert chapters_seen(library) == ["Small Tale/Vol. 1/c0001 Part 1 [Fans]", "Small Tale/Vol. 1/c0002 Part 2 [Fans]",
                                      "Small Tale/c0003 Part 3 [Fans]"]
    state = json.loads((tmp_path / "data" / "scraper" / "queue.json").read_text())
    # One revision per chapter, each chapter published once.
    assert state["revision"] == 3 and len({p["chapter"] for p in state["published"]}) == 3
    assert dex.max_inflight == 1
