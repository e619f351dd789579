"""The mixed library (folders, a CBZ per chapter, a CBZ per volume, ComicInfo.xml in both) in a real
browser against a real server: the library page, the manga page and the reader show every kind."""
import time
from urllib.parse import quote

import pytest

from bench.server import Server
from tests.conftest import PASSWORD
from tests.library.test_archives import mixed_tree

pytestmark = pytest.mark.browser

SERIES = "Star Ferry"


@pytest.fixture(scope="module")
def mixed_server(tmp_path_factory):
    library = mixed_tree(tmp_path_factory.mktemp("mixed") / "library")
    srv = Server(tmp_path_factory.mktemp("data"), library).start()
    srv.admin = srv.client().signup("admin", PASSWORD)
    deadline = time.monotonic() + 30
    while srv.admin.get(f"/api/chapter?m={quote(SERIES)}&c=2/4")[0] != 200:
        assert time.monotonic() < deadline, "the scan did not find the volume's chapters"
        time.sleep(0.1)
    yield srv
    srv.stop()


def _wait(page, condition, timeout=10):
    deadline = time.monotonic() + timeout
    while not page.evaluate(condition):
        assert time.monotonic() < deadline, f"still false after {timeout} s: {condition}"
        time.sleep(0.05)


def _signed_in(context, srv):
    context.add_cookies([{"name": "sid", "value": srv.admin.cookies["sid"], "url": srv.url}])
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, errors


def test_it_shows_every_layout_in_the_library_manga_page_and_reader(mixed_server, desktop):
    srv = mixed_server
    page, errors = _signed_in(desktop, srv)
    page.goto(srv.url + "/")
    _wait(page, "document.body.innerText.includes('Star Ferry')")
    cover = page.locator(f"img[src*='thumb/{quote(SERIES)}']").first
    cover.wait_for()
    _wait(page, f"[...document.images].some((i) => i.src.includes('thumb/{quote(SERIES)}') && i.naturalWidth > 0)")

    page.goto(f"{srv.url}/manga/{quote(SERIES, safe='')}/")
    text = page.locator("body").inner_text()
    for shown in ("Departure", "The Harbour", "Night", "Bonus", "Ann Writer"):
        assert shown in text, shown

    for book, chapter, count in (("0", "1", 3), ("0", "2", 2), ("2", "3", 2), ("2", "4", 3), ("0", "7.5", 2)):
        page.goto(f"{srv.url}/read/{quote(SERIES, safe='')}/{book}/{chapter}/")
        _wait(page, "window.mcReader && mcReader.boxes.length > 0")
        pages = "JSON.parse(document.getElementById('chapter-data').textContent).pages"
        assert page.evaluate(f"{pages}.length") == count, (book, chapter)
        # Every page of the chapter loads from /lib/ in the browser (the first is on screen).
        loaded = f"""Promise.all({pages}.map((p) => new Promise((ok) => {{
            const img = new Image(); img.onload = () => ok(img.naturalWidth); img.onerror = () => ok(0);
            img.src = document.baseURI.split('/read/')[0] + '/' + p.u; }})))"""
        widths = page.evaluate(loaded)
        assert all(w > 0 for w in widths), (book, chapter, widths)
        _wait(page, "[...document.querySelectorAll('.rd-canvas img')].some((i) => i.naturalWidth > 0)")
    assert not errors, errors
