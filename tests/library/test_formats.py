"""CBR (RAR4 and RAR5, solid too), CB7 and CBT read in place (docs/library.md, "Archives").

Archives: Komga's own test archives, made with WinRAR and 7-Zip (tests/library/fixtures/komga/);
CB7 archives made here with Debian's 7-Zip (`7zz`), CBT with GNU tar, both from real page images.
Read back by the real scanner, through /api/chapter and /lib/ of a running server, and as a CBZ
download; hostile archives end in a scan warning, never in a crash or a write outside DATA.
"""
import io
import shutil
import subprocess
import tarfile
import zipfile
from pathlib import Path
from urllib.parse import quote

import pytest
from PIL import Image

from bench.server import Server
from library import libarch, pdfread
from library.scan import Scan
from tests.conftest import PASSWORD
from tests.library.cbz import comic_info, pages
from tests.reader.komga.apps import basic
from tests.support.pages import wait_for_library

pytestmark = pytest.mark.process  # 7zz, tar and a real serve

KOMGA = Path(__file__).parent / "fixtures" / "komga"
SEVEN_ZIP = shutil.which("7zz") or shutil.which("7z")
PNG_48 = (48, 48)


def seven_zip(path, folder, *options):
    """`7zz a` of the files of `folder` into `path`: solid by default, as 7-Zip writes archives."""
    path.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([SEVEN_ZIP, "a", "-bd", "-y", *options, str(path), "."], cwd=folder, check=True,
                   stdout=subprocess.DEVNULL)
    return path


def tar(path, folder):
    path.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-cf", str(path), "-C", str(folder), "."], check=True)
    return path


def written(folder, members):
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in members.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return folder


def formats_tree(root, tmp):
    m = root / "Komga Formats"
    m.mkdir(parents=True)
    for n, name in enumerate(("rar4.rar", "rar5.rar", "rar5-solid.rar"), start=1):
        shutil.copy(KOMGA / name, m / f"Komga Formats c{n:03d}.cbr")
    shutil.copy(KOMGA / "7zip.7z", m / "Komga Formats c004.cb7")
    shutil.copy(KOMGA / "rar4-solid.rar", m / "Komga Formats c005.cbr")
    shutil.copy(KOMGA / "rar5-encrypted.rar", m / "Komga Formats c006.cbr")
    shutil.copy(KOMGA / "7zip-encrypted.7z", m / "Komga Formats c007.cb7")
    made = root / "Made Here"
    seven_zip(made / "Made Here c001.cb7", written(tmp / "seven", {**pages(4), "ComicInfo.xml": comic_info(
        Series="Made Here", Title="Sevens", Number="1", Manga="No")}))
    tar(made / "Made Here c002.cbt", written(tmp / "tar", {**pages(3, folder="Chapter 2/")}))
    shelf = root / "Pdf Shelf"
    shelf.mkdir()
    scans = [Image.new("RGB", (400, 600), (40 * n, 90, 160)) for n in range(3)]
    scans[0].save(shelf / "Pdf Shelf v01.pdf", save_all=True, append_images=scans[1:])  # Pillow: JPEG pages
    shutil.copy(KOMGA / "komga.pdf", shelf / "Pdf Shelf v02.pdf")  # ImageMagick's, a Flate image: rendered
    books = root / "Epub Shelf"
    books.mkdir()
    shutil.copy(KOMGA / "epub3.epub", books / "Epub Shelf v01.epub")
    shutil.copy(KOMGA / "zip-as-epub.epub", books / "Epub Shelf v02.epub")
    fixed_layout_epub(books / "Epub Shelf v03.epub", pages(3))
    novel_epub(books / "Epub Shelf v04.epub")
    return root


def epub(path, opf, files):
    """An EPUB as the OCF spec lays it out: `mimetype` first and stored, container.xml, the OPF."""
    container = ('<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:'
                 'container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/'
                 'oebps-package+xml"/></rootfiles></container>')
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        z.writestr("META-INF/container.xml", container)
        z.writestr("OEBPS/content.opf", opf)
        for name, data in files.items():
            z.writestr(f"OEBPS/{name}", data)


def package(items, spine, direction="rtl", title="Paper Moon", creator="Ana Ink"):
    manifest = "".join(f'<item id="{i}" href="{href}" media-type="{media}"/>' for i, href, media in items)
    refs = "".join(f'<itemref idref="{i}"/>' for i in spine)
    return (f'<?xml version="1.0" encoding="utf-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">'
            f'<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>{title}</dc:title>'
            f'<dc:creator>{creator}</dc:creator><meta property="rendition:layout">pre-paginated</meta></metadata>'
            f'<manifest>{manifest}</manifest><spine page-progression-direction="{direction}">{refs}</spine></package>')


def fixed_layout_epub(path, images):
    """A fixed-layout EPUB 3 as stores sell manga: one XHTML page per image (SVG-wrapped for the
    first, <img> for the rest), spine right to left; the images' names sort against the spine order."""
    items, files, spine = [], {}, []
    for n, (name, data) in enumerate(reversed(list(images.items()))):
        image = f"images/{name}"
        files[image] = data
        body = (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
                f'<image xlink:href="../{image}"/></svg>' if n == 0 else f'<img src="../{image}" alt=""/>')
        files[f"text/p{n}.xhtml"] = (f'<?xml version="1.0"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml">'
                                     f'<body>{body}</body></html>').encode()
        items += [(f"p{n}", f"text/p{n}.xhtml", "application/xhtml+xml"),
                  (f"i{n}", image, "image/png" if name.endswith("png") else "image/jpeg")]
        spine.append(f"p{n}")
    epub(path, package(items, spine), files)


def novel_epub(path):
    text = "<p>" + "It was a bright cold day in April, and the clocks were striking thirteen. " * 20 + "</p>"
    files = {f"c{n}.xhtml": f'<html xmlns="http://www.w3.org/1999/xhtml"><body>{text}</body></html>'.encode()
             for n in range(3)}
    epub(path, package([(f"c{n}", f"c{n}.xhtml", "application/xhtml+xml") for n in range(3)],
                       [f"c{n}" for n in range(3)], direction="ltr"), files)


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("formats")
    return formats_tree(tmp / "library", tmp)


def jpeg_size(data):
    assert data[:3] == b"\xff\xd8\xff"
    return Image.open(io.BytesIO(data)).size


def test_the_scan_reads_each_format_and_names_what_it_cannot(library):
    idx, report = Scan(library, None, "full").run()
    assert report["error"] is None
    komga = idx.get("Komga Formats")
    found = {c.key: [(v.archive.rsplit("/", 1)[1], v.files(), v.sizes()) for v in c.versions] for c in komga.chapters()}
    assert found == {
        "1": [("Komga Formats c001.cbr", ["komga-1.png", "komga-2.png", "komga-3.png"], [PNG_48] * 3)],
        "2": [("Komga Formats c002.cbr", ["komga.png"], [PNG_48])],
        # solid: the scan reads the directory only, the sizes come at the first open (below)
        "3": [("Komga Formats c003.cbr", ["komga-1.png", "komga-2.png", "komga-3.png"], [(None, None)] * 3)],
        "4": [("Komga Formats c004.cb7", ["komga.png"], [(None, None)])],
    }
    warned = {path.rsplit("/", 1)[1]: message for kind, path, message in idx.all_warnings()
              if kind == "unreadable-archive"}
    assert set(warned) == {"Komga Formats c005.cbr", "Komga Formats c006.cbr", "Komga Formats c007.cb7",
                           "Epub Shelf v04.epub"}, warned
    assert "solid RAR4" in warned["Komga Formats c005.cbr"]
    assert "encrypted" in warned["Komga Formats c006.cbr"] and "encrypted" in warned["Komga Formats c007.cb7"]
    made = idx.get("Made Here")
    assert made.title == "Made Here" and made.direction == "ltr"  # ComicInfo inside a CB7, Manga=No
    c1, c2 = made.chapters()
    assert (c1.key, c1.title, len(c1.versions[0].files())) == ("1", "Sevens", 4)
    assert c2.key == "2" and c2.versions[0].files() == [f"Chapter 2/{n:03d}.{e}" for n, e in
                                                        ((1, "jpg"), (2, "png"), (3, "jpg"))]
    assert c1.versions[0].sizes()[0] == (None, None)  # a CB7 is solid
    assert c2.versions[0].sizes()[0] in ((40, 60), (60, 90))
    shelf = idx.get("Pdf Shelf")  # each PDF a book; page sizes from the page boxes, 1,600 pixels wide
    assert [(b.key, [c.key for c in b.chapters]) for b in shelf.books] == [("1", ["1"]), ("2", ["1"])]
    v1, v2 = (b.chapters[0].versions[0] for b in shelf.books)
    assert v1.files() == ["0001.jpg", "0002.jpg", "0003.jpg"] and v1.sizes() == [(1600, 2400)] * 3
    assert v2.files() == ["0001.jpg"] and v2.sizes() == [(1600, 1600)]
    books = idx.get("Epub Shelf")  # pages in spine order, the package's title, authors and direction
    versions = {b.key: b.chapters[0].versions[0] for b in books.books}
    assert versions["1"].files() == ["cover.jpeg", "0_0.png"]  # Komga's EPUB 3
    assert versions["2"].files() == ["komga.png"]  # a ZIP named .epub reads as a CBZ
    assert versions["3"].files() == ["OEBPS/images/003.jpg", "OEBPS/images/002.png", "OEBPS/images/001.jpg"]
    assert versions["3"].direction == "rtl" and books.meta["authors"] == ["Ana Ink"]
    assert "4" not in versions
    assert "text EPUB (a novel)" in warned["Epub Shelf v04.epub"]


@pytest.fixture(scope="module")
def served(library, tmp_path_factory):
    data = tmp_path_factory.mktemp("data")
    srv = Server(data, library).start()  # a real serve, shared: these tests only read
    user = srv.client().signup("admin", PASSWORD)
    wait_for_library(user, 4)
    yield srv, user, data
    srv.stop()


def members_of(path):
    out = {}
    with libarch.libarchive.file_reader(str(path)) as archive:
        for entry in archive:
            if entry.isreg:
                out[entry.pathname.removeprefix("./")] = b"".join(entry.get_blocks())
    return out


@pytest.mark.parametrize("manga, cid, archive", [
    ("Komga Formats", "0/1", "Komga Formats c001.cbr"),  # RAR4: read member by member
    ("Komga Formats", "0/3", "Komga Formats c003.cbr"),  # solid RAR5: from the page cache
    ("Komga Formats", "0/4", "Komga Formats c004.cb7"),  # 7z: from the page cache
    ("Made Here", "0/1", "Made Here c001.cb7"),
    ("Made Here", "0/2", "Made Here c002.cbt"),  # tar: member by member
    ("Epub Shelf", "3/1", "Epub Shelf v03.epub"),  # EPUB: its images, from the ZIP
])
def test_each_page_is_served_byte_for_byte(served, library, manga, cid, archive):
    srv, user, _ = served
    status, _, chapter = user.get(f"/api/chapter?m={quote(manga)}&c={quote(cid)}")
    assert status == 200, chapter
    originals = members_of(library / manga / archive)
    assert len(chapter["pages"]) == len([n for n in originals if n.endswith((".png", ".jpg"))])
    for page in chapter["pages"]:
        status, headers, body = user.get("/" + page["u"])
        member = page["u"].split(quote(archive) + "/", 1)[1]
        assert status == 200 and body == originals[quote_free(member)], page["u"]
        assert (page["w"], page["h"]) == Image.open(io.BytesIO(body)).size  # solid ones too: measured at unpacking
        assert headers["Content-Type"] in ("image/png", "image/jpeg")
        assert user.get("/" + page["u"], headers={"If-None-Match": headers["ETag"]})[0] == 304


def quote_free(member):
    from urllib.parse import unquote
    return unquote(member.split("?", 1)[0])


def test_a_pdf_page_that_is_one_jpeg_is_served_as_it_is_and_others_are_rendered_once(served, library):
    srv, user, data = served
    own = user.get(f"/api/chapter?m={quote('Pdf Shelf')}&c=1/1")[2]["pages"]
    bodies = [user.get("/" + p["u"]) for p in own]
    assert all(status == 200 and headers["Content-Type"] == "image/jpeg" for status, headers, _ in bodies)
    assert [jpeg_size(body) for _, _, body in bodies] == [(400, 600)] * 3  # the scans' own bytes
    assert len({body for _, _, body in bodies}) == 3
    page = user.get(f"/api/chapter?m={quote('Pdf Shelf')}&c=2/1")[2]["pages"][0]
    status, headers, body = user.get("/" + page["u"])
    assert status == 200 and jpeg_size(body) == (1600, 1600)  # rendered at the listed size
    assert user.get("/" + page["u"], headers={"If-None-Match": headers["ETag"]})[0] == 304
    rendered = [f for f in (data / "page-cache").rglob("*") if f.is_file() and f.read_bytes() == body]
    assert len(rendered) == 1
    stamp = rendered[0].stat().st_mtime_ns
    assert user.get("/" + page["u"])[2] == body and rendered[0].stat().st_mtime_ns == stamp  # not rendered again
    assert user.get("/" + page["u"].replace("0001.jpg", "0002.jpg"))[0] == 404


def test_a_pdf_page_is_rendered_at_the_step_of_the_width_ladder_asked_for(served, library):
    srv, user, _ = served
    chapter = user.get(f"/api/chapter?m={quote('Pdf Shelf')}&c=2/1")[2]
    assert chapter["widths"] == list(pdfread.WIDTHS)
    assert user.get(f"/api/chapter?m={quote('Komga Formats')}&c=0/1")[2]["widths"] is None
    url = "/" + chapter["pages"][0]["u"]
    for asked, drawn in ((1, 800), (801, 1200), (1600, 1600), (5000, 2400)):
        status, headers, body = user.get(f"{url}?w={asked}")
        assert status == 200 and jpeg_size(body) == (drawn, drawn), asked
    etags = {user.get(f"{url}?w={w}")[1]["ETag"] for w in (800, 1200)}
    assert len(etags) == 2  # a browser never takes one width's page for another's
    for bad in ("abc", "0", "-5", "²", "100001"):
        status, _, answer = user.get(f"{url}?w={quote(bad)}")
        assert status == 400 and "w must be a width" in answer["error"], bad
    own = user.get(f"/api/chapter?m={quote('Pdf Shelf')}&c=1/1")[2]["pages"][0]["u"]
    assert jpeg_size(user.get(f"/{own}?w=800")[2]) == (400, 600)  # a scan's own JPEG, whatever the width


def test_solid_archives_are_unpacked_once_into_the_page_cache_in_data(served, library):
    srv, user, data = served
    chapter = user.get(f"/api/chapter?m={quote('Komga Formats')}&c=0/3")[2]
    assert user.get("/" + chapter["pages"][0]["u"])[0] == 200
    cache = data / "page-cache"
    folders = [p for p in cache.iterdir() if not p.name.startswith(".")]
    assert folders and all(len(list(f.iterdir())) >= 1 for f in folders)
    before = {f: f.stat().st_mtime_ns for f in folders}
    for page in chapter["pages"]:
        assert user.get("/" + page["u"])[0] == 200
    assert {p for p in cache.iterdir() if not p.name.startswith(".")} == set(folders)  # nothing unpacked again
    assert not any(p.name.startswith(".") for p in cache.iterdir())
    assert all(f.stat().st_mtime_ns >= before[f] for f in folders)


def test_a_cbr_chapter_downloads_as_a_cbz_of_the_same_pages(served, library):
    srv, user, _ = served
    status, headers, body = user.get("/download/" + quote("Komga Formats", safe="") + "/0/1/")
    assert status == 200, body[:200]
    with zipfile.ZipFile(io.BytesIO(body)) as z:
        images = sorted(n for n in z.namelist() if n.endswith(".png"))
        assert len(images) == 3
        originals = members_of(library / "Komga Formats" / "Komga Formats c001.cbr")
        assert sorted(z.read(n) for n in images) == sorted(originals.values())


def test_hostile_archives_are_warnings_never_a_crash(tmp_path):
    lib = tmp_path / "library" / "Hostile"
    lib.mkdir(parents=True)
    # traversal names and a link, in a tar written by Python's tarfile (GNU tar strips them)
    png = pages(1)["001.jpg"]
    with tarfile.open(lib / "Hostile c001.cbt", "w") as t:
        for name in ("001.png", "../../001.png", "/etc/002.png"):
            info = tarfile.TarInfo(name)
            info.size = len(png)
            t.addfile(info, io.BytesIO(png))
        link = tarfile.TarInfo("link.png")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        t.addfile(link)
    # a bomb: 20 MB of zeros named as a page compress to a few KB
    bomb = tmp_path / "bomb"
    bomb.mkdir()
    (bomb / "001.png").write_bytes(b"\0" * (20 << 20))
    seven_zip(lib / "Hostile c002.cb7", bomb)
    # an archive cut short, and a text file named .cbr
    data = (KOMGA / "rar4.rar").read_bytes()
    (lib / "Hostile c003.cbr").write_bytes(data[: len(data) // 2])
    (lib / "Hostile c004.cbr").write_text("not an archive at all")
    (lib / "Hostile c005.pdf").write_text("%PDF-1.4 but nothing else")
    laughs = ('<?xml version="1.0"?><!DOCTYPE p [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>'
              '<package>&b;</package>')
    epub(lib / "Hostile c006.epub", laughs, {})
    idx, report = Scan(tmp_path / "library", None, "full").run()
    assert report["error"] is None
    warnings = {(kind, path.split("/", 1)[1]): message for kind, path, message in idx.all_warnings()}
    manga = idx.get("Hostile")
    c1 = manga.chapter("0/1") if manga else None
    assert c1 is not None and c1.versions[0].files() == ["001.png"]
    assert "has a '..' or '.' part" in warnings[("archive-member", "Hostile c001.cbt/../../001.png")]
    assert "absolute path" in warnings[("archive-member", "Hostile c001.cbt//etc/002.png")]
    assert "link" in warnings[("archive-member", "Hostile c001.cbt/link.png")]
    assert "bomb" in warnings[("unreadable-archive", "Hostile c002.cb7")]
    assert "Truncated" in warnings[("unreadable-archive", "Hostile c003.cbr")]
    assert "Unrecognized archive format" in warnings[("unreadable-archive", "Hostile c004.cbr")]
    assert ("unreadable-archive", "Hostile c005.pdf") in warnings
    assert "declares a DOCTYPE or entities" in warnings[("unreadable-archive", "Hostile c006.epub")]


def test_a_10000_page_pdf_is_listed_from_its_page_boxes_and_a_huge_page_is_rendered_within_the_cap(tmp_path):
    lib = tmp_path / "library" / "Long"
    lib.mkdir(parents=True)
    tiny = [Image.new("RGB", (8, 12), (n % 250, 0, 0)) for n in range(10_000)]
    tiny[0].save(lib / "Long v01.pdf", save_all=True, append_images=tiny[1:])
    # 10 x 10 pixels at 0.05 dpi: a page box of 14,400 points a side
    Image.new("RGB", (10, 10), (0, 0, 0)).convert("L").save(lib / "Long v02.pdf", resolution=0.05)
    idx, report = Scan(tmp_path / "library", None, "full").run()
    assert report["error"] is None, report
    v1, v2 = (b.chapters[0].versions[0] for b in idx.get("Long").books)
    assert len(v1.files()) == 10_000 and v1.sizes()[9_999] == (1600, 2400)
    (w, h), = v2.sizes()
    assert w * h <= pdfread.MAX_PIXELS and w == h
    assert not (tmp_path / "etc").exists() and not (tmp_path / "001.png").exists()


def test_the_komga_api_gives_each_book_its_archive_media_type(served):
    srv, _, _ = served
    app = srv.client()
    auth = {"Authorization": basic("admin")}
    status, _, page = app.get("/komga/api/v1/books?size=50", headers=auth)
    assert status == 200, page
    media = {b["name"]: b["media"]["mediaType"] for b in page["content"]}
    assert media["Komga Formats c001.cbr"] == "application/x-rar-compressed"
    assert media["Komga Formats c004.cb7"] == "application/x-7z-compressed"
    assert media["Made Here c002.cbt"] == "application/x-tar"
    assert {b["media"]["pagesCount"] for b in page["content"] if b["name"] == "Komga Formats c003.cbr"} == {3}


def test_a_pdf_with_javascript_and_links_is_drawn_without_running_them_and_an_encrypted_one_is_reported(tmp_path):
    import http.server
    import threading

    import pypdf
    from pypdf.actions import JavaScript
    from pypdf.annotations import Link

    asked = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            asked.append(self.path)
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    listener = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=listener.serve_forever, daemon=True).start()
    here = f"http://127.0.0.1:{listener.server_address[1]}"
    lib = tmp_path / "library" / "Tricks"
    lib.mkdir(parents=True)
    plain = tmp_path / "plain.pdf"
    Image.new("P", (300, 400), 7).save(plain)  # a Flate image: the page is drawn, not passed through
    writer = pypdf.PdfWriter(clone_from=str(plain))
    writer.add_open_action(JavaScript(f'app.launchURL("{here}/js", true); this.submitForm("{here}/form");'))
    writer.add_annotation(0, Link(rect=(0, 0, 300, 400), url=f"{here}/link"))
    writer.write(lib / "Tricks v01.pdf")
    locked = pypdf.PdfWriter(clone_from=str(plain))
    locked.encrypt("a password", algorithm="AES-128")
    locked.write(lib / "Tricks v02.pdf")
    try:
        held = pypdf.PdfReader(lib / "Tricks v01.pdf")  # a script to run at opening, a link to follow
        script = held.trailer["/Root"]["/Names"]["/JavaScript"]["/Names"][1].get_object()["/JS"]
        assert "app.launchURL" in script and held.pages[0]["/Annots"][0].get_object()["/A"]["/URI"] == f"{here}/link"
        idx, report = Scan(tmp_path / "library", None, "full").run()
        assert report["error"] is None
        (book,) = idx.get("Tricks").books
        assert book.chapters[0].versions[0].files() == ["0001.jpg"]
        drawn = pdfread.page_jpeg(str(lib / "Tricks v01.pdf"), "0001.jpg")
        assert jpeg_size(drawn)[0] == 1600
        assert asked == []  # drawing is synchronous: a script or a link that ran would have called by now
        warned = {path: message for kind, path, message in idx.all_warnings() if kind == "unreadable-archive"}
        assert "encrypted" in warned["Tricks/Tricks v02.pdf"]
    finally:
        listener.shutdown()


def test_without_libarchive_its_formats_are_reported_with_the_package_name_and_the_rest_reads(tmp_path):
    import json
    import os
    import sys

    # libarchive-c's own failure when Debian's libarchive13 is not installed: it cannot find the library
    shadow = tmp_path / "shadow" / "libarchive"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise OSError('libarchive.so.13: cannot open shared object file')\n")
    lib = tmp_path / "library"
    shutil.copy(KOMGA / "rar4.rar", written(lib / "Mixed", {}) / "Mixed c001.cbr")
    with zipfile.ZipFile(lib / "Mixed" / "Mixed c002.cbz", "w") as z:
        for name, data in pages(2).items():
            z.writestr(name, data)
    script = ("import json, django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'mangacircus.settings');"
              "django.setup(); from library.scan import Scan; import sys;"
              "idx, report = Scan(sys.argv[1], None, 'full').run();"
              "print(json.dumps([[k, p, m] for k, p, m in idx.all_warnings()]"
              " + [[c.key for c in idx.get('Mixed').chapters()]]))")
    env = {**os.environ, "PYTHONPATH": str(shadow.parent), "DATA": str(tmp_path / "data"), "SECRET_KEY": "x"}
    done = subprocess.run([sys.executable, "-c", script, str(lib)], capture_output=True, text=True, env=env,
                          cwd=Path(__file__).resolve().parents[2], timeout=60)
    assert done.returncode == 0, done.stderr
    *warnings, chapters = json.loads(done.stdout.strip().splitlines()[-1])
    assert chapters == ["2"]
    (message,) = [m for k, p, m in warnings if p == "Mixed/Mixed c001.cbr"]
    assert "libarchive13" in message and "libarchive-c" in message


@pytest.mark.parametrize("manga, cid", [("Komga Formats", "0/1"), ("Komga Formats", "0/4"), ("Made Here", "0/2"),
                                        ("Pdf Shelf", "2/1"), ("Epub Shelf", "3/1")])
def test_covers_and_page_thumbnails_are_made_from_each_format(served, manga, cid):
    srv, user, _ = served
    page = user.get(f"/api/chapter?m={quote(manga)}&c={quote(cid)}")[2]["pages"][0]
    status, headers, body = user.get("/" + page["u"].replace("lib/", "lib-thumb/", 1))
    assert status == 200 and headers["Content-Type"] == "image/webp", page["u"]
    assert max(Image.open(io.BytesIO(body)).size) <= 270
    status, headers, body = user.get(f"/thumb/{quote(manga)}")
    assert status == 200 and headers["Content-Type"] == "image/webp" and Image.open(io.BytesIO(body)).size[0] > 0


def test_komga_apps_get_a_solid_archives_page_sizes_and_opds_streams_every_format(served, library):
    srv, _, _ = served
    app = srv.client()
    auth = {"Authorization": basic("admin")}
    books = {b["name"]: b["id"] for b in app.get("/komga/api/v1/books?size=50", headers=auth)[2]["content"]}
    status, _, listed = app.get(f"/komga/api/v1/books/{books['Komga Formats c003.cbr']}/pages", headers=auth)
    assert status == 200 and [(p["width"], p["height"]) for p in listed] == [PNG_48] * 3  # solid RAR5
    for name, archive in (("Komga Formats c001.cbr", "Komga Formats/Komga Formats c001.cbr"),
                          ("Made Here c001.cb7", "Made Here/Made Here c001.cb7")):
        originals = members_of(library / archive)
        status, _, body = app.get(f"/opds/books/{books[name]}/pages/0?maxWidth=800", headers=auth)
        assert status == 200 and body in originals.values(), name
    # a PDF's page streamed at the width the app asks for
    status, _, body = app.get(f"/opds/books/{books['Pdf Shelf v02.pdf']}/pages/0?maxWidth=800", headers=auth)
    assert status == 200 and jpeg_size(body) == (800, 800)
