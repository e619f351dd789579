"""A mixed library (image folders, a CBZ per chapter, a CBZ per volume, ComicInfo.xml in both) read
through the API and /lib/ as a user sees it, and archives across scans (cache, shallow checks)."""
import os
from urllib.parse import quote

import pytest

from library.scan import Scan
from tests.conftest import make_page
from tests.library.cbz import comic_info, make_cbz, pages
from tests.support.app import AppServer
from tests.support.pages import wait_for_library

SERIES_INFO = comic_info(Series="Star Ferry", Title="Departure", Number="1", Writer="Ann Writer, Bo Writer",
                         Penciller="Cy Artist", Genre="Drama", Tags="Boats", Web="https://example.org/star",
                         LanguageISO="en", Manga="YesAndRightToLeft", Year="2019", Summary="A ferry & a star",
                         pages_xml='<Pages><Page Image="0" Type="FrontCover"/><Page Image="3" Type="Deleted"/></Pages>')


def mixed_tree(root):
    """Star Ferry: c001 as a CBZ with ComicInfo (4 pages, one Deleted), c002 as a folder with its own
    ComicInfo.xml, volume 2 as one deflated CBZ holding two chapter folders under a wrapper, and an
    unparseable archive name whose ComicInfo gives the number."""
    m = root / "Star Ferry"
    make_cbz(m / "Star Ferry c001 [Crew].cbz", {**pages(4), "ComicInfo.xml": SERIES_INFO})
    for n in (1, 2):
        make_page(m / "c002 Harbour" / f"{n:03d}.png")
    (m / "c002 Harbour" / "ComicInfo.xml").write_bytes(comic_info(Title="The Harbour", Number="99"))
    make_cbz(m / "Star Ferry v02.cbz", {**pages(2, folder="Star Ferry v02/Chapter 3 Night/"),
                                        **pages(3, folder="Star Ferry v02/Chapter 4/"),
                                        "Star Ferry v02/__MACOSX/._001.png": b"junk", ".DS_Store": b"junk"},
             deflate=True)
    make_cbz(m / "bonus story.cbz", {**pages(2), "ComicInfo.xml": comic_info(Number="7.5", Title="Bonus")})
    make_page(root / "Moon Garden" / "c0001 Seeds" / "001.png")
    return root


@pytest.fixture
def mixed(tmp_path, data_dir):
    library = mixed_tree(tmp_path / "library")
    srv = AppServer(data_dir, library).start()
    yield srv, library
    srv.stop()


def test_it_reads_folders_and_archives_of_every_layout_through_the_api(mixed):
    srv, library = mixed
    user = srv.client().signup("admin", "a long enough password")
    status, _, manga = user.get("/api/manga?m=" + quote("Star Ferry"))
    assert status == 200, manga
    assert manga["title"] == "Star Ferry"
    meta = manga["meta"]
    assert meta["authors"] == ["Ann Writer", "Bo Writer"] and meta["artists"] == ["Cy Artist"]
    assert meta["genres"] == ["Drama"] and meta["tags"] == [] and meta["year"] == 2019
    assert meta["description"] == "A ferry & a star"
    assert {"name": "Web", "url": "https://example.org/star"} in meta["links"]
    assert manga["direction"] == "rtl"
    chapters = {c["id"]: c for b in manga["books"] for c in b["chapters"]}
    assert sorted(chapters) == ["0/1", "0/2", "0/7.5", "2/3", "2/4"]
    assert chapters["0/1"]["versions"][0]["name"] == "Star Ferry c001 [Crew].cbz"
    assert chapters["0/1"]["versions"][0]["source"] == "Crew"
    assert chapters["0/1"]["title"] == "Departure"  # ComicInfo's Title over the name's
    assert chapters["0/1"]["tags"] == ["Boats"]  # ComicInfo's Tags are the chapter's
    assert chapters["0/1"]["versions"][0]["pages"] == 3  # the Deleted page is not shown
    assert chapters["0/2"]["title"] == "The Harbour"  # a folder's ComicInfo; its Number does not renumber it
    assert chapters["0/7.5"]["title"] == "Bonus"  # a name without a number takes ComicInfo's Number
    assert chapters["2/3"]["title"] == "Night" and chapters["2/4"]["versions"][0]["pages"] == 3

    for cid, count in (("0/1", 3), ("0/2", 2), ("2/3", 2), ("2/4", 3), ("0/7.5", 2)):
        status, _, chapter = user.get(f"/api/chapter?m={quote('Star Ferry')}&c={quote(cid)}")
        assert status == 200 and len(chapter["pages"]) == count, (cid, chapter)
        for page in chapter["pages"]:
            assert (page["w"], page["h"]) in ((40, 60), (60, 90)), page
            status, headers, body = user.get("/" + page["u"])
            assert status == 200, page["u"]
            assert headers["Content-Type"] in ("image/png", "image/jpeg")
            assert int(headers["Content-Length"]) == len(body) and body[:3] in (b"\x89PN", b"\xff\xd8\xff")
            assert headers["Cache-Control"] == "private, max-age=86400"
            assert headers["Content-Security-Policy"] == "sandbox; default-src 'none'"
            assert user.get("/" + page["u"], headers={"If-None-Match": headers["ETag"]})[0] == 304
    first = user.get(f"/api/chapter?m={quote('Star Ferry')}&c=0/1")[2]["pages"]
    assert first[0]["t"] == ["cover"] and first[1]["t"] == []
    status, headers, body = user.get("/thumb/" + quote("Star Ferry"))
    assert status == 200 and headers["Content-Type"] == "image/webp"


def test_it_answers_404_for_members_the_index_does_not_hold(mixed):
    srv, library = mixed
    user = srv.client().signup("admin", "a long enough password")
    base = "/lib/" + quote("Star Ferry/Star Ferry c001 [Crew].cbz")
    assert user.get(base + "/001.jpg")[0] == 200
    for member in ("004.png", "ComicInfo.xml", "../c002 Harbour/001.png", "nothing.png", ".DS_Store"):
        assert user.get(base + "/" + quote(member))[0] == 404, member  # 004 is the Deleted page
    wrapper = "/lib/" + quote("Star Ferry/Star Ferry v02.cbz/Star Ferry v02/")
    assert user.get(wrapper + quote("Chapter 4/003.jpg"))[0] == 200
    assert user.get(wrapper + quote("__MACOSX/._001.png"))[0] == 404
    assert srv.client().get(base + "/001.jpg")[0] == 401


def test_it_streams_stored_and_deflated_members_byte_for_byte(mixed):
    import zipfile
    srv, library = mixed
    user = srv.client().signup("admin", "a long enough password")
    for archive in ("Star Ferry/Star Ferry c001 [Crew].cbz", "Star Ferry/Star Ferry v02.cbz"):
        with zipfile.ZipFile(library / archive) as z:
            for info in z.infolist():
                if info.filename.endswith((".png", ".jpg")) and "__MACOSX" not in info.filename \
                        and info.filename != "004.png":
                    status, _, body = user.get("/lib/" + quote(f"{archive}/{info.filename}"))
                    assert status == 200 and body == z.read(info), info.filename


def test_it_never_opens_an_unchanged_archive_again(tmp_path):
    library = mixed_tree(tmp_path / "library")
    first = Scan(library, None, "full")
    index, report = first.run()
    assert report["work"]["archives"] == 3
    again, report = Scan(library, index, "shallow").run()
    assert report["work"]["archives"] == 0 and report["work"]["listings"] == 0
    second = Scan(library, index, "full", cache=first.new_cache)
    full, report = second.run()
    assert report["work"]["archives"] == 0 and not any(report["changed"].values())
    assert second.new_cache == first.new_cache  # the cache it writes still holds every archive
    # A new archive in a manga read again by a shallow check: only that one is opened.
    make_cbz(library / "Star Ferry" / "Star Ferry c005.cbz", pages(2))
    os.utime(library / "Star Ferry", (1, 1))
    new, report = Scan(library, full, "shallow", cache=lambda: first.new_cache).run()
    assert report["work"]["archives"] == 1 and "0/5" in {c.id for c in new.get("Star Ferry").chapters()}
    # An archive replaced in place (same name, new content) is noticed by the shallow check.
    make_cbz(library / "Star Ferry" / "Star Ferry c005.cbz", pages(4))
    later, report = Scan(library, new, "shallow", cache=lambda: first.new_cache).run()
    assert later.get("Star Ferry").chapter("0/5").versions[0].page_count == 4


def test_it_waits_for_an_archive_being_copied_in_to_settle(tmp_path):
    library = tmp_path / "library"
    make_page(library / "M" / "c0001" / "001.png")
    for old in (library / "M" / "c0001" / "001.png", library / "M" / "c0001"):
        os.utime(old, (1, 1))
    path = make_cbz(library / "M" / "c0002.cbz", pages(2))
    now = path.stat().st_mtime
    index, report = Scan(library, None, "full", settle=5, clock=lambda: now + 1).run()
    assert [c.id for c in index.get("M").chapters()] == ["0/1"]
    assert [w["kind"] for w in report["warnings"] if w["path"] == "M/c0002.cbz"] == ["settling"]
    assert report["work"]["archives"] == 0  # not even opened while it may still grow
    later, report = Scan(library, index, "shallow", settle=5, clock=lambda: now + 6).run()
    assert [c.id for c in later.get("M").chapters()] == ["0/1", "0/2"] and report["work"]["archives"] == 1


def test_it_splits_archives_into_chapters_only_when_their_folders_look_like_chapters(tmp_path):
    library = tmp_path / "library"
    m = library / "Moon Garden"
    make_cbz(m / "Vol 3" / "Moon Garden v03.cbz", {**pages(1, folder="c020/"), **pages(2, folder="c021 Dusk/")})
    make_cbz(m / "Vol 3" / "c022.cbz", pages(2, folder="Moon Garden c022 [Team]/"))
    make_cbz(m / "c030 Wrapped.cbz", {**pages(1, folder="c030/part a/"), **pages(1, folder="c030/part b/")})
    make_cbz(m / "Moon Garden c031-032.cbz", {**pages(1, folder="c031/"), **pages(2, folder="c032/")})
    make_cbz(m / "Moon Garden v04.cbz", {**pages(1, folder="Bonus art/"), **pages(2, folder="c040/")})
    index, report = Scan(library, None, "full").run()
    manga = index.get("Moon Garden")
    found = {c.id: (c.versions[0].path, c.versions[0].files()) for c in manga.chapters()}
    assert found == {
        "0/30": ("Moon Garden/c030 Wrapped.cbz", ["c030/part a/001.jpg", "c030/part b/001.jpg"]),
        "0/31": ("Moon Garden/Moon Garden c031-032.cbz/c031", ["001.jpg"]),
        "0/32": ("Moon Garden/Moon Garden c031-032.cbz/c032", ["001.jpg", "002.png"]),
        "3/20": ("Moon Garden/Vol 3/Moon Garden v03.cbz/c020", ["001.jpg"]),
        "3/21": ("Moon Garden/Vol 3/Moon Garden v03.cbz/c021 Dusk", ["001.jpg", "002.png"]),
        "3/22": ("Moon Garden/Vol 3/c022.cbz", ["Moon Garden c022 [Team]/001.jpg", "Moon Garden c022 [Team]/002.png"]),
        "4/1": ("Moon Garden/Moon Garden v04.cbz", ["Bonus art/001.jpg", "c040/001.jpg", "c040/002.png"]),
    }
    assert manga.chapter("3/21").title == "Dusk" and manga.book("3").folder == "Vol 3"
    assert not [w for w in report["warnings"] if w["kind"] != "settling"], report["warnings"]
    assert manga.chapter("3/22").versions[0].pages()[0].tags == ()  # a folder's [brackets] are no page tags


@pytest.mark.process
def test_it_sends_exactly_the_member_through_gunicorn(tmp_path, data_dir):
    import zipfile

    from bench.server import Server

    library = mixed_tree(tmp_path / "library")
    srv = Server(data_dir, library).start()
    try:
        user = srv.client().signup("admin", "a long enough password")
        wait_for_library(user, 2)  # the first scan runs in the background; until it ends, 404
        for archive in ("Star Ferry/Star Ferry c001 [Crew].cbz", "Star Ferry/Star Ferry v02.cbz"):
            with zipfile.ZipFile(library / archive) as z:
                for info in z.infolist():
                    if info.filename.endswith(("01.jpg", "02.png")) and "__MACOSX" not in info.filename:
                        status, headers, body = user.get("/lib/" + quote(f"{archive}/{info.filename}"))
                        assert status == 200 and body == z.read(info), info.filename
                        assert headers["Content-Length"] == str(info.file_size)
    finally:
        srv.stop()


def test_the_reader_opens_each_archive_once_across_restarts_and_scans(settings, tmp_path, data_dir):
    from library import index, service
    from mangacircus import events

    library = mixed_tree(tmp_path / "library")
    settings.LIBRARY, settings.DATA, settings.SCAN_INTERVAL, settings.SCAN_SETTLE = library, data_dir, 0, 0
    reports = []
    events.scan_finished.connect(lambda _index, report: reports.append(report))
    opened = lambda: sum(r["work"]["archives"] for r in reports if r["kind"] != "restore")  # noqa: E731
    service.start()
    service.request_scan(wait=True, timeout=20)
    assert opened() == 3  # the first full scan
    service.stop()
    index.replace(index.Index())
    service.start()  # a restart: restore, then a shallow check
    service.request_scan(wait=True, timeout=20)
    make_cbz(library / "Star Ferry" / "Star Ferry c009.cbz", pages(1))
    os.utime(library / "Star Ferry", (1, 1))
    shallow = service.request_scan(wait=True, timeout=20)
    assert shallow["changed"]["changed"] == ["Star Ferry"] and opened() == 4  # only the new one
    service.request_scan(full=True, wait=True, timeout=20)
    service.stop()
    index.replace(index.Index())
    service.start()
    service.request_scan(full=True, wait=True, timeout=20)
    assert opened() == 4 and "0/9" in {c.id for c in index.current().get("Star Ferry").chapters()}


def test_it_reads_an_archive_again_when_its_cache_entry_is_damaged(tmp_path):
    library = mixed_tree(tmp_path / "library")
    first = Scan(library, None, "full")
    index, _report = first.run()
    rel = "Star Ferry/Star Ferry c001 [Crew].cbz"
    good = first.new_cache[rel]
    for damage in ({"i": "text"}, {"i": {"Series": 5}}, {"w": [["only two", "parts"]]}, {"t": {"001.jpg": [1]}},
                   {"x": 5}, {"s": ["40", 60] * (len(good["s"]) // 2)}, {"n": 7}, {"a": "x"}):
        cache = {**first.new_cache, rel: {**good, **damage}}
        new, report = Scan(library, index, "full", cache=cache).run()
        assert report["error"] is None and report["work"]["archives"] == 1, damage
        assert new.get("Star Ferry").title == "Star Ferry" and not any(report["changed"].values()), damage


def test_open_page_gives_the_bytes_of_any_page_whatever_holds_it(settings, tmp_path):
    import zipfile

    from library import files, index

    library = mixed_tree(tmp_path / "library")
    settings.LIBRARY = library
    built, _report = Scan(library, None, "full").run()
    index.replace(built)
    manga = built.get("Star Ferry")
    for chapter in manga.chapters():
        v = chapter.versions[0]
        for p in v.pages():
            with files.open_page(f"{v.path}/{p.file}") as page:
                data = page.read()
                assert page.kind in ("png", "jpeg") and page.length == len(data)
                if v.archive:
                    with zipfile.ZipFile(library / v.archive) as z:
                        assert data == z.read(v.archive_member(p.file))
                else:
                    assert data == (library / v.path / p.file).read_bytes()
                assert page.stream().read() == data
    assert files.open_page("Star Ferry/Star Ferry c001 [Crew].cbz/004.png") is None  # Deleted in ComicInfo
    assert files.open_page("Star Ferry/Star Ferry c001 [Crew].cbz/ComicInfo.xml") is None
    assert files.page_stamp("Star Ferry/Star Ferry c001 [Crew].cbz/001.jpg").endswith("\x00" + "001.jpg")


def test_a_deflated_member_longer_than_it_declares_is_refused_not_served_cut(tmp_path):
    """The central directory and the local header of a deflated page say it is 100 bytes shorter
    than the data: it used to be served cut at the declared size, as if whole."""
    import struct
    import zipfile

    from tests.library.images import png_bytes

    library = tmp_path / "library"
    page = png_bytes((300, 400))
    path = make_cbz(library / "Long Member" / "Long Member c001.cbz", {"001.png": page, "002.png": page},
                    deflate=True)
    raw = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as z:
        info = z.getinfo("002.png")
    lied = info.file_size - 100
    struct.pack_into("<I", raw, info.header_offset + 22, lied)  # the local header's uncompressed size
    central = raw.rindex(b"PK\x01\x02")  # the last entry of the central directory: 002.png
    struct.pack_into("<I", raw, central + 24, lied)
    path.write_bytes(bytes(raw))
    srv = AppServer(tmp_path / "data", library).start()
    try:
        user = srv.client().signup("admin", "a long enough password")
        wait_for_library(user, 1)
        base = "/lib/" + quote("Long Member/Long Member c001.cbz")
        status, _, body = user.get(base + "/001.png")
        assert status == 200 and body == page
        status, _, body = user.get(base + "/002.png")
        assert status == 500 and b"cannot be read from its archive" in body
    finally:
        srv.stop()


def test_a_western_comic_marked_manga_no_reads_left_to_right_whatever_the_default(tmp_path, data_dir):
    """Komga and Kavita comic libraries mark comics `Manga: No`; with the default direction rtl they
    read backwards before."""
    library = tmp_path / "library"
    make_cbz(library / "Night Patrol" / "Night Patrol 001 (2019).cbz",
             {**pages(2), "ComicInfo.xml": comic_info(Series="Night Patrol", Number="1", Manga="No")})
    srv = AppServer(data_dir, library, env={"DEFAULT_DIRECTION": "rtl"}).start()
    try:
        user = srv.client().signup("admin", "a long enough password")
        wait_for_library(user, 1)
        status, _, manga = user.get("/api/manga?m=" + quote("Night Patrol"))
        assert status == 200 and manga["direction"] == "ltr", manga.get("direction")
    finally:
        srv.stop()
