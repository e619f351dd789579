"""The OPDS 1.2 catalog, parsed with feedparser: feed kinds and link relations, pagination,
OpenSearch, covers, and the Page Streaming Extension (pse:count, {pageNumber}, {maxWidth}, pse:lastRead)."""
import io
import xml.etree.ElementTree as ET
import zipfile

import feedparser
import pytest

from tests.conftest import PASSWORD, make_page
from tests.support.pages import wait_for_library

from .apps import basic

NAVIGATION = "application/atom+xml;profile=opds-catalog;kind=navigation"
ACQUISITION = "application/atom+xml;profile=opds-catalog;kind=acquisition"
PSE = "http://vaemendis.net/opds-pse/stream"
EXTRA = 52


@pytest.fixture
def library_dir(library_dir):
    for n in range(EXTRA):
        make_page(library_dir / f"Filler {n:02d}" / "c0001" / "001.png")
    (library_dir / "Filler 00" / "manga.json").write_text('{"tags": ["Drama", "Sea"]}')
    (library_dir / "Filler 01" / "manga.json").write_text('{"genres": ["Mystery"], "tags": ["Sea"]}')
    return library_dir


@pytest.fixture
def opds(server, admin):
    wait_for_library(admin, 2 + EXTRA)
    assert admin.post("/api/admin/user", {"name": "reader", "password": PASSWORD})[0] == 200
    auth = {"Authorization": basic("reader")}

    def get(path):
        status, headers, body = server.client().send("GET", path, headers=auth)
        assert status == 200, (path, body[:200])
        return headers, body

    return get


def parse(opds, path, kind):
    headers, body = opds(path)
    assert headers.get("Content-Type") == kind
    feed = feedparser.parse(body)
    assert not feed.bozo, feed.bozo_exception
    assert feed.namespaces[""] == "http://www.w3.org/2005/Atom"
    assert feed.feed.id and feed.feed.title and feed.feed.updated
    rels = {link["rel"]: link for link in feed.feed.links}
    assert rels["self"]["type"] == kind and rels["start"]["type"] == NAVIGATION
    assert rels["search"]["type"] == "application/opensearchdescription+xml"
    for entry in feed.entries:
        assert entry.id and entry.title and entry.updated
    return feed


def test_the_root_is_a_navigation_feed_of_every_way_in(opds):
    feed = parse(opds, "/opds/", NAVIGATION)
    assert [e.title for e in feed.entries] == ["Library", "Recently added", "Continue reading", "Followed",
                                           "Collections", "Read lists", "By genre", "By tag"]
    for entry in feed.entries:
        (link,) = entry.links
        assert link["rel"] == "subsection" and link["type"] == NAVIGATION
        parse(opds, link["href"], NAVIGATION)


def test_each_collection_is_a_shelf_in_its_order(server, admin, opds):
    made = admin.post("/api/collections", {"name": "Picks", "summary": "The best",
                                           "members": ["Moon Garden", "Filler 03", "Long Scroll"]})[2]
    admin.post("/api/collections", {"name": "Mine alone", "shared": False, "members": ["Moon Garden"]})
    shelves = parse(opds, "/opds/collections", NAVIGATION)
    assert [(e.title, e.content[0].value) for e in shelves.entries] == [("Picks", "The best")]  # not the private one
    (link,) = shelves.entries[0].links
    assert link["type"] == NAVIGATION and link["href"].endswith(f"/opds/collections/{made['id']}")
    shelf = parse(opds, link["href"], NAVIGATION)
    assert [e.title for e in shelf.entries] == ["Moon Garden", "Filler 03", "Long Scroll"]
    status, _, _ = server.client().send("GET", "/opds/collections/c" + "z" * 20,
                                        headers={"Authorization": basic("reader")})
    assert status == 404


def test_each_read_list_is_an_acquisition_feed_of_its_chapters_in_order(server, admin, opds):
    made = admin.post("/api/readlists", {"name": "Event", "summary": "Across",
                                         "items": [{"m": "Long Scroll"}, {"m": "Moon Garden", "c": "1/1"}]})[2]
    admin.post("/api/readlists", {"name": "Mine alone", "shared": False, "items": [{"m": "Moon Garden"}]})
    shelves = parse(opds, "/opds/readlists", NAVIGATION)
    assert [(e.title, e.content[0].value) for e in shelves.entries] == [("Event", "Across")]  # not the private one
    links = {link["rel"]: link for link in shelves.entries[0].links}
    assert links["subsection"]["type"] == ACQUISITION
    assert links["subsection"]["href"].endswith(f"/opds/readlists/{made['id']}")
    shelf = parse(opds, links["subsection"]["href"], ACQUISITION)
    assert [e.title for e in shelf.entries] == ["Long Scroll · Ch. 1: Start", "Moon Garden · Ch. 1: Seeds"]
    assert {link["rel"]: link["href"] for link in shelf.feed.links}["up"] == "/opds/readlists"
    for entry in shelf.entries:
        assert {link["rel"] for link in entry.links} >= {PSE, "http://opds-spec.org/acquisition"}
    status, _, _ = server.client().send("GET", "/opds/readlists/r" + "z" * 20,
                                        headers={"Authorization": basic("reader")})
    assert status == 404


def test_the_library_is_paginated_with_opensearch_counts_and_links(opds):
    first = parse(opds, "/opds/series", NAVIGATION)
    assert len(first.entries) == 50 and first.feed["opensearch_totalresults"] == str(2 + EXTRA)
    rels = {link["rel"]: link["href"] for link in first.feed.links}
    assert "previous" not in rels and rels["next"].endswith("page=2")
    second = parse(opds, rels["next"], NAVIGATION)
    assert len(second.entries) == 4 and "next" not in {link["rel"] for link in second.feed.links}
    entry = next(e for e in first.entries + second.entries if e.title == "Moon Garden")
    links = {link["rel"]: link for link in entry.links}
    assert links["subsection"]["type"] == ACQUISITION
    for rel in ("http://opds-spec.org/image", "http://opds-spec.org/image/thumbnail"):
        headers, body = opds(links[rel]["href"])
        assert headers.get("Content-Type") == "image/webp" and body[8:12] == b"WEBP"


def test_a_manga_is_an_acquisition_feed_with_a_cbz_and_a_page_stream_per_chapter(server, opds):
    (moon,) = parse(opds, "/opds/search?q=moon", NAVIGATION).entries
    href = next(link["href"] for link in moon.links if link["rel"] == "subsection")
    feed = parse(opds, href, ACQUISITION)
    assert [e.title for e in feed.entries] == ["Ch. 1: Seeds", "Ch. 2: Roots"]
    for entry in feed.entries:
        links = {link["rel"]: link for link in entry.links}
        cbz = links["http://opds-spec.org/acquisition"]
        assert cbz["type"] == "application/vnd.comicbook+zip"
        _, body = opds(cbz["href"])
        archive = zipfile.ZipFile(io.BytesIO(body))
        assert archive.namelist()[0] == "ComicInfo.xml" and len(archive.namelist()) == 3
        stream = links[PSE]
        assert "{pageNumber}" in stream["href"] and "{maxWidth}" in stream["href"]
        assert stream["pse:count"] == "2" and "pse:lastread" not in stream
        for n in range(2):
            headers, body = opds(stream["href"].replace("{pageNumber}", str(n)).replace("{maxWidth}", "800"))
            assert headers.get("Content-Type") == "image/png"
    # pse:lastRead follows the user's progress (0-based, like {pageNumber})
    app = server.client()
    book = app.get("/komga/api/v1/books?search=seeds", headers={"Authorization": basic("reader")})[2]["content"][0]
    assert app.request("PATCH", f"/komga/api/v1/books/{book['id']}/read-progress", body={"page": 2})[0] == 204
    stream = next(link for link in parse(opds, href, ACQUISITION).entries[0].links if link["rel"] == PSE)
    assert stream["pse:lastread"] == "1"
    continuing = parse(opds, "/opds/continue", NAVIGATION)
    assert [e.title for e in continuing.entries] == ["Moon Garden"]


def test_opensearch_describes_the_search_and_the_search_finds(opds):
    headers, body = opds("/opds/search.xml")
    assert headers.get("Content-Type") == "application/opensearchdescription+xml"
    url = ET.fromstring(body).find("{http://a9.com/-/spec/opensearch/1.1/}Url")
    assert url.get("type") == ACQUISITION and "{searchTerms}" in url.get("template")
    path = url.get("template").split("//", 1)[1].split("/", 1)[1]
    found = parse(opds, "/" + path.replace("{searchTerms}", "garden"), NAVIGATION)
    assert [e.title for e in found.entries] == ["Moon Garden"]


def test_tags_lead_to_their_manga(opds):
    tags = parse(opds, "/opds/tags", NAVIGATION)
    assert [e.title for e in tags.entries] == ["Drama", "Sea"]
    sea = parse(opds, tags.entries[1].links[0]["href"], NAVIGATION)
    assert [e.title for e in sea.entries] == ["Filler 00", "Filler 01"]


def test_genres_are_a_list_of_their_own(opds):
    """Genres and tags kept apart, as in Komga's series metadata: a genre is no tag, nor a tag a genre."""
    genres = parse(opds, "/opds/genres", NAVIGATION)
    assert [(e.title, e.summary) for e in genres.entries] == [("Mystery", "1 manga")]
    mystery = parse(opds, genres.entries[0].links[0]["href"], NAVIGATION)
    assert [e.title for e in mystery.entries] == ["Filler 01"]
    assert "Mystery" not in [e.title for e in parse(opds, "/opds/tags", NAVIGATION).entries]


def test_followed_lists_the_users_follows(server, opds):
    reader = server.client().login("reader")
    assert reader.post("/api/follow", {"m": "Moon Garden", "on": True})[0] == 200
    assert [e.title for e in parse(opds, "/opds/followed", NAVIGATION).entries] == ["Moon Garden"]
