"""A library of CBZ chapters (Komga reads archives only) and a Komga database of the same books,
built from Komga's migrations (bench/komga_db.py, tests/imports/komga_migrations/README.md)."""
import shutil
from pathlib import Path

import pytest

from bench.komga_db import Komga
from tests.library.cbz import make_cbz, pages
from tests.support.app import AppServer

MOON_1 = "Moon Garden/Moon Garden v01 c001.cbz"   # chapter 1/1 here, 3 pages
MOON_2 = "Moon Garden/c0002 Roots.cbz"            # chapter 0/2 here, 4 pages
SCROLL_3 = "Long Scroll/b01/c0003.cbz"            # chapter 1/3 here, 2 pages


def cbz_tree(root):
    make_cbz(root / MOON_1, pages(3))
    make_cbz(root / MOON_2, pages(4))
    make_cbz(root / SCROLL_3, pages(2))
    return root


@pytest.fixture(scope="session")
def cbz_template(tmp_path_factory):
    return cbz_tree(tmp_path_factory.mktemp("cbz") / "library")


@pytest.fixture
def library_dir(tmp_path, cbz_template):
    return Path(shutil.copytree(cbz_template, tmp_path / "library"))


def standard_komga(path):
    """alice (a Komga admin) finished Moon Garden 1 and is on page 2 of chapter 2; bob read page 1 of
    Long Scroll's book, which Komga knows under another file name (found by number); a book of a
    series that is not here; a book whose address climbs out of the library with '..'; Moon Garden's
    metadata edited by hand (and Star Sea's); an ordered collection of three series, one of them not
    here; a read list of three books, one of them not here."""
    k = Komga(path)
    k.user("U1", "alice@example.org", admin=True)
    k.user("U2", "bob@example.org")
    k.book("B1", "Moon Garden", MOON_1, 1, 3)
    k.book("B2", "Moon Garden", MOON_2, 2, 4)
    k.book("B3", "Long Scroll", "Long Scroll/Long Scroll 003.cbz", 3, 2)
    k.book("B4", "Star Sea", "Star Sea/Star Sea 01.cbz", 1, 10)
    k.book_at_url("B5", "Moon Garden", "file:///komga/books/../../etc/passwd.cbz", 9)
    k.progress("B1", "U1", 3, True)
    k.progress("B2", "U1", 2, False)
    k.progress("B3", "U2", 1, False)
    k.progress("B4", "U2", 5, False)
    k.progress("B5", "U1", 1, False)
    k.edit_series("Moon Garden", title="Moon Garden (Deluxe)", summary="Four seasons in a garden.",
                  direction="LEFT_TO_RIGHT", tags=["seasons", "quiet"])
    k.edit_series("Star Sea", summary="Not in that library.")
    k.collection("C1", "Favourites", ["Long Scroll", "Star Sea", "Moon Garden"], ordered=True)
    k.readlist("R1", "Summer reading", ["B3", "B4", "B1"])
    k.close()
    return path


@pytest.fixture
def komga_db(tmp_path):
    return standard_komga(tmp_path / "database.sqlite")


@pytest.fixture
def app_server(data_dir, library_dir, tmp_path):
    srv = AppServer(data_dir, library_dir, env={"BACKUP": str(tmp_path / "backups")}).start()
    yield srv
    srv.stop()
