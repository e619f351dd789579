"""Chapters and books as CBZ: streamed, ComicInfo.xml first, the user's version, every path checked;
the admin can turn downloads off everywhere (manga page, /download/, OPDS, the Komga API)."""
import io
import re
import xml.etree.ElementTree as ET
import zipfile

from django.http import StreamingHttpResponse
from django.test import RequestFactory

from clients import cbz
from tests.support.forms import post_form
from tests.support.pages import wait_for_library

from .apps import basic

CHAPTER = "/download/Moon%20Garden/1/2/"


def archive(body):
    found = zipfile.ZipFile(io.BytesIO(body))
    assert found.testzip() is None
    return found


def info(found):
    root = ET.fromstring(found.read("ComicInfo.xml"))
    return {child.tag: child.text for child in root}


def test_a_chapter_downloads_in_the_version_the_user_reads_with_its_comicinfo(server, reader_user):
    wait_for_library(reader_user, 2)
    status, headers, body = reader_user.get(CHAPTER)
    assert status == 200 and headers.get("Content-Type") == "application/vnd.comicbook+zip"
    assert 'filename="Moon Garden - Ch. 2.cbz"' in headers.get("Content-Disposition")
    found = archive(body)
    assert found.namelist() == ["ComicInfo.xml", "001 [cover].png", "002.png"]  # the top-ranked version
    assert info(found) == {"Title": "Roots", "Series": "Moon Garden", "Number": "2", "Volume": "1",
                           "Writer": "A. Writer", "PageCount": "2", "Manga": "YesAndRightToLeft"}
    assert all(i.compress_type == zipfile.ZIP_STORED for i in found.infolist())
    # Reading the other version makes it the one downloaded
    progress = {"m": "Moon Garden", "c": "1/2", "v": "c0002 Roots [Official]", "p": 0, "n": 2, "shift": []}
    assert reader_user.post("/api/progress", progress)[0] == 200
    assert archive(reader_user.get(CHAPTER)[2]).namelist() == ["ComicInfo.xml", "001.png", "002-003.png"]


def test_a_book_downloads_with_each_chapter_in_its_folder(server, reader_user):
    wait_for_library(reader_user, 2)
    status, _, body = reader_user.get("/download/Moon%20Garden/1/")
    assert status == 200
    found = archive(body)
    assert found.namelist() == ["ComicInfo.xml", "0001 Ch. 1/001.png", "0001 Ch. 1/002.png",
                                "0002 Ch. 2/001 [cover].png", "0002 Ch. 2/002.png"]
    assert info(found)["Series"] == "Moon Garden" and info(found)["PageCount"] == "4"
    webtoon = archive(reader_user.get("/download/Long%20Scroll/0/1/")[2])
    assert info(webtoon)["Format"] == "Webtoon" and info(webtoon)["Manga"] == "No"


def test_the_archive_is_streamed_while_it_is_written(library_dir, settings):
    settings.LIBRARY = library_dir
    from library.model import Version

    version = Version("c0001 Seeds", dir="Moon Garden/b01 Spring", files=["001.png", "002.png", "../../x.png"],
                      sizes=[(60, 90)] * 3, stamp=1)
    planned, etag = cbz.plan(cbz._entries(version), lambda count: cbz.comic_info(
        Series="S", Number="1", Title="<T & U>", PageCount=count, Manga="No"))
    response = cbz._response(RequestFactory().get("/"), "x.cbz", planned, etag)
    assert isinstance(response, StreamingHttpResponse)
    chunks = list(response.streaming_content)
    assert len(chunks) > 3 and max(len(c) for c in chunks) <= cbz.CHUNK + 1024
    found = archive(b"".join(chunks))
    assert found.namelist() == ["ComicInfo.xml", "001.png", "002.png"]  # the path that leaves the folder is left out
    assert info(found)["Title"] == "<T & U>" and info(found)["PageCount"] == "2"


def test_unknown_chapters_and_books_are_404_and_visitors_sign_in_first(server, reader_user, guest):
    wait_for_library(reader_user, 2)
    assert reader_user.get("/download/Moon%20Garden/1/9/")[0] == 404
    assert reader_user.get("/download/Moon%20Garden/7/")[0] == 404
    assert reader_user.get("/download/Invented/1/")[0] == 404
    assert guest.get(CHAPTER)[0] == 302


def test_the_admin_can_turn_downloads_off_everywhere(server, admin, reader_user):
    wait_for_library(admin, 2)
    page = reader_user.get("/manga/Moon%20Garden/")[2].decode()
    assert re.search(r'href="/download/Moon%20Garden/1/2/" download aria-label="Download Ch. 2 as CBZ"', page)
    app = server.client()
    book = app.get("/komga/api/v1/books?search=roots", headers={"Authorization": basic("reader")})[2]["content"][0]
    assert app.get(f"/komga/api/v1/books/{book['id']}/file")[0] == 200
    assert "FILE_DOWNLOAD" in app.get("/komga/api/v2/users/me")[2]["roles"]
    assert post_form(admin, "/settings/admin/apps/", {})[0] == 302  # the box unticked
    assert "download" not in reader_user.get("/manga/Moon%20Garden/")[2].decode().lower().replace("downloads", "")
    assert reader_user.get(CHAPTER)[0] == 404
    assert app.get(f"/komga/api/v1/books/{book['id']}/file")[0] == 404
    assert "FILE_DOWNLOAD" not in app.get("/komga/api/v2/users/me")[2]["roles"]
    feed = app.get(f"/opds/series/{book['seriesId']}")[2]
    assert b"opds-spec.org/acquisition" not in feed and b"opds-pse/stream" in feed
    assert post_form(admin, "/settings/admin/apps/", {"downloads": "on"})[0] == 302
    assert reader_user.get(CHAPTER)[0] == 200
