"""A library of every format, read in a real browser (docs/library.md, "Archives"): a RAR4 and a
solid RAR5 chapter, a CB7 made by 7-Zip, a CBT, an EPUB and a PDF, each opened in the reader, its
pages decoded by the browser, and a Western comic from a CB7 read left to right."""
import pytest

from tests.library.test_formats import formats_tree

from .conftest import start_server, stop_server

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("formats")
    server = start_server(tmp_path_factory, formats_tree(tmp / "library", tmp), ("Epub Shelf", "3/1"))
    yield server
    stop_server(server)


@pytest.mark.parametrize("manga, book, chapter, pages", [
    ("Komga Formats", 0, 1, 3),  # RAR4
    ("Komga Formats", 0, 3, 3),  # solid RAR5, through the page cache
    ("Made Here", 0, 1, 4),  # CB7 by 7-Zip
    ("Made Here", 0, 2, 3),  # CBT by GNU tar
    ("Epub Shelf", 3, 1, 3),  # fixed-layout EPUB
    ("Pdf Shelf", 2, 1, 1),  # PDF, rendered
])
def test_every_page_of_each_format_is_decoded_by_the_browser(srv, desktop, reader_on, manga, book, chapter, pages):
    reader = reader_on(desktop, srv, startMode="page").open(manga, book, chapter)
    assert len(reader.state("mcReader.shown")) == pages
    # the page on screen and the ones after it are fetched and decoded ahead (read-loading.js)
    reader.wait(f"[...Array({pages}).keys()].every((i) => mcReader.decoded.includes(i))", timeout=15)


def test_a_comic_in_a_cb7_reads_left_to_right(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page").open("Made Here", 0, 1)
    reader.page.keyboard.press("ArrowRight")
    reader.wait("mcReader.page === 1")


@pytest.mark.parametrize("device, width", [("desktop", 1600), ("phone", 800)])
def test_a_pdf_page_is_drawn_at_the_width_of_the_screen(srv, request, reader_on, device, width):
    # Komga's PDF is a Flate image: drawn by PDFium, 1,600 pixels for 1280 px at 1×, 800 for 390 px at 2×
    reader = reader_on(request.getfixturevalue(device), srv, startMode="page").open("Pdf Shelf", 2, 1)
    reader.wait("mcReader.decoded.includes(0)", timeout=15)
    src, natural = reader.page.evaluate(
        "() => { const i = [...document.querySelectorAll('img')].find((i) => i.src.includes('.pdf/'));"
        " return [i.src, i.naturalWidth]; }")
    assert src.endswith(f"?w={width}") and natural == width
