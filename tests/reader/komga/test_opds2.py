"""The OPDS 2.0 catalog (/opds/v2/): every feed valid under the OPDS 2.0 feed schema and every
Divina manifest under the Readium Web Publication Manifest schema (opds2-schema/README.md), the
shelves of OPDS 1.2, the search template, percent-encoded links, restrictions, and the pages a
manifest lists served with the type and size it gives them."""
import io
import xml.etree.ElementTree as ET
import zipfile
from types import SimpleNamespace

import orjson
import pytest
import uri_template
from PIL import Image

from clients.komga.ids import book_id, series_id
from clients.opds import v2, v2_views
from tests.conftest import PASSWORD, make_page
from tests.support.forms import post_form
from tests.support.pages import wait_for_library

from . import opds2_schemas
from .apps import basic

OPDS2 = "application/opds+json"
DIVINA = "application/divina+json"
ACQUISITION = "http://opds-spec.org/acquisition"
MIXED = "Mixed Pages"
SHELVES = ["Library", "Recently added", "Continue reading", "Followed", "Collections", "Read lists", "By genre",
           "By tag"]


@pytest.fixture
def library_dir(library_dir):
    mixed = library_dir / MIXED
    mixed.mkdir()
    (mixed / "manga.json").write_text(
        '{"authors": ["B. Writer"], "artists": ["C. Artist"], "tags": ["A/B", "C#", "Why?"], "genres": ["Mystery"],'
        ' "language": "en", "direction": "ltr", "description": "Three pages, three formats."}')
    make_page(mixed / "c0001" / "001.png", size=(70, 100))
    make_page(mixed / "c0001" / "002.webp", size=(72, 104), color=(10, 120, 200))
    make_page(mixed / "c0001" / "003.jpg", size=(74, 108), color=(200, 10, 10))
    return library_dir


@pytest.fixture
def opds(server, admin):
    wait_for_library(admin, 3)
    assert admin.post("/api/admin/user", {"name": "reader", "password": PASSWORD})[0] == 200
    return reader_get(server, "reader")


def reader_get(server, name):
    auth = {"Authorization": basic(name)}

    def get(path, status=200):
        got, headers, body = server.client().send("GET", path, headers=auth)
        assert got == status, (path, got, body[:300])
        return headers, body

    return get


def feed(opds, path):
    """The feed at `path`, checked against the OPDS 2.0 feed schema, with its self link."""
    headers, body = opds(path)
    assert headers.get("Content-Type") == OPDS2
    doc = orjson.loads(body)
    assert opds2_schemas.errors(doc, opds2_schemas.FEED) == [], path
    rels = {link["rel"]: link for link in doc["links"]}
    assert rels["self"]["href"] == path and rels["start"]["href"] == "/opds/v2/"
    assert rels["search"] == {"href": "/opds/v2/search{?query}", "type": OPDS2, "rel": "search", "templated": True}
    return doc


def manifest(opds, path):
    headers, body = opds(path)
    assert headers.get("Content-Type") == DIVINA
    doc = orjson.loads(body)
    assert opds2_schemas.errors(doc, opds2_schemas.MANIFEST) == [], path
    assert doc["metadata"]["conformsTo"] == "https://readium.org/webpub-manifest/profiles/divina"
    (self_link,) = [link for link in doc["links"] if link.get("rel") == "self"]
    assert self_link["type"] == DIVINA and self_link["href"].endswith(path) and "://" in self_link["href"]
    return doc


def titles(items):
    return [item.get("title") or item["metadata"]["title"] for item in items]


def test_the_1_2_root_links_the_2_0_root_which_lists_every_shelf(opds):
    headers, body = opds("/opds/")
    alternates = [link.attrib for link in ET.fromstring(body).iter("{http://www.w3.org/2005/Atom}link")
                  if link.get("rel") == "alternate"]
    assert alternates == [{"rel": "alternate", "href": "/opds/v2/", "type": OPDS2, "title": "OPDS 2.0"}]
    root = feed(opds, "/opds/v2/")
    assert titles(root["navigation"]) == SHELVES
    for link in root["navigation"]:
        assert link["type"] == OPDS2 and link["rel"] == "subsection"
        feed(opds, link["href"])
    (recent,) = root["groups"]  # nothing read yet: no "Continue reading" group
    assert recent["metadata"] == {"title": "Recently added", "numberOfItems": 3}
    assert sorted(titles(recent["navigation"])) == ["Long Scroll", MIXED, "Moon Garden"]


def test_the_library_is_paginated_with_numbers_and_links(opds, monkeypatch):
    monkeypatch.setattr(v2_views, "PER_PAGE", 2)
    first = feed(opds, "/opds/v2/series")
    assert first["metadata"] | {"modified": None} == {"title": "Library", "modified": None, "numberOfItems": 3,
                                                      "itemsPerPage": 2, "currentPage": 1}
    assert titles(first["navigation"]) == ["Long Scroll", MIXED]
    links = {link["rel"]: link["href"] for link in first["links"]}
    assert "previous" not in links and links["next"] == links["last"] == "/opds/v2/series?page=2"
    second = feed(opds, links["next"])
    assert titles(second["navigation"]) == ["Moon Garden"] and second["metadata"]["currentPage"] == 2
    assert {link["rel"]: link["href"] for link in second["links"]}["previous"] == "/opds/v2/series?page=1"
    moon = second["navigation"][0]
    assert moon["rel"] == "subsection" and moon["properties"] == {"numberOfItems": 2}


def test_a_manga_is_a_feed_of_chapters_each_with_its_divina_manifest_and_cbz(opds):
    moon = feed(opds, f"/opds/v2/series/{series_id('Moon Garden')}")
    assert moon["metadata"]["title"] == "Moon Garden"
    assert titles(moon["publications"]) == ["Ch. 1: Seeds", "Ch. 2: Roots"]
    first = moon["publications"][0]
    metadata = first["metadata"]
    assert metadata["author"] == ["A. Writer"] and metadata["readingProgression"] == "rtl"
    assert metadata["belongsTo"] == {"series": [{"name": "Moon Garden", "position": 1}]}
    assert metadata["numberOfPages"] == 2
    assert metadata["identifier"] == f"urn:mangacircus:book:{book_id('Moon Garden', '1/1')}"
    links = {link["type"]: link for link in first["links"]}
    assert {link["rel"] for link in first["links"]} == {ACQUISITION}
    _, body = opds(links["application/vnd.comicbook+zip"]["href"])
    assert len(zipfile.ZipFile(io.BytesIO(body)).namelist()) == 3  # ComicInfo.xml and two pages
    cover_headers, cover = opds(first["images"][0]["href"])
    assert cover_headers.get("Content-Type") == first["images"][0]["type"] == "image/webp" and cover[8:12] == b"WEBP"

    doc = manifest(opds, links[DIVINA]["href"])
    assert doc["metadata"] == metadata
    assert [(p["type"], p["width"], p["height"]) for p in doc["readingOrder"]] == [("image/png", 60, 90)] * 2
    for page in doc["readingOrder"]:
        headers, body = opds(page["href"])
        assert headers.get("Content-Type") == page["type"]
        assert Image.open(io.BytesIO(body)).size == (page["width"], page["height"])


def test_each_page_of_a_mixed_chapter_has_its_own_type_and_the_manga_its_metadata(opds):
    (chapter,) = feed(opds, f"/opds/v2/series/{series_id(MIXED)}")["publications"]
    metadata = chapter["metadata"]
    assert metadata["author"] == ["B. Writer"] and metadata["penciler"] == ["C. Artist"]
    assert metadata["language"] == "en" and metadata["readingProgression"] == "ltr"
    assert metadata["description"] == "Three pages, three formats."
    assert metadata["subject"] == [{"name": "Mystery", "code": "Mystery"}]
    href = next(link["href"] for link in chapter["links"] if link["type"] == DIVINA)
    pages = manifest(opds, href)["readingOrder"]
    assert [(p["type"], p["width"], p["height"]) for p in pages] == [
        ("image/png", 70, 100), ("image/webp", 72, 104), ("image/jpeg", 74, 108)]
    for page in pages:
        headers, body = opds(page["href"])
        image = Image.open(io.BytesIO(body))
        assert headers.get("Content-Type") == page["type"] == Image.MIME[image.format]


def test_a_vertical_strip_is_a_scrolled_publication(opds):
    (chapter,) = feed(opds, f"/opds/v2/series/{series_id('Long Scroll')}")["publications"]
    assert chapter["metadata"]["layout"] == "scrolled" and "readingProgression" not in chapter["metadata"]


def test_the_search_template_finds_by_title_and_author(opds):
    template = feed(opds, "/opds/v2/")["links"][2]["href"]
    found = feed(opds, uri_template.expand(template, query="moon garden"))
    assert titles(found["navigation"]) == ["Moon Garden"] and found["metadata"]["title"] == "Search: moon garden"
    assert titles(feed(opds, uri_template.expand(template, query="b. writer"))["navigation"]) == [MIXED]
    nothing = feed(opds, uri_template.expand(template, query="nothing like it"))
    assert nothing["metadata"]["numberOfItems"] == 0
    assert nothing["navigation"] == [{"href": "/opds/v2/", "type": OPDS2, "rel": "start",
                                      "title": "Nothing here: back to the start"}]


def test_tags_with_a_slash_hash_and_question_mark_have_percent_encoded_links(opds):
    tags = feed(opds, "/opds/v2/tags")["navigation"]
    assert {t["title"]: t["href"] for t in tags} == {
        "A/B": "/opds/v2/tags/A/B", "C#": "/opds/v2/tags/C%23", "Why?": "/opds/v2/tags/Why%3F"}
    assert all(t["properties"] == {"numberOfItems": 1} for t in tags)
    for tag in tags:
        found = feed(opds, tag["href"])
        assert titles(found["navigation"]) == [MIXED]
    links = {link["rel"]: link["href"] for link in feed(opds, "/opds/v2/tags/C%23")["links"]}
    assert links["first"] == links["last"] == "/opds/v2/tags/C%23?page=1"
    (genre,) = feed(opds, "/opds/v2/genres")["navigation"]
    assert genre["title"] == "Mystery" and titles(feed(opds, genre["href"])["navigation"]) == [MIXED]
    opds("/opds/v2/tags/Invented", status=404)


def test_continue_reading_and_followed_follow_the_user(server, opds):
    app = server.client()
    book = app.get("/komga/api/v1/books?search=seeds", headers={"Authorization": basic("reader")})[2]["content"][0]
    assert app.request("PATCH", f"/komga/api/v1/books/{book['id']}/read-progress", body={"page": 1})[0] == 204
    continuing = feed(opds, "/opds/v2/continue")
    assert titles(continuing["navigation"]) == ["Moon Garden"]
    assert titles(continuing["publications"]) == ["Ch. 1: Seeds"]
    group = feed(opds, "/opds/v2/")["groups"][0]
    assert group["metadata"]["title"] == "Continue reading" and titles(group["publications"]) == ["Ch. 1: Seeds"]
    assert titles(feed(opds, "/opds/v2/followed")["navigation"]) == ["Nothing here: back to the start"]
    assert server.client().login("reader").post("/api/follow", {"m": MIXED, "on": True})[0] == 200
    assert titles(feed(opds, "/opds/v2/followed")["navigation"]) == [MIXED]


def test_without_downloads_a_chapter_still_streams(opds, admin):
    assert post_form(admin, "/settings/admin/apps/", {})[0] == 302  # "Allow downloads" unticked
    (chapter,) = feed(opds, f"/opds/v2/series/{series_id(MIXED)}")["publications"]
    assert [(link["rel"], link["type"]) for link in chapter["links"]] == [(ACQUISITION, DIVINA)]


def test_each_collection_is_a_shelf_in_its_order(server, opds, admin):
    made = admin.post("/api/collections", {"name": "Picks", "members": [MIXED, "Moon Garden"]})[2]
    admin.post("/api/collections", {"name": "Mine alone", "shared": False, "members": ["Moon Garden"]})
    shelves = feed(opds, "/opds/v2/collections")
    assert [(n["title"], n["properties"]["numberOfItems"]) for n in shelves["navigation"]] == [("Picks", 2)]
    assert shelves["navigation"][0]["href"] == f"/opds/v2/collections/{made['id']}"
    assert titles(feed(opds, shelves["navigation"][0]["href"])["navigation"]) == [MIXED, "Moon Garden"]
    opds("/opds/v2/collections/c" + "z" * 20, status=404)


def test_each_read_list_is_a_shelf_of_its_chapters_in_order(server, opds, admin):
    made = admin.post("/api/readlists", {"name": "Event", "items": [{"m": MIXED}, {"m": "Moon Garden", "c": "1/2"}]})[2]
    admin.post("/api/readlists", {"name": "Mine alone", "shared": False, "items": [{"m": "Moon Garden"}]})
    shelves = feed(opds, "/opds/v2/readlists")
    assert [(n["title"], n["properties"]["numberOfItems"]) for n in shelves["navigation"]] == [("Event", 2)]
    assert shelves["navigation"][0]["href"] == f"/opds/v2/readlists/{made['id']}"
    shelf = feed(opds, shelves["navigation"][0]["href"])
    assert titles(shelf["publications"]) == [f"{MIXED} · Ch. 1", "Moon Garden · Ch. 2: Roots"]
    assert [p["metadata"]["belongsTo"]["series"][0] for p in shelf["publications"]] == [
        {"name": MIXED, "position": 1}, {"name": "Moon Garden", "position": 2}]
    manifest(opds, shelf["publications"][1]["links"][0]["href"])
    opds("/opds/v2/readlists/r" + "z" * 20, status=404)


def test_a_manga_hidden_from_a_user_is_nowhere_in_their_catalog(server, opds, admin):
    assert admin.post("/api/admin/user/access", {"name": "reader", "only": ["Long Scroll"]})[0] == 200
    seen = b""
    for path in ("/opds/v2/", "/opds/v2/series", "/opds/v2/recent", "/opds/v2/tags", "/opds/v2/genres",
                 "/opds/v2/search?query=moon", "/opds/v2/search?query="):
        feed(opds, path)
        seen += opds(path)[1]
    assert b"Long Scroll" in seen and b"Moon Garden" not in seen and MIXED.encode() not in seen
    opds(f"/opds/v2/series/{series_id('Moon Garden')}", status=404)
    opds(f"/opds/v2/books/{book_id('Moon Garden', '1/1')}/manifest", status=404)
    opds("/opds/v2/tags/C%23", status=404)


def test_it_asks_for_credentials_and_takes_an_api_key(server, opds):
    status, headers, body = server.client().send("GET", "/opds/v2/series")
    assert status == 401 and headers.get("WWW-Authenticate") == 'Basic realm="MangaCircus"'
    assert headers.get("Content-Type") == "application/opds-authentication+json"
    doc = orjson.loads(body)
    assert opds2_schemas.errors(doc, opds2_schemas.AUTHENTICATION) == []
    assert doc["authentication"] == [{"type": "http://opds-spec.org/auth/basic",
                                      "labels": {"login": "Name", "password": "Password"}}]
    assert doc["id"].endswith("/opds/v2/") and doc["description"].startswith("sign in")
    wrong = server.client().send("GET", "/opds/v2/", headers={"Authorization": basic("reader", "wrong password")})
    assert wrong[0] == 401 and orjson.loads(wrong[2])["authentication"][0]["type"].endswith("/auth/basic")
    reader = server.client().login("reader")
    assert post_form(reader, "/settings/user/apps/", {"label": "Thorium"})[0] == 302
    key = reader.get("/settings/user/apps/")[2].decode().split('<code id="new-key">')[1].split("<")[0]
    status, headers, _ = server.client().send("GET", "/opds/v2/series", headers={"X-API-Key": key})
    assert status == 200 and headers.get("Content-Type") == OPDS2 and not headers.get_all("Set-Cookie")


def test_a_language_is_given_only_as_a_language_tag():
    """metadata.language must be a BCP 47 tag: manga.json's "English" is left out, not sent invalid."""
    assert [v2.language(SimpleNamespace(meta={"language": value})) for value in ("en", "pt-BR", "English", "")] == [
        "en", "pt-BR", None, None]
