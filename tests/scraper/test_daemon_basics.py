from scraper import queue
from tests.scraper.conftest import drain


def test_it_adds_a_series_and_publishes_every_chapter(daemon, site, library):
    job, created = queue.add_job(daemon.queue, "add", "fake", "s1")
    assert created
    drain(daemon)
    manga = library / "Moon Garden"
    folders = sorted(p.name for p in manga.iterdir() if p.is_dir())
    assert folders == ["c0001 Part 1 [Fans]", "c0002 Part 2 [Fans]", "c0003 Part 3 [Fans]"]
    files = sorted(p.name for p in (manga / folders[0]).iterdir())
    assert files == ["001.png", "002.png", "003.png", "004.png", "chapter.json"]
    assert daemon.queue.data["revision"] == 3
    assert not any((library / ".staging").iterdir())
