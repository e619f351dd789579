"""The round trip between the web reader in a browser and the Komga API: one progress record,
the same version, the same `done`."""
import time
from urllib.parse import quote

import pytest

from bench.server import Client
from tests.conftest import PASSWORD

from .apps import basic

MOON = "Moon Garden"
MANGADEX = "c0002 Roots [MangaDex]"


@pytest.fixture(scope="module")
def srv(demo_server):
    return demo_server


def komga_for(srv, name):
    app = Client("127.0.0.1", srv.port)
    assert app.get("/komga/api/v2/users/me", headers={"Authorization": basic(name, PASSWORD)})[0] == 200
    return app


def chapter_book(app, cid):
    series = app.get("/komga/api/v1/series?search=moon%20garden")[2]["content"][0]
    books = app.get(f"/komga/api/v1/series/{series['id']}/books?unpaged=true")[2]["content"]
    return next(b for b in books if b["metadata"]["number"] == cid)


def wait_for(check, timeout=5):
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.1)
    return found


def test_a_page_turned_in_the_browser_shows_in_the_app_and_the_apps_page_opens_in_the_browser(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page").open(MOON, 1, 2, MANGADEX)
    for _ in range(3):
        reader.page.keyboard.press("ArrowLeft")
    reader.saved(MOON, "1/2", lambda e: e["p"] == 3)
    app = komga_for(srv, reader.client.get("/api/me")[2]["name"])
    book = wait_for(lambda: chapter_book(app, "1/2"))
    assert (book["name"], book["readProgress"]["page"], book["readProgress"]["completed"]) == (MANGADEX, 4, False)
    # The app reads on to page 8: the web reader's Resume opens there, in the same version
    assert app.request("PATCH", f"/komga/api/v1/books/{book['id']}/read-progress", body={"page": 8})[0] == 204
    reader.page.goto(f"{srv.url}/manga/{quote(MOON, safe='')}/")
    resume = reader.page.locator("#continue")
    assert "p. 8/10" in resume.inner_text()
    resume.click()
    reader.wait("window.mcReader && mcReader.boxes.length > 0")
    assert reader.state("mcReader.page") == 7
    assert reader.page.url.endswith("?v=" + quote(MANGADEX, safe=""))
    # Finished in the app: read on the manga page; finished in the browser: completed in the app
    assert app.request("PATCH", f"/komga/api/v1/books/{book['id']}/read-progress", body={"completed": True})[0] == 204
    reader.page.goto(f"{srv.url}/manga/{quote(MOON, safe='')}/")
    assert "read" in reader.page.locator('li.chapter[data-c="1/2"]').get_attribute("class").split()
    book_mode = reader_on(desktop, srv, startMode="book")
    app = komga_for(srv, book_mode.client.get("/api/me")[2]["name"])
    book_mode.open(MOON, 1, 2.5)
    book_mode.page.keyboard.press("ArrowLeft")
    book_mode.page.keyboard.press("ArrowLeft")  # the last spread
    book_mode.saved(MOON, "1/2.5", lambda e: e["done"])
    progress = chapter_book(app, "1/2.5")["readProgress"]
    assert (progress["completed"], progress["page"]) == (True, 4)
    tracker = app.get(f"/komga/api/v2/series/{book['seriesId']}/read-progress/tachiyomi")[2]
    assert (tracker["booksReadCount"], tracker["lastReadContinuousNumberSort"]) == (1, 0)
