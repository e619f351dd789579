"""library/scan.py + build.py: the tree → the index, as docs/library.md describes it."""
import os
import shutil

from library.model import same_content
from tests.library.conftest import bump, make_page, publish, scan


def kinds(report):
    return {(w["kind"], w["path"]) for w in report["warnings"]}


def test_it_indexes_the_example_tree(library_dir):
    idx, report = scan(library_dir)
    assert report["error"] is None
    assert report["counts"] == {"manga": 2, "books": 2, "chapters": 3, "versions": 4, "pages": 9}
    assert [m.name for m in idx.sorted()] == ["Long Scroll", "Moon Garden"]
    moon = idx.get("Moon Garden")
    assert moon.title == "Moon Garden" and moon.meta["authors"] == ["A. Writer"] and moon.direction == "rtl"
    assert [b.key for b in moon.books] == ["1"] and moon.books[0].title == "Spring"
    assert moon.books[0].folder == "b01 Spring"
    assert [c.id for c in moon.chapters()] == ["1/1", "1/2"]
    roots = moon.chapter("1/2")
    assert roots.title == "Roots" and [v.source for v in roots.versions] == ["MangaDex", "Official"]
    official = roots.versions[1]
    assert official.name == "c0002 Roots [Official]"
    assert official.path == "Moon Garden/b01 Spring/c0002 Roots [Official]"
    assert [(p.file, p.w, p.h) for p in official.pages()] == [("001.png", 60, 90), ("002-003.png", 180, 90)]
    assert roots.versions[0].pages()[0].tags == ("cover",)
    assert moon.cover == "Moon Garden/b01 Spring/c0001 Seeds/001.png"
    scroll = idx.get("Long Scroll")
    assert scroll.books[0].key == "0" and scroll.books[0].folder is None
    assert scroll.direction == "ttb" and scroll.chapter("0/1").versions[0].direction == "ttb"
    assert moon.chapter("9/9") is None and idx.get("Nope") is None


def test_it_orders_books_chapters_and_takes_a_cover_file(tmp_path):
    m = tmp_path / "lib" / "Saga"
    for folder in ["x01 Side/c0001 Omake", "b02/c0010", "b02/c0002.5 Half", "b01/c0001", "b01/x01 Extra",
                   "b01/c0000 Prologue"]:
        make_page(m / folder / "001.jpg")
    make_page(m / "cover.webp", size=(30, 40))
    idx, _ = scan(tmp_path / "lib")
    saga = idx.get("Saga")
    assert [c.id for c in saga.chapters()] == ["1/0", "1/1", "1/x1", "2/2.5", "2/10", "x1/1"]
    assert [b.extra for b in saga.books] == [False, False, True]
    assert saga.cover == "Saga/cover.webp"


def test_it_reads_volume_chapter_names_and_book_folders_holding_pages(tmp_path):
    m = tmp_path / "lib" / "Old Download"
    make_page(m / "Vol.01 Ch.001 Start [Group]" / "01.jpg")
    make_page(m / "Vol.01 Ch.002" / "01.jpg")
    make_page(m / "Vol 02" / "001.jpg")
    idx, report = scan(tmp_path / "lib")
    manga = idx.get("Old Download")
    assert [c.id for c in manga.chapters()] == ["1/1", "1/2", "2/1"]
    assert manga.chapter("1/1").versions[0].source == "Group"
    assert manga.chapter("2/1").versions[0].path == "Old Download/Vol 02"
    assert report["warningCount"] == 0


def test_it_reads_unrecognised_folders_with_pages_and_warns(tmp_path):
    m = tmp_path / "lib" / "Odd"
    make_page(m / "c0001" / "1.jpg")
    make_page(m / "c0002" / "1.jpg")
    make_page(m / "Side Story [Fan]" / "1.jpg")
    (m / "Notes").mkdir()
    (m / "c0003").mkdir()
    idx, report = scan(tmp_path / "lib")
    odd = idx.get("Odd")
    # c0003 is empty, yet its key stays reserved, so the unrecognised folder's key is stable.
    assert [c.id for c in odd.chapters()] == ["0/1", "0/2", "0/4"]
    side = odd.chapter("0/4").versions[0]
    assert (side.title, side.source) == ("Side Story", "Fan")
    assert kinds(report) == {("unrecognised-folder", "Odd/Side Story [Fan]"), ("skipped-folder", "Odd/Notes"),
                             ("empty-chapter", "Odd/c0003")}


def test_it_reads_pages_lying_in_the_manga_folder_as_a_chapter(tmp_path):
    m = tmp_path / "lib" / "Oneshot"
    make_page(m / "01.jpg")
    make_page(m / "02.jpg")
    make_page(m / "cover.jpg")
    idx, report = scan(tmp_path / "lib")
    version = idx.get("Oneshot").chapter("0/1").versions[0]
    assert version.path == "Oneshot" and version.files() == ["01.jpg", "02.jpg"]
    assert idx.get("Oneshot").cover == "Oneshot/cover.jpg"
    assert ("unrecognised-folder", "Oneshot") in kinds(report)


def test_it_applies_chapter_json_and_ranks_versions(tmp_path):
    m = tmp_path / "lib" / "Moon"
    (m).mkdir(parents=True)
    (m / "manga.json").write_text('{"title": "The Moon", "sortTitle": "Moon, The", "direction": "ltr"}')
    make_page(m / "c0001 Old Title [A]" / "1.jpg")
    make_page(m / "c0001 Old Title [B]" / "1.jpg")
    (m / "c0001 Old Title [B]" / "chapter.json").write_text(
        '{"title": "Better", "priority": 5, "source": "Bee", "direction": "ttb", "x": 1}')
    idx, _ = scan(tmp_path / "lib")
    moon = idx.get("Moon")
    assert (moon.title, moon.sort_title, moon.direction) == ("The Moon", "Moon, The", "ltr")
    chapter = moon.chapter("0/1")
    a, b = chapter.versions
    assert (a.direction, b.direction) == ("ltr", "ttb")
    assert (b.title, b.source, b.priority, b.meta["x"]) == ("Better", "Bee", 5, 1)
    assert chapter.ranked() == [b, a] and chapter.title == "Better"
    assert a.meta == {}


def test_it_reports_invalid_json_and_still_reads_the_folder(tmp_path):
    m = tmp_path / "lib" / "Broken Meta"
    make_page(m / "c0001" / "1.jpg")
    (m / "manga.json").write_text('{"title": ')
    (m / "c0001" / "chapter.json").write_text('{"priority": "high"}')
    idx, report = scan(tmp_path / "lib")
    manga = idx.get("Broken Meta")
    assert manga.title == "Broken Meta" and manga.meta == {}
    assert manga.chapter("0/1").versions[0].priority == 0
    assert kinds(report) == {("invalid-json", "Broken Meta/manga.json"),
                             ("invalid-metadata", "Broken Meta/c0001/chapter.json")}


def test_it_detects_webtoons_by_page_shape(tmp_path):
    m = tmp_path / "lib" / "Tall"
    for n in range(3):
        make_page(m / "c0001" / f"{n}.png", size=(50, 400))
    idx, _ = scan(tmp_path / "lib", default_direction="ltr")
    assert idx.get("Tall").direction == "ttb" and idx.get("Tall").chapters()[0].versions[0].direction == "ttb"


def test_it_reuses_unchanged_manga_in_a_shallow_check(library_dir):
    first, _ = scan(library_dir)
    second, report = scan(library_dir, first, "shallow")
    assert all(second.manga[n] is first.manga[n] for n in first.manga)
    assert report["work"]["listings"] == 0 and report["work"]["headers"] == 0
    assert report["changed"] == {"added": [], "changed": [], "removed": []}


def test_a_full_scan_keeps_the_objects_of_manga_it_found_unchanged(library_dir):
    from library.scan import differs
    first, _ = scan(library_dir)
    second, report = scan(library_dir, first, "full")
    assert report["work"]["listings"] > 0  # it did read every folder again
    assert all(second.manga[n] is first.manga[n] for n in first.manga)
    assert not differs(first, second)
    publish(library_dir / "Moon Garden" / "b01 Spring" / "c0003 Leaves")
    third, report = scan(library_dir, second, "full")
    assert third.manga["Moon Garden"] is not second.manga["Moon Garden"]
    assert third.manga["Long Scroll"] is second.manga["Long Scroll"]
    assert report["changed"]["changed"] == ["Moon Garden"] and differs(second, third)


def test_a_full_scan_takes_a_new_object_when_only_stamps_moved(library_dir):
    first, _ = scan(library_dir)
    bump(library_dir / "Long Scroll")  # same pages, a newer folder mtime: a shallow check must see the new stamp
    second, report = scan(library_dir, first, "full")
    assert second.manga["Long Scroll"] is not first.manga["Long Scroll"]
    assert second.manga["Long Scroll"].stamp != first.manga["Long Scroll"].stamp
    assert report["changed"]["changed"] == []  # nothing shown changed
    third, _ = scan(library_dir, second, "shallow")
    assert third.manga["Long Scroll"] is second.manga["Long Scroll"]


def test_it_finds_a_chapter_renamed_into_place_in_one_shallow_check(library_dir):
    first, _ = scan(library_dir)
    publish(library_dir / "Moon Garden" / "b01 Spring" / "c0003 Leaves")
    second, report = scan(library_dir, first, "shallow")
    assert second.get("Moon Garden").chapter("1/3") is not None
    assert report["changed"]["changed"] == ["Moon Garden"]
    assert second.manga["Long Scroll"] is first.manga["Long Scroll"]
    assert report["work"]["headers"] == 2  # only the new pages


def test_it_notices_added_and_removed_manga(library_dir):
    first, _ = scan(library_dir)
    shutil.rmtree(library_dir / "Long Scroll")
    publish(library_dir / "New One" / "c0001")
    second, report = scan(library_dir, first, "shallow")
    assert report["changed"] == {"added": ["New One"], "changed": [], "removed": ["Long Scroll"]}
    assert sorted(second.manga) == ["Moon Garden", "New One"]


def test_it_watches_empty_folders_until_they_fill(library_dir):
    chapter = library_dir / "Moon Garden" / "c0005"
    chapter.mkdir()
    first, report = scan(library_dir)
    assert ("empty-chapter", "Moon Garden/c0005") in kinds(report)
    make_page(chapter / "001.png")  # filled in place: only the chapter folder's own mtime moves
    bump(chapter)
    second, report = scan(library_dir, first, "shallow")
    assert second.get("Moon Garden").chapter("0/5") is not None
    assert report["warningCount"] == 0


def test_it_catches_in_place_overwrites_only_in_a_full_scan(library_dir):
    first, _ = scan(library_dir)
    folder = library_dir / "Moon Garden" / "b01 Spring" / "c0001 Seeds"
    before = os.stat(folder)
    make_page(folder / "001.png", size=(300, 90))
    os.utime(folder, ns=(before.st_atime_ns, before.st_mtime_ns))
    shallow, _ = scan(library_dir, first, "shallow")
    assert shallow.get("Moon Garden").chapter("1/1").versions[0].pages()[0].w == 60
    full, report = scan(library_dir, first, "full")
    assert full.get("Moon Garden").chapter("1/1").versions[0].pages()[0].w == 300
    assert report["changed"]["changed"] == ["Moon Garden"]
    assert full.manga["Moon Garden"] is not first.manga["Moon Garden"]


def test_it_reads_headers_only_for_files_the_cache_does_not_know(library_dir):
    first = scan(library_dir)
    from library.scan import Scan
    warm = Scan(library_dir, None, "full")
    warm.run()
    again = Scan(library_dir, None, "full", cache=warm.new_cache)
    idx, report = again.run()
    assert report["work"]["headers"] == 0
    assert all(same_content(idx.manga[n], first[0].manga[n]) for n in idx.manga)


def test_it_gives_the_same_index_with_a_thread_pool(library_dir):
    one, _ = scan(library_dir)
    four, _ = scan(library_dir, concurrency=4)
    assert all(same_content(one.manga[n], four.manga[n]) for n in one.manga)


def test_it_keeps_the_previous_index_when_library_is_missing_or_emptied(library_dir, tmp_path):
    first, _ = scan(library_dir)
    missing, report = scan(tmp_path / "unmounted", first, "shallow")
    assert missing is None and "cannot be read" in report["error"]
    assert report["counts"]["manga"] == 2  # the counts of the index that stays
    empty = tmp_path / "empty"
    empty.mkdir()
    kept, report = scan(empty, first, "full")
    assert kept is None and "is empty" in report["error"]
    accepted, report = scan(empty, first, "full", allow_empty=True)
    assert report["error"] is None and accepted.manga == {}
    assert report["changed"]["removed"] == ["Long Scroll", "Moon Garden"]


def test_it_never_follows_links_out_of_the_library(library_dir, tmp_path):
    outside = tmp_path / "outside"
    make_page(outside / "secret" / "001.png")
    os.symlink(outside / "secret", library_dir / "Moon Garden" / "c0009 Leak")
    os.symlink(outside, library_dir / "Outside Manga")
    os.symlink(outside / "secret" / "001.png", library_dir / "Long Scroll" / "c0001 Start [Official]" / "004.png")
    os.symlink(library_dir / "Moon Garden" / "b01 Spring", library_dir / "Long Scroll" / "b07 Linked Inside")
    os.symlink("loop-b", library_dir / "Moon Garden" / "loop-a")
    os.symlink("loop-a", library_dir / "Moon Garden" / "loop-b")
    idx, report = scan(library_dir)
    assert "Outside Manga" not in idx.manga and idx.get("Moon Garden").chapter("0/9") is None
    assert idx.get("Long Scroll").chapter("0/1").versions[0].page_count == 3
    assert idx.get("Long Scroll").chapter("7/2") is not None  # a link inside the tree is followed
    assert {("symlink-outside", "Outside Manga"), ("symlink-outside", "Moon Garden/c0009 Leak"),
            ("symlink-outside", "Long Scroll/c0001 Start [Official]/004.png"),
            ("unreadable", "Moon Garden/loop-a"), ("unreadable", "Moon Garden/loop-b")} <= kinds(report)


def test_it_keeps_a_manga_whose_folder_cannot_be_read_right_now(library_dir, monkeypatch):
    # Running as root, permissions cannot make a folder unreadable here; the builder raising the
    # error a real EACCES/EIO would raise stands in for it.
    from library import build

    first, _ = scan(library_dir)
    real_build = build.MangaBuilder.build

    def failing(self):
        if self.name == "Moon Garden":
            raise PermissionError(13, "Permission denied")
        return real_build(self)

    monkeypatch.setattr(build.MangaBuilder, "build", failing)
    for _ in range(2):
        kept, report = scan(library_dir, first, "full")
        assert kept.manga["Moon Garden"] is first.manga["Moon Garden"]
        assert [w["kind"] for w in report["warnings"]] == ["unreadable"]  # once, not once per scan
        assert report["changed"]["removed"] == []
        first = kept


def test_a_scan_that_finds_no_manga_reports_its_own_warnings_not_the_previous_index(tmp_path):
    """An empty Index is falsy: the report used to describe the previous index instead, so a
    library whose every file was skipped looked empty with no warning at all."""
    from library.scan import Scan

    root = tmp_path / "library"
    root.mkdir()
    make_page(root / "stray.jpg")  # pages at the top level are not read, with a warning
    (root / "notes.txt").write_text("not a page")
    index, report = Scan(root, None, "full").run()
    assert index is not None and len(index) == 0
    assert report["counts"]["manga"] == 0
    assert {w["path"] for w in report["warnings"]} >= {"stray.jpg"}, report["warnings"]
    assert report["warningCount"] >= 1
