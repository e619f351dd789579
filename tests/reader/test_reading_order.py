"""One reading order everywhere (docs/library.md, "Order"): chapters without a volume are placed
among the volumes by number, read back from /api/manga, /api/chapter, the Komga API and OPDS on a
library of real CBZ files laid out as downloaders write them."""
import xml.etree.ElementTree as ET
from urllib.parse import quote

import pytest

from clients.komga.ids import book_id, series_id
from tests.conftest import PASSWORD, make_page
from tests.library.cbz import make_cbz, pages
from tests.support.pages import wait_for_library

from .komga.apps import basic

SKY = "Ongoing Sky"  # Vol.01 (ch 1–8) … Vol.09 (ch 65–73), then loose Ch. 74, 75, and an extras book
VOLUMES = {v: list(range(8 * v - 7, 8 * v + 1)) for v in range(1, 9)} | {9: list(range(65, 74))}
LOOSE = (74, 75)
TIDE = "Tidewater"  # loose ch 1–3, Vol.02 (ch 10–12), loose ch 21, 22
BAY = "Bay Lights"  # whole-volume archives (each read as its chapter 1), a prologue and a later chapter

SKY_ORDER = [f"{v}/{c}" for v, cs in VOLUMES.items() for c in cs] + [f"0/{c}" for c in LOOSE] + ["x1/1"]
TIDE_ORDER = ["0/1", "0/2", "0/3", "2/10", "2/11", "2/12", "0/21", "0/22"]
BAY_ORDER = ["0/0", "1/1", "2/1", "0/20"]
ATOM = "{http://www.w3.org/2005/Atom}"


def ongoing_tree(root):
    sky = root / SKY
    for v, chapters in VOLUMES.items():
        for c in chapters:
            make_cbz(sky / f"{SKY} Vol.{v:02d} Ch.{c:03d}.cbz", pages(2))
    for c in LOOSE:
        make_cbz(sky / f"{SKY} Ch.{c:03d}.cbz", pages(2))
    make_page(sky / "x01 Side Stories" / "c0001 Omake" / "001.png")
    tide = root / TIDE
    for c in (1, 2, 3, 21, 22):
        make_cbz(tide / f"{TIDE} Ch.{c:03d}.cbz", pages(1))
    for c in (10, 11, 12):
        make_cbz(tide / f"{TIDE} Vol.02 Ch.{c:03d}.cbz", pages(1))
    bay = root / BAY
    for v in (1, 2):
        make_cbz(bay / f"{BAY} v{v:02d}.cbz", pages(3))
    make_cbz(bay / f"{BAY} c000 Prologue.cbz", pages(1))
    make_cbz(bay / f"{BAY} c020.cbz", pages(1))
    return root


@pytest.fixture
def library_dir(tmp_path):
    return ongoing_tree(tmp_path / "library")


@pytest.fixture
def user(server, admin):
    wait_for_library(admin, 3)
    assert admin.post("/api/admin/user", {"name": "reader", "password": PASSWORD})[0] == 200
    return server.client().login("reader", PASSWORD)


def _get(client, path, **kw):
    status, _, body = client.get(path, **kw)
    assert status == 200, (path, body if isinstance(body, dict) else body[:200])
    return body


@pytest.mark.parametrize(("manga", "order"), [(SKY, SKY_ORDER), (TIDE, TIDE_ORDER), (BAY, BAY_ORDER)])
def test_it_lists_the_manga_in_reading_order(user, manga, order):
    data = _get(user, f"/api/manga?m={quote(manga)}")
    assert [c["id"] for b in data["books"] for c in b["chapters"]] == order
    assert data["continue"]["action"] == "start" and data["continue"]["id"] == order[0]


def test_it_shows_loose_chapters_as_runs_among_the_volumes(user):
    books = _get(user, f"/api/manga?m={quote(TIDE)}")["books"]
    assert [(b["key"], b["heading"], b["whole"], b["download"]) for b in books] == [
        ("0", None, False, False), ("2", "Book 2", True, True), ("0", None, False, True)]
    sky = _get(user, f"/api/manga?m={quote(SKY)}")["books"]
    assert [b["key"] for b in sky] == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "x1"]
    assert all(b["whole"] for b in sky)
    page = _get(user, f"/manga/{TIDE}/").decode()
    # book 0's download (all of its chapters) is offered once, under its last run
    assert page.count(f'href="/download/{TIDE}/0/"') == 1 and page.count(f'href="/download/{TIDE}/2/"') == 1
    assert "Download all chapters outside a book as CBZ" in page
    assert page.index('data-c="0/22"') < page.index(f'href="/download/{TIDE}/0/"')


def test_it_continues_from_the_last_volume_into_the_loose_chapters(user):
    assert user.post("/api/read", {"m": SKY, "c": "9/73"})[0] == 200
    assert _get(user, f"/api/manga?m={quote(SKY)}")["continue"]["id"] == "0/74"


@pytest.mark.parametrize(("manga", "order"), [(SKY, SKY_ORDER), (TIDE, TIDE_ORDER)])
def test_it_gives_the_reader_its_neighbours_in_reading_order(user, manga, order):
    for at, cid in enumerate(order):
        data = _get(user, f"/api/chapter?m={quote(manga)}&c={quote(cid)}")
        assert (data["prev"] or {}).get("id") == (order[at - 1] if at else None), cid
        assert (data["next"] or {}).get("id") == (order[at + 1] if at + 1 < len(order) else None), cid
    picker = [c["id"] for b in data["books"] for c in b["chapters"]]
    assert picker == order


def _komga(server, path):
    return _get(server.client(), "/komga/api/v1" + path, headers={"Authorization": basic("reader")})


@pytest.mark.parametrize(("manga", "order"), [(SKY, SKY_ORDER), (TIDE, TIDE_ORDER), (BAY, BAY_ORDER)])
def test_it_gives_komga_apps_the_same_order(server, user, manga, order):
    books = _komga(server, f"/series/{series_id(manga)}/books?unpaged=true")["content"]
    assert [b["id"] for b in books] == [book_id(manga, cid) for cid in order]
    assert [b["number"] for b in books] == list(range(1, len(order) + 1))
    sorts = [b["metadata"]["numberSort"] for b in books]
    assert sorts == sorted(sorts) and len(set(sorts)) == len(sorts)
    at = order.index(order[-2])
    assert _komga(server, f"/books/{book_id(manga, order[at])}/next")["id"] == book_id(manga, order[at + 1])
    assert _komga(server, f"/books/{book_id(manga, order[1])}/previous")["id"] == book_id(manga, order[0])


def test_it_numbers_the_ongoing_series_by_its_chapter_numbers(server, user):
    """With the volumes first, the chapter numbers rise all the way: apps track the real numbers."""
    books = _komga(server, f"/series/{series_id(SKY)}/books?unpaged=true")["content"]
    assert [b["metadata"]["numberSort"] for b in books[:-1]] == list(range(1, 76))
    last = _komga(server, f"/books/{book_id(SKY, '9/73')}/next")
    assert last["id"] == book_id(SKY, "0/74") and last["metadata"]["number"] == "74"


@pytest.mark.parametrize(("manga", "order"), [(SKY, SKY_ORDER), (TIDE, TIDE_ORDER), (BAY, BAY_ORDER)])
def test_it_gives_opds_readers_the_same_order(server, user, manga, order):
    body = _get(server.client(), f"/opds/series/{series_id(manga)}", headers={"Authorization": basic("reader")})
    entries = ET.fromstring(body).findall(f"{ATOM}entry")
    assert [e.find(f"{ATOM}id").text for e in entries] == [f"urn:mangacircus:book:{book_id(manga, c)}" for c in order]
