"""The manga page's download links in a browser: a chapter and a book arrive as CBZ files."""
import zipfile

import pytest

from tests.support.pages import sign_in, wait_for_library

pytestmark = pytest.mark.browser


def test_the_manga_page_downloads_a_chapter_and_a_book_as_cbz(server, admin, desktop, tmp_path):
    wait_for_library(admin, 2)
    page = sign_in(desktop, server, "admin", path="/manga/Moon%20Garden/")
    with page.expect_download() as chapter:
        page.get_by_role("link", name="Download Ch. 2 as CBZ").click()
    assert chapter.value.suggested_filename == "Moon Garden - Ch. 2.cbz"
    path = tmp_path / "chapter.cbz"
    chapter.value.save_as(path)
    assert zipfile.ZipFile(path).namelist() == ["ComicInfo.xml", "001 [cover].png", "002.png"]
    with page.expect_download() as book:
        page.get_by_role("link", name="Download Book 1 · Spring as CBZ").click()
    book.value.save_as(tmp_path / "book.cbz")
    assert len(zipfile.ZipFile(tmp_path / "book.cbz").namelist()) == 5
