"""The OPDS 2.0 catalog and its Divina manifests read by Readium's own models, from a real `serve`
(gunicorn) on loopback: r2-opds-js 1.0.47's OPDSFeed and r2-shared-js's Publication (what Thorium
loads an OPDS 2 feed and a Web Publication Manifest into, through ta-json), run by node on
opds2_clients.js (tests/support/opds_clients.py installs them). What a model does not understand
is lost when it is serialised again, so each check reads the model's copy, not the server's."""
import pytest

from clients.komga.ids import series_id
from tests.conftest import PASSWORD, make_page
from tests.support import opds_clients
from tests.support.pages import wait_for_library

from .apps import basic

ACQUISITION = "http://opds-spec.org/acquisition"
DIVINA = "application/divina+json"
MIXED = "Mixed Pages"


@pytest.fixture
def library_dir(library_dir):
    mixed = library_dir / MIXED
    mixed.mkdir()
    (mixed / "manga.json").write_text(
        '{"authors": ["B. Writer"], "tags": ["C#"], "language": "en", "direction": "ltr"}')
    make_page(mixed / "c0001" / "001.png", size=(70, 100))
    make_page(mixed / "c0001" / "002.webp", size=(72, 104))
    return library_dir


@pytest.fixture
def r2(real_server, admin):
    wait_for_library(admin, 3)
    assert admin.post("/api/admin/user", {"name": "reader", "password": PASSWORD})[0] == 200

    def read(*paths):
        found = opds_clients.parse(real_server.url, paths, {"Authorization": basic("reader")},
                                   script=opds_clients.OPDS2_SCRIPT)
        for path in paths:
            assert found[path]["status"] == 200, (path, found[path])
        return {path: found[path]["r2"] for path in paths}

    return read


def test_readium_reads_the_shelves_groups_and_search_link(r2):
    root = r2("/opds/v2/")["/opds/v2/"]
    assert [n["title"] for n in root["navigation"]] == [
        "Library", "Recently added", "Continue reading", "Followed", "Collections", "Read lists", "By genre",
        "By tag"]
    search = next(link for link in root["links"] if link["rel"] == ["search"] or link["rel"] == "search")
    assert search["href"] == "/opds/v2/search{?query}" and search["templated"] is True
    (group,) = root["groups"]
    assert group["metadata"]["title"] == "Recently added" and group["metadata"]["numberOfItems"] == 3
    tags = r2("/opds/v2/tags")["/opds/v2/tags"]
    assert [(n["title"], n["href"]) for n in tags["navigation"]] == [("C#", "/opds/v2/tags/C%23")]


def test_readium_reads_a_chapter_and_its_divina_manifest_page_by_page(r2):
    path = f"/opds/v2/series/{series_id(MIXED)}"
    (chapter,) = r2(path)[path]["publications"]
    metadata = {k: v for k, v in chapter["metadata"].items() if k not in ("identifier", "modified")}
    assert metadata == {"conformsTo": "https://readium.org/webpub-manifest/profiles/divina", "title": "Ch. 1",
                        "author": "B. Writer", "language": "en", "readingProgression": "ltr",
                        "belongsTo": {"series": {"name": MIXED, "position": 1}}, "numberOfPages": 2}
    assert [(link["rel"], link["type"]) for link in chapter["links"]] == [
        (ACQUISITION, DIVINA), (ACQUISITION, "application/vnd.comicbook+zip")]
    href = chapter["links"][0]["href"]
    doc = r2(href)[href]
    assert doc["metadata"] == chapter["metadata"]
    assert [link["rel"] for link in doc["links"]] == ["self", "cover"]
    assert [(p["type"], p["width"], p["height"]) for p in doc["readingOrder"]] == [
        ("image/png", 70, 100), ("image/webp", 72, 104)]
    assert all(p["href"].startswith("/opds/books/") for p in doc["readingOrder"])



def test_readium_reads_a_read_list_shelf_of_publications(r2, real_server, admin):
    made = admin.post("/api/readlists", {"name": "Event", "items": [{"m": "Long Scroll"}, {"m": MIXED}]})[2]
    shelves = r2("/opds/v2/readlists")["/opds/v2/readlists"]
    assert [(n["title"], n["href"], n["properties"]["numberOfItems"]) for n in shelves["navigation"]] == [
        ("Event", f"/opds/v2/readlists/{made['id']}", 2)]
    path = shelves["navigation"][0]["href"]
    publications = r2(path)[path]["publications"]
    assert [p["metadata"]["title"] for p in publications] == ["Long Scroll · Ch. 1: Start", f"{MIXED} · Ch. 1"]
    href = publications[1]["links"][0]["href"]
    assert [p["type"] for p in r2(href)[href]["readingOrder"]] == ["image/png", "image/webp"]


def test_readium_keeps_a_vertical_strips_scrolled_layout(r2):
    path = f"/opds/v2/series/{series_id('Long Scroll')}"
    (chapter,) = r2(path)[path]["publications"]
    href = chapter["links"][0]["href"]
    doc = r2(href)[href]
    assert doc["metadata"]["layout"] == "scrolled" and "readingProgression" not in doc["metadata"]
    assert [(p["width"], p["height"]) for p in doc["readingOrder"]] == [(80, 400)] * 3
