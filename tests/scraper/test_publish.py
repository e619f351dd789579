"""Staging, verification and publication: names, image checks, crash recovery (docs/scraper.md)."""
import io
import json
import os

import pytest
from PIL import Image

from scraper import names, queue
from scraper.errors import BadImage
from scraper.images import verify
from scraper.publish import Library
from tests.scraper.conftest import drain


def image_bytes(fmt, size=(30, 40)):
    out = io.BytesIO()
    Image.new("RGB", size, (10, 20, 30)).save(out, fmt)
    return out.getvalue()


@pytest.mark.parametrize("number,title,bracket,expected", [
    ("2", "Roots", "MangaDex", "c0002 Roots [MangaDex]"),
    ("2.5", "Interlude", "", "c0002.5 Interlude"),
    ("0012.50", "", "Fans", "c0012.50 [Fans]"),
    ("3.10", "A/B: C?", "G<1>", "c0003.10 A_B_ C_ [G_1_]"),
    (None, "Oneshot", "X", "SP01 Oneshot [X]"),
])
def test_it_names_chapter_folders(number, title, bracket, expected):
    assert names.chapter_folder(number, title, bracket) == expected


def test_it_keeps_names_within_255_bytes():
    name = names.chapter_folder("1", "漢" * 200, "グ" * 100)
    assert len(name.encode()) <= 255 and name.startswith("c0001 ")
    assert names.page_file(0, 12, "jpg") == "001.jpg" and names.page_file(1200, 1500, "png") == "1201.png"


@pytest.mark.parametrize("fmt,ext", [
    ("JPEG", "jpg"), ("PNG", "png"), ("WEBP", "webp"), ("GIF", "gif"), ("AVIF", "avif"),
])
def test_it_accepts_allowed_image_types_with_the_extension_of_their_bytes(fmt, ext):
    assert verify(image_bytes(fmt))[0] == ext


@pytest.mark.parametrize("data", [
    b"",
    b"<!doctype html><html><body>Just a moment...</body></html>",
    b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    image_bytes("TIFF"),
    image_bytes("BMP"),
    image_bytes("JPEG")[:300],
    image_bytes("PNG")[:-20],
    b"%PDF-1.4 not an image",
])
def test_it_refuses_what_is_not_an_allowed_image(data):
    with pytest.raises(BadImage):
        verify(data)


def test_it_refuses_a_decompression_bomb():
    out = io.BytesIO()
    Image.new("1", (12000, 12000)).save(out, "PNG")  # a few KB, 144 megapixels
    with pytest.raises(BadImage, match="bomb"):
        verify(out.getvalue())


def test_it_publishes_with_a_distinct_name_when_the_folder_is_taken(tmp_path):
    library = Library(tmp_path)
    (tmp_path / "Moon" / "c0001 Start [Fans]").mkdir(parents=True)
    staging = library.staging_dir("jx-1")
    library.store_page(staging, 0, 1, image_bytes("PNG"))
    folder = library.publish_chapter(staging, "Moon", "c0001 Start [Fans]", {"source": "fake", "sourceId": "c1"},
                                     {"sources": {"fake": "s1"}})
    assert folder.startswith("c0001 Start [Fans] #") and (tmp_path / "Moon" / folder / "001.png").is_file()
    assert sorted(os.listdir(tmp_path / "Moon" / "c0001 Start [Fans]")) == []  # the other one untouched


def test_it_records_a_publication_interrupted_before_its_revision_was_saved(daemon, library):
    """Renamed into place, then the crash: on the next run the revision moves exactly once."""
    queue.add_job(daemon.queue, "add", "fake", "s1")
    assert daemon.process_one_job()
    job = next(j for j in daemon.queue.data["jobs"] if j["kind"] == "chapters")
    # What the crashed run left behind: chapter 1 in place, the checkpoint still on it.
    staging = daemon.library.staging_dir(names.staging_name(job["id"], "s1c1"))
    daemon.library.store_page(staging, 0, 1, image_bytes("PNG"))
    daemon.library.publish_chapter(staging, "Moon Garden", "c0001 Part 1 [Fans]",
                                   {"source": "fake", "sourceId": "s1c1"}, {"sources": {"fake": "s1"}})
    queue.checkpoint(daemon.queue, job, "s1c1", 1, "x")
    drain(daemon)
    assert daemon.queue.data["revision"] == 3
    assert [p["chapter"] for p in daemon.queue.data["published"]] == [
        "c0001 Part 1 [Fans]", "c0002 Part 2 [Fans]", "c0003 Part 3 [Fans]"]
    assert len([p for p in (library / "Moon Garden").iterdir() if p.is_dir()]) == 3


def test_pages_checkpoint_with_the_next_flush_and_a_publication_finds_its_chapter_on_disk(daemon):
    """A page's checkpoint waits for queue.json's next flush (the staged files are what a restart
    resumes from); the checkpoint naming the chapter is on disk before the chapter is renamed in,
    which is what recovers a publication interrupted before its revision was saved."""
    daemon.queue.delay = daemon.queue.max_wait = 3600  # no background flush: only the saves made now
    queue.add_job(daemon.queue, "add", "fake", "s1")
    assert daemon.process_one_job()
    on_disk_at_publication = []
    publish = daemon.library.publish_chapter

    def publish_and_look(staging, manga, folder, *args, **kwargs):
        jobs = json.loads((daemon.dir / "queue.json").read_bytes())["jobs"]
        checkpoint = next(j for j in jobs if j["kind"] == "chapters")["checkpoint"]
        on_disk_at_publication.append((checkpoint["chapter"], checkpoint["page"]))
        return publish(staging, manga, folder, *args, **kwargs)

    daemon.library.publish_chapter = publish_and_look
    flushes = daemon.queue.flushes
    drain(daemon)
    assert on_disk_at_publication == [("s1c1", 4), ("s1c2", 4), ("s1c3", 4)]
    # 12 pages, 3 chapters: a save before each publication and one with it, and the job's start and
    # end make 8 (a save for each page made 17).
    assert daemon.queue.flushes - flushes <= 8, daemon.queue.flushes - flushes
    assert daemon.queue.data["revision"] == 3


def test_it_recovers_a_new_manga_caught_between_its_two_renames(tmp_path):
    library = Library(tmp_path)
    staging = library.staging_dir("jy-1")
    library.store_page(staging, 0, 2, image_bytes("PNG"))
    # The state after the first rename (chapter into the wrapper) and before the second.
    wrapper = staging.with_name("jy-1.manga")
    (wrapper / "Moon").mkdir(parents=True)
    os.rename(staging, wrapper / "Moon" / "c0001 Start")
    staging = library.staging_dir("jy-1")
    assert list(library.stored_pages(staging).values()) == ["001.png"]
    assert not wrapper.exists() and not (tmp_path / "Moon").exists()


def test_it_removes_staging_of_jobs_that_are_gone(tmp_path):
    library = Library(tmp_path)
    library.staging_dir("jkeep-1")
    library.staging_dir("jgone-1")
    assert library.clean_staging({"jkeep"}) == ["jgone-1"]
    assert os.listdir(tmp_path / ".staging") == ["jkeep-1"]
