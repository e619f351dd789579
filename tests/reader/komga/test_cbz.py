"""CBZ downloads that can be resumed: the same bytes for the same pages, a Content-Length, byte
ranges and an ETag; a ComicInfo.xml valid under the official ComicInfo v2.0 schema; the apps'
sizeBytes equal to what the download sends."""
import io
import json
import random
import shutil
import tarfile
import zipfile
from pathlib import Path

import pytest
import xmlschema

from clients import zipstream
from tests.conftest import make_page
from tests.support.pages import wait_for_library

from .apps import basic

XSD = xmlschema.XMLSchema(Path(__file__).parent / "fixtures" / "ComicInfo-v2.0.xsd")
CHAPTER = "/download/Moon%20Garden/1/2/"


@pytest.fixture
def moon(request, library_dir):
    """tiny_tree, Moon Garden with an artist, genres, a language, and a chapter title holding
    characters XML cannot carry."""
    folder = library_dir / "Moon Garden"
    (folder / "manga.json").write_text(json.dumps({
        "title": "Moon Garden", "direction": "rtl", "authors": ["A. Writer"], "artists": ["B. Artist"],
        "genres": ["Fantasy", "Drama"], "language": "en", "description": "Roots & <leaves>"}))
    (folder / "b01 Spring" / "c0002 Roots [MangaDex]" / "chapter.json").write_text(
        json.dumps({"title": "Roots\u0001 & <more>"}))
    request.getfixturevalue("server")
    user = request.getfixturevalue("reader_user")
    wait_for_library(user, 2)
    return user


def comic_info(body):
    xml = zipfile.ZipFile(io.BytesIO(body)).read("ComicInfo.xml")
    XSD.validate(xml.decode())  # raises, naming the element, when it is not valid
    return xml


def test_the_same_pages_give_the_same_bytes_with_their_length_and_an_etag(moon, library_dir):
    status, headers, body = moon.get(CHAPTER)
    assert status == 200 and headers["Content-Length"] == str(len(body)) and headers["Accept-Ranges"] == "bytes"
    found = zipfile.ZipFile(io.BytesIO(body))
    assert found.testzip() is None
    assert {i.date_time for i in found.infolist()} == {(1980, 1, 1, 0, 0, 0)}  # no clock in the bytes
    again = moon.get(CHAPTER)
    assert again[2] == body and again[1]["ETag"] == headers["ETag"]
    assert moon.get(CHAPTER, headers={"If-None-Match": headers["ETag"]})[0] == 304
    make_page(library_dir / "Moon Garden" / "b01 Spring" / "c0002 Roots [MangaDex]" / "002.png", size=(70, 90))
    changed = moon.get(CHAPTER)
    assert changed[1]["ETag"] != headers["ETag"] and changed[1]["Content-Length"] == str(len(changed[2]))


def test_a_download_resumes_from_any_byte_and_bad_ranges_are_416(moon):
    _, headers, body = moon.get(CHAPTER)
    etag, length = headers["ETag"], len(body)
    for first, last in [(0, 0), (1, 99), (length // 2, None), (length - 1, None), (40, length + 500)]:
        spec = f"bytes={first}-{'' if last is None else last}"
        status, got, part = moon.get(CHAPTER, headers={"Range": spec, "If-Range": etag})
        end = min(length, (last if last is not None else length) + (1 if last is not None else 0))
        assert status == 206 and part == body[first:end], spec
        assert got["Content-Range"] == f"bytes {first}-{end - 1}/{length}"
        assert got["Content-Length"] == str(end - first)
    assert moon.get(CHAPTER, headers={"Range": "bytes=-100"})[2] == body[-100:]
    for bad in (f"bytes={length}-", "bytes=9-3", "bytes=-0"):
        status, got, message = moon.get(CHAPTER, headers={"Range": bad})
        assert status == 416 and got["Content-Range"] == f"bytes */{length}" and b"not within" in message, bad
    # Another archive than the part the app holds: all of it again
    assert moon.get(CHAPTER, headers={"Range": "bytes=10-", "If-Range": '"other"'})[:3:2] == (200, body)


def test_the_comicinfo_of_a_chapter_and_of_a_book_is_valid_comicinfo_2(moon):
    xml = comic_info(moon.get(CHAPTER)[2]).decode()
    assert "<Number>2</Number>\n  <Volume>1</Volume>" in xml  # not 1/2
    assert "<Title>Roots &amp; &lt;more&gt;</Title>" in xml
    assert "<Penciller>B. Artist</Penciller>\n  <Genre>Fantasy, Drama</Genre>" in xml
    assert "<LanguageISO>en</LanguageISO>\n  <Manga>YesAndRightToLeft</Manga>" in xml
    book = comic_info(moon.get("/download/Moon%20Garden/1/")[2]).decode()
    assert "<Number>1</Number>\n  <Volume>1</Volume>" in book and "<PageCount>4</PageCount>" in book
    webtoon = comic_info(moon.get("/download/Long%20Scroll/0/1/")[2]).decode()
    assert "<Volume>" not in webtoon and "<Format>Webtoon</Format>\n  <Manga>No</Manga>" in webtoon


def test_the_apps_see_the_size_the_download_sends(moon, server):
    app = server.client()
    auth = {"Authorization": basic("reader")}
    books = app.get("/komga/api/v1/books?unpaged=true", headers=auth)[2]["content"]
    assert len(books) == 3
    for book in books:
        status, headers, body = app.get(f"/komga/api/v1/books/{book['id']}/file", headers=auth)
        assert status == 200 and book["sizeBytes"] == int(headers["Content-Length"]) == len(body) > 0
        assert book["size"] == f"{len(body) / 1024:.1f}".removesuffix(".0") + " KiB"


def test_the_layout_is_exact_with_zip64_records_and_any_range(monkeypatch):
    monkeypatch.setattr(zipstream, "OFFSET_LIMIT", 200)  # ZIP64 offsets and end record without writing 4 GiB
    monkeypatch.setattr(zipstream, "COUNT_LIMIT", 3)
    rng = random.Random(7)
    data = {"ComicInfo.xml": b"<ComicInfo/>", "0001 Ch. 1/001.png": rng.randbytes(150), "empty.png": b"",
            "日本/002.png": rng.randbytes(300)}

    def archive(key):
        return zipstream.Archive([zipstream.Member(n, len(d), lambda d=d: [d[i:i + 64] for i in range(0, len(d), 64)])
                                  for n, d in data.items()], key)

    whole = b"".join(archive("a").chunks())
    assert len(whole) == archive("a").length
    found = zipfile.ZipFile(io.BytesIO(whole))
    assert found.testzip() is None and {n: found.read(n) for n in found.namelist()} == data
    for _ in range(100):
        start = rng.randrange(len(whole))
        end = rng.randrange(start, len(whole) + 1)
        assert b"".join(archive(f"fresh{start}-{end}").chunks(start, end)) == whole[start:end]


def test_a_page_that_changed_since_the_plan_ends_the_download():
    short = zipstream.Archive([zipstream.Member("001.png", 10, lambda: [b"12345"])], None)
    with pytest.raises(zipstream.Mismatch, match="5 bytes, not the 10"):
        b"".join(short.chunks())


def test_the_served_app_sends_the_length_and_ranges_as_they_are(real_server, moon):
    """Through gunicorn: the length is sent as it is (no chunked framing); a HEAD gets the headers alone."""
    assert type(moon).__name__ == "Client"  # a socket to the served app, not the in-process client
    status, headers, body = moon.get(CHAPTER)
    assert status == 200 and headers.get("Transfer-Encoding") is None and int(headers["Content-Length"]) == len(body)
    status, headers, part = moon.get(CHAPTER, headers={"Range": "bytes=100-"})
    assert status == 206 and part == body[100:] and int(headers["Content-Length"]) == len(body) - 100
    status, headers, empty = moon.request("HEAD", CHAPTER)
    assert status == 200 and not empty and headers["Content-Length"] == str(len(body))


KOMGA_ARCHIVES = Path(__file__).parents[2] / "library" / "fixtures" / "komga"  # Komga's own (README there)


@pytest.fixture
def formats(request, library_dir):
    """A manga whose chapters are a RAR4, a solid RAR5, a PDF, a CBZ of deflated pages, a (solid) 7z
    and a tar with a member that is no image."""
    folder = library_dir / "Formats"
    folder.mkdir()
    for n, name in enumerate(("rar4.rar", "rar5-solid.rar"), start=1):
        shutil.copy(KOMGA_ARCHIVES / name, folder / f"Formats c{n:03d}.cbr")
    shutil.copy(KOMGA_ARCHIVES / "komga.pdf", folder / "Formats c003.pdf")
    shutil.copy(KOMGA_ARCHIVES / "7zip.7z", folder / "Formats c005.cb7")
    with tarfile.open(folder / "Formats c006.cbt", "w") as tar:
        for n in (1, 2, 3):
            tar.add(make_page(library_dir.parent / "pages" / f"{n:03d}.png", size=(64, 96 + n)), f"{n:03d}.png")
        tar.addfile(tarfile.TarInfo("notes.png"))  # an empty member named like a page: no image
    with zipfile.ZipFile(folder / "Formats c004.cbz", "w", zipfile.ZIP_DEFLATED) as deflated:
        for n in (1, 2):
            deflated.write(make_page(library_dir.parent / "pages" / f"{n:03d}.png", size=(64, 96)), f"{n:03d}.png")
    request.getfixturevalue("server")
    user = request.getfixturevalue("reader_user")
    wait_for_library(user, 3)
    return user


def test_chapters_in_rar_pdf_and_deflated_cbz_download_with_their_exact_length(formats, server):
    app = server.client()
    auth = {"Authorization": basic("reader")}
    books = app.get("/komga/api/v1/books?unpaged=true&search=formats", headers=auth)[2]["content"]
    names = ["Formats c001.cbr", "Formats c002.cbr", "Formats c003.pdf", "Formats c004.cbz", "Formats c005.cb7",
             "Formats c006.cbt"]
    assert sorted(b["name"] for b in books) == names
    for book in books:
        status, headers, body = app.get(f"/komga/api/v1/books/{book['id']}/file", headers=auth)
        assert status == 200 and int(headers["Content-Length"]) == len(body), book["name"]
        found = zipfile.ZipFile(io.BytesIO(body))
        left_out = book["name"] == "Formats c006.cbt"  # its member that is no image
        assert found.testzip() is None and len(found.namelist()) == 1 + book["media"]["pagesCount"] - left_out
        assert f"<PageCount>{len(found.namelist()) - 1}</PageCount>" in comic_info(body).decode()
        resumed = app.get(f"/komga/api/v1/books/{book['id']}/file", headers={**auth, "Range": "bytes=200-"})
        assert resumed[0] == 206 and resumed[2] == body[200:], book["name"]
        if book["name"] in ("Formats c002.cbr", "Formats c003.pdf", "Formats c005.cb7"):
            assert book["sizeBytes"] > 0  # an estimate: solid archives and PDFs are unpacked or rendered to know
        else:
            assert book["sizeBytes"] == len(body), book["name"]  # exact: a directory or headers give each length


def test_a_non_solid_archive_is_measured_in_one_pass_and_a_member_that_is_no_image_left_out(formats, monkeypatch):
    from library import libarch
    opened = []
    read_member = libarch.member
    monkeypatch.setattr(libarch, "member", lambda *a: opened.append(a[1]) or read_member(*a))
    path = "/download/Formats/0/6/"
    status, headers, first = formats.get(path, headers={"Range": "bytes=0-1"})
    assert status == 206 and first == b"PK" and opened == []  # the length from the tar's listing alone
    body = formats.get(path)[2]
    assert int(headers["Content-Range"].rpartition("/")[2]) == len(body)
    names = zipfile.ZipFile(io.BytesIO(body)).namelist()
    assert opened == ["001.png", "002.png", "003.png"] and names == ["ComicInfo.xml", *opened]
