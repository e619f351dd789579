"""The folder source: folders of images, chapter folders and CBZ/ZIP archives, imported through
the same staging and publication as any download; hostile archives and paths refused."""
import io
import json
import os
import shutil
import zipfile

import pytest
from PIL import Image

from scraper import api, queue
from scraper.errors import InvalidInput
from scraper.sources.folder import parse_chapter_name
from tests.scraper.conftest import drain


def png(shade=100):
    out = io.BytesIO()
    Image.new("RGB", (30, 45), (shade, shade, shade)).save(out, "PNG")
    return out.getvalue()


def jpeg():
    out = io.BytesIO()
    Image.new("RGB", (30, 45), (1, 2, 3)).save(out, "JPEG")
    return out.getvalue()


def cbz(path, members, compression=zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(path, "w", compression) as zf:
        for name, data in members.items():
            zf.writestr(name, data)


def import_folder(daemon, path):
    job, _ = queue.add_job(daemon.queue, "add", "folder", str(path))
    drain(daemon)
    return job


def chapters_job(daemon):
    return next(j for j in daemon.queue.data["jobs"] if j["kind"] == "chapters")


def contents(folder):
    return sorted(os.listdir(folder))


@pytest.mark.parametrize("name,expected", [
    ("c0002 Roots", ("2", "Roots")), ("Chapter 12.5 - The End", ("12.5", "The End")),
    ("Vol 1 Ch 3 [Group]", ("3", "")), ("Ch.7", ("7", "")), ("#4 Four", ("4", "Four")),
    ("Sky 12.cbz", ("12", "")), ("Prologue", ("", "Prologue")),
])
def test_it_reads_chapter_numbers_from_names(name, expected):
    assert parse_chapter_name(name) == expected


def test_it_imports_a_folder_of_chapter_folders(daemon, imports, library):
    series = imports / "Star Field"
    for chapter, pages in (("c0001 Start", 2), ("Chapter 2.5 - Mid", 1), ("Bonus art", 1)):
        for n in range(pages):
            (series / chapter).mkdir(parents=True, exist_ok=True)
            (series / chapter / f"{n + 1}.png").write_bytes(png(n * 40))
    (series / "c0001 Start" / "notes.txt").write_text("not a page")
    (series / "empty").mkdir()
    import_folder(daemon, series)
    assert contents(library / "Star Field") == [
        "c0001 Start [Import]", "c0002.5 Mid [Import]", "c0003 Bonus art [Import]", "manga.json"]
    assert contents(library / "Star Field" / "c0001 Start [Import]") == ["001.png", "002.png", "chapter.json"]
    assert daemon.queue.data["revision"] == 3


def test_it_imports_archives_and_sets_extensions_from_the_bytes(daemon, imports, library):
    series = imports / "Boxed"
    series.mkdir()
    cbz(series / "Vol 1 Ch 1.cbz", {"pages/10.jpg": png(1), "pages/2.jpg": jpeg(), "__MACOSX/._2.jpg": b"junk",
                                      "ComicInfo.xml": b"<x/>", ".hidden.png": png(2)})
    cbz(series / "Vol 1 Ch 2.zip", {"a.png": png(3)}, zipfile.ZIP_STORED)
    import_folder(daemon, series)
    assert contents(library / "Boxed" / "c0001 [Import]") == ["001.jpg", "002.png", "chapter.json"]
    assert contents(library / "Boxed" / "c0002 [Import]") == ["001.png", "chapter.json"]


def test_it_imports_loose_images_as_one_chapter_and_only_new_ones_again(daemon, imports, library):
    series = imports / "Loose"
    series.mkdir()
    for n in range(3):
        (series / f"page{n + 1}.png").write_bytes(png(n))
    import_folder(daemon, series)
    assert contents(library / "Loose") == ["c0001 [Import]", "manga.json"]
    cbz(series / "ch 2.cbz", {"1.png": png(9)})
    job, _ = queue.add_job(daemon.queue, "update", "folder", str(series))
    drain(daemon)
    assert contents(library / "Loose") == ["c0001 [Import]", "c0002 [Import]", "manga.json"]
    assert daemon.queue.data["revision"] == 2


def test_it_never_writes_archive_member_names_to_disk(daemon, imports, library, tmp_path):
    series = imports / "Slip"
    series.mkdir()
    cbz(series / "c1.cbz", {"../../../evil.png": png(), "/abs/evil2.png": png(5), "ok.png": png(7)})
    before = set(os.listdir(tmp_path))
    import_folder(daemon, series)
    assert set(os.listdir(tmp_path)) == before
    # The archive reader the scan uses refuses both names, with a warning each; the page left is renamed.
    assert contents(library / "Slip" / "c0001 [Import]") == ["001.png", "chapter.json"]
    warnings = chapters_job(daemon)["warnings"]
    assert any("../../../evil.png" in w and "'..'" in w for w in warnings), warnings
    assert any("/abs/evil2.png" in w and "absolute path" in w for w in warnings), warnings


def test_it_skips_a_zip_bomb_member_with_a_warning_as_the_scan_does(daemon, imports, library):
    series = imports / "Bomb"
    series.mkdir()
    cbz(series / "c1.cbz", {"1.png": png(), "2.png": b"\0" * (3 << 20)})  # zeros compress ~1000:1
    import_folder(daemon, series)
    job = chapters_job(daemon)
    assert job["state"] == "done", job
    assert any("2.png" in w and "zip bomb" in w for w in job["warnings"]), job["warnings"]
    assert contents(library / "Bomb" / "c0001 [Import]") == ["001.png", "chapter.json"]


def test_it_refuses_an_archive_with_more_members_than_the_scan_reads(daemon, imports, library):
    from library.zipread import MAX_MEMBERS

    series = imports / "Many"
    series.mkdir()
    cbz(series / "c1.cbz", {f"{n}.txt": b"" for n in range(MAX_MEMBERS + 1)}, zipfile.ZIP_STORED)
    import_folder(daemon, series)
    assert "members" in chapters_job(daemon)["error"] and not any(p.is_dir() for p in (library / "Many").iterdir())


def test_it_refuses_a_member_whose_data_does_not_match_its_checksum(daemon, imports, library):
    series = imports / "Flip"
    series.mkdir()
    page = png()
    cbz(series / "c1.cbz", {"1.png": page}, zipfile.ZIP_STORED)
    raw = bytearray((series / "c1.cbz").read_bytes())
    at = raw.index(page) + len(page) - 20  # a byte inside the image data, past its header
    raw[at] ^= 0xFF
    (series / "c1.cbz").write_bytes(bytes(raw))
    import_folder(daemon, series)
    job = chapters_job(daemon)
    # the chapter fails on its own (the job goes on with any other): docs/scraper.md, "When a chapter fails"
    assert job["state"] == "done" and len(job["failed"]) == 1 and "checksum" in job["error"], job
    assert not any(p.is_dir() for p in (library / "Flip").iterdir())


def test_it_refuses_a_non_image_named_like_one(daemon, imports, library):
    series = imports / "Fake"
    (series / "c1").mkdir(parents=True)
    (series / "c1" / "1.png").write_bytes(png())
    (series / "c1" / "2.jpg").write_bytes(b"<svg xmlns='http://www.w3.org/2000/svg'/>")
    import_folder(daemon, series)
    job = chapters_job(daemon)
    assert job["state"] == "done" and len(job["failed"]) == 1 and "page 2" in job["error"], job
    assert not any(p.is_dir() for p in (library / "Fake").iterdir())


def test_it_refuses_paths_outside_the_import_roots(daemon, imports, tmp_path):
    outside = tmp_path / "elsewhere"
    (outside / "c1").mkdir(parents=True)
    (outside / "c1" / "1.png").write_bytes(png())
    (imports / "link").symlink_to(outside)
    source = __import__("scraper.sources", fromlist=["get"]).get("folder")
    paths = (str(outside), str(imports / "link"), str(imports / ".." / "elsewhere"), "relative/path",
             str(imports / "missing"))
    for path in paths:
        with pytest.raises(InvalidInput):
            source.check_id(daemon.local, path)


def test_it_finds_folders_to_import_by_name(daemon, imports):
    (imports / "Moon Garden").mkdir()
    (imports / "Shelf" / "Moon Child").mkdir(parents=True)
    (imports / "Other").mkdir()
    source = __import__("scraper.sources", fromlist=["get"]).get("folder")
    assert sorted(r.title for r in source.search(daemon.local, "moon")) == ["Moon Child", "Moon Garden"]
    assert sorted(r.title for r in source.search(daemon.local, "")) == ["Moon Garden", "Other", "Shelf"]


def test_it_skips_a_chapter_that_links_out_of_the_import_roots_and_imports_the_rest(daemon, imports, library,
                                                                                    tmp_path):
    outside = tmp_path / "elsewhere"
    (outside / "secret").mkdir(parents=True)
    (outside / "secret" / "1.png").write_bytes(png())
    cbz(outside / "leak.cbz", {"1.png": png()})
    series = imports / "Linked"
    for chapter in ("c0001 One", "c0003 Three"):
        (series / chapter).mkdir(parents=True)
        (series / chapter / "1.png").write_bytes(png())
    (series / "c0002 Two").symlink_to(outside / "secret")
    (series / "c0004.cbz").symlink_to(outside / "leak.cbz")
    job = import_folder(daemon, series)
    assert job["state"] == "done" and job["error"] is None
    assert contents(library / "Linked") == ["c0001 One [Import]", "c0003 Three [Import]", "manga.json"]
    assert len(job["warnings"]) == 2
    assert all("not inside an import folder" in w for w in job["warnings"])
    assert "c0002 Two" in job["warnings"][0] and "c0004.cbz" in job["warnings"][1]
    [shown] = api.history(daemon, {}, {})["warnings"]
    assert shown["id"] == job["id"] and shown["warnings"] == job["warnings"]


@pytest.mark.parametrize("name,manga", [("Trailing ", "Trailing"), ("Vol. 2.", "Vol. 2"), ("Both. ", "Both")])
def test_it_queues_and_imports_a_folder_whose_name_ends_in_a_space_or_dot(daemon, imports, library, name, manga):
    series = imports / name
    (series / "c1 ").mkdir(parents=True)
    (series / "c1 " / "1.png").write_bytes(png())
    (series / "c2.").mkdir()
    (series / "c2." / "1.png").write_bytes(png())
    status, answer = api.add_series(daemon, {"source": "folder", "id": str(series)}, {})
    assert status == 201 and answer["job"]["series"] == str(series)
    drain(daemon)
    assert contents(library / manga) == ["c0001 [Import]", "c0002 [Import]", "manga.json"]
    assert [s["manga"] for s in queue.list_series(daemon.queue)] == [manga]


@pytest.mark.process  # 7zz and tar make the CB7 and the CBT
def test_it_imports_cbr_cb7_cbt_epub_and_pdf_chapters_in_their_reading_order(daemon, imports, library, tmp_path):
    """Komga's RAR4 and solid RAR5 archives, a CB7 by 7-Zip, a CBT by tar, an EPUB whose spine runs
    against its file names, and a PDF (tests/library/test_formats.py makes them the same way)."""
    from tests.library.test_formats import KOMGA, fixed_layout_epub, seven_zip, tar, written
    series = imports / "Every Format"
    series.mkdir()
    shutil.copy(KOMGA / "rar4.rar", series / "Every Format c001.cbr")
    shutil.copy(KOMGA / "rar5-solid.rar", series / "Every Format c002.cbr")
    seven_zip(series / "Every Format c003.cb7", written(tmp_path / "seven", {"1.png": png(10), "2.png": png(20)}))
    tar(series / "Every Format c004.cbt", written(tmp_path / "tar", {"p1.jpg": jpeg()}))
    fixed_layout_epub(series / "Every Format c005.epub", {"a.png": png(30), "b.png": png(40), "c.png": png(50)})
    pages = [Image.new("RGB", (40, 60), (n * 60, 0, 0)) for n in range(2)]
    pages[0].save(series / "Every Format c006.pdf", save_all=True, append_images=pages[1:])
    import_folder(daemon, series)
    made = {n: contents(library / "Every Format" / f"c{n:04d} [Import]") for n in range(1, 7)}
    assert made == {1: ["001.png", "002.png", "003.png", "chapter.json"],
                    2: ["001.png", "002.png", "003.png", "chapter.json"],
                    3: ["001.png", "002.png", "chapter.json"], 4: ["001.jpg", "chapter.json"],
                    5: ["001.png", "002.png", "003.png", "chapter.json"], 6: ["001.jpg", "002.jpg", "chapter.json"]}
    epub_pages = [(library / "Every Format" / "c0005 [Import]" / f"{n:03d}.png").read_bytes() for n in (1, 2, 3)]
    assert epub_pages == [png(50), png(40), png(30)]  # the spine's order (right to left), not the names'
    refused = imports / "Refused Format"
    refused.mkdir()
    shutil.copy(KOMGA / "rar4-solid.rar", refused / "Refused Format c001.cbr")
    import_folder(daemon, refused)
    assert not [p for p in (library / "Refused Format").glob("*") if p.is_dir()]  # no chapter
    said = json.dumps(daemon.queue.data["jobs"])  # the job says why, with the archive's name
    assert "Refused Format c001.cbr is refused: it is a solid RAR4 archive" in said, said
