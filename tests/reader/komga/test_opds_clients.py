"""The OPDS catalog read by real client code nobody here wrote, from a real `serve` (gunicorn) on
loopback, and checked against the OPDS 1.2 RelaxNG schema:

- Readium's r2-opds-js 1.0.47 (Thorium's OPDS 1 to OPDS 2 converter) and opds-feed-parser 0.1.0,
  from the npm registry, run by node on opds_clients.js (tests/support/opds_clients.py installs
  them into .venv/opds-clients/);
- the feed code of the desktop comic reader comiccatcher 0.7.5 (comiccatcher.api.opds12_parser,
  with its own HTTP client; it needs no display, its Qt window is not started) and of the
  terminal browser shelfline 0.1.0 (shelfline.catalog), from PyPI (pyproject.toml's dev extras);
- Debian's jing with the OPDS 1.2 schema of opds-schema/, whose published URI pattern is broken
  and corrected there (opds-schema/README.md).

The library: the tiny tree, plus a manga whose tags hold "/" and "#" and whose chapter mixes PNG,
WebP and JPEG pages."""
import asyncio
import concurrent.futures
import shutil
import subprocess
from pathlib import Path
from urllib.parse import quote

import pytest
from comiccatcher.api.client import APIClient
from comiccatcher.api.opds12_parser import parse_opds12
from comiccatcher.models.feed import FeedProfile
from shelfline.catalog import parse_opds_feed

from tests.conftest import PASSWORD, make_page
from tests.support import opds_clients
from tests.support.pages import wait_for_library

from .apps import basic

SCHEMA = Path(__file__).parent / "opds-schema" / "opds.rnc"
PSE = "http://vaemendis.net/opds-pse/stream"
ACQUISITION = "http://opds-spec.org/acquisition"
CBZ = "application/vnd.comicbook+zip"
MIXED = "Mixed Pages"


@pytest.fixture
def library_dir(library_dir):
    mixed = library_dir / MIXED
    mixed.mkdir()
    (mixed / "manga.json").write_text(
        '{"authors": ["B. Writer"], "tags": ["A/B", "C#", "Why?"], "genres": ["Mystery"], "language": "en",'
        ' "description": "Three pages, three formats."}')
    make_page(mixed / "c0001" / "001.png")
    make_page(mixed / "c0001" / "002.webp", color=(10, 120, 200))
    make_page(mixed / "c0001" / "003.jpg", color=(200, 10, 10))
    return library_dir


@pytest.fixture
def opds(real_server, admin):
    wait_for_library(admin, 3)
    assert admin.post("/api/admin/user", {"name": "reader", "password": PASSWORD})[0] == 200
    auth = {"Authorization": basic("reader")}

    def get(path, headers=None):
        return real_server.client().send("GET", path, headers={**auth, **(headers or {})})

    def clients(*paths):
        found = opds_clients.parse(real_server.url, paths, auth)
        for path in paths:
            assert found[path]["status"] == 200, (path, found[path])
        return found

    get.clients = clients
    get.url = real_server.url
    get.admin = admin
    return get


def navigation(r2):
    return {n["title"]: n["href"] for n in r2.get("navigation", [])}


def test_it_lists_a_tag_holding_a_slash_and_opens_its_feed(opds):
    """Item 1: "By tag" answered 500 (NoReverseMatch) for a tag with "/"; its feed was a 404."""
    tags = opds.clients("/opds/tags")["/opds/tags"]
    found = navigation(tags["r2"])
    assert sorted(found) == ["A/B", "C#", "Why?"]
    assert found["C#"] == "/opds/tags/C%23" and found["Why?"] == "/opds/tags/Why%3F"
    assert [e["title"] for e in tags["parser"]["entries"]] == ["A/B", "C#", "Why?"]
    for href in (found["A/B"], "/opds/tags/" + quote("A/B", safe=""), found["Why?"]):
        feed = opds.clients(href)[href]["r2"]
        assert list(navigation(feed)) == [MIXED]


def test_it_percent_encodes_the_paging_links_of_a_tag_feed(opds):
    """Item 2: first/last pointed at /opds/tags/C#?page=1, which a client reads as /opds/tags/C."""
    href = "/opds/tags/C%23"  # as /opds/tags links it (test_it_lists_a_tag_holding_a_slash_and_opens_its_feed)
    links = {link["rel"]: link["href"] for link in opds.clients(href)[href]["r2"]["links"]}
    assert links["first"] == links["last"] == "/opds/tags/C%23?page=1"
    assert links["self"] == "/opds/tags/C%23"
    followed = opds.clients(links["first"])[links["first"]]["r2"]
    assert list(navigation(followed)) == [MIXED]


def _comiccatcher(opds, path):
    profile = FeedProfile(id="t", name="MangaCircus", url=opds.url + "/opds/", auth_type="basic",
                          username="reader", password=PASSWORD)

    async def run():
        async with APIClient(profile) as client:
            response = await client.get(opds.url + path)
            assert response.status_code == 200, response.text[:200]
            return await parse_opds12(response.text, client, opds.url + path)

    # In a thread of its own: a worker that ran a browser test before holds Playwright's event loop
    # in this thread, where asyncio.run() is refused.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result(timeout=60)


def _manga_href(opds, title):
    """The address of a manga's feed, as shelfline finds it in the library's feed."""
    _, _, body = opds("/opds/series")
    entries = parse_opds_feed(body.decode(), opds.url + "/opds/series").entries
    return next(e.navigation_url for e in entries if e.title == title).removeprefix(opds.url)


def test_it_streams_pages_of_the_type_the_stream_link_declares(opds):
    """Item 3: every PSE link said image/jpeg. A chapter of PNG pages declares image/png; one of
    PNG, WebP and JPEG pages declares image/jpeg and its pages come as JPEG."""
    seen = {}
    for title in ("Moon Garden", MIXED):
        feed = _comiccatcher(opds, _manga_href(opds, title))
        for publication in feed.publications:
            stream = next(link for link in publication.links if link.rel == PSE)
            pages = publication.readingOrder
            assert len(pages) == publication.metadata.numberOfPages > 0
            for page in pages:
                status, headers, body = opds(page.href.removeprefix(opds.url))
                assert status == 200 and headers.get("Content-Type") == page.type == stream.type
                if page.type == "image/jpeg":
                    assert body[:3] == b"\xff\xd8\xff"
            seen[(title, publication.metadata.title)] = (stream.type, len(pages))
    assert seen[(MIXED, "Ch. 1")] == ("image/jpeg", 3)
    assert seen[("Moon Garden", "Ch. 1: Seeds")] == ("image/png", 2)


def test_a_converted_page_is_kept_and_answers_if_none_match(opds):
    feed = _comiccatcher(opds, _manga_href(opds, MIXED))
    png = feed.publications[0].readingOrder[0].href.removeprefix(opds.url)
    status, headers, body = opds(png)
    assert status == 200 and headers["ETag"].endswith('-jpeg"') and body[:3] == b"\xff\xd8\xff"
    assert opds(png)[2] == body
    status, headers, again = opds(png, {"If-None-Match": headers["ETag"]})
    assert status == 304 and again == b""
    assert opds(png.replace("type=jpeg", "type=gif"))[0] == 400


def test_manga_are_navigation_and_chapters_publications_with_their_metadata(opds):
    """Item 5: a manga entry with an author was a publication to r2-opds-js, so Thorium showed a
    card that cannot be opened; entries had no description, genres or language."""
    manga_href = _manga_href(opds, MIXED)
    found = opds.clients("/opds/series", "/opds/recent", "/opds/genres/Mystery", manga_href)
    for path in ("/opds/series", "/opds/recent", "/opds/genres/Mystery"):
        assert "publications" not in found[path]["r2"], path
        assert MIXED in navigation(found[path]["r2"])
        assert found[path]["parser"]["_class"] == "NavigationFeed"
    listed = next(n for n in found["/opds/series"]["r2"]["navigation"] if n["title"] == MIXED)
    assert "Three pages, three formats." in listed["properties"]["title_summary"]

    manga = found[manga_href]
    assert "navigation" not in manga["r2"] and manga["parser"]["_class"] == "AcquisitionFeed"
    (chapter,) = manga["r2"]["publications"]
    metadata = chapter["metadata"]
    assert metadata["title"] == "Ch. 1" and metadata["author"] == "B. Writer"
    assert "Three pages, three formats." in metadata["description"]
    assert metadata["language"] == "en" and metadata["subject"] == {"name": "Mystery", "code": "Mystery"}
    links = {link["rel"]: link for link in chapter["links"]}
    assert links[ACQUISITION]["type"] == CBZ and links[PSE]["type"] == "image/jpeg"
    (entry,) = manga["parser"]["entries"]
    assert [link["_class"] for link in entry["links"] if link.get("rel") == ACQUISITION] == ["OPDSAcquisitionLink"]
    assert [c["term"] for c in entry["categories"]] == ["Mystery"] and entry["language"] == "en"
    assert entry["pse"] == [{"type": "image/jpeg", "count": 3}]

    status, _, body = opds(manga_href)
    shelf = parse_opds_feed(body.decode(), opds.url + manga_href)
    (book,) = shelf.entries
    assert [(a.media_type, a.relation) for a in book.acquisition_links][0] == (CBZ, ACQUISITION)
    assert book.summary and "Three pages" in book.summary
    status, _, body = opds("/opds/series")
    listing = parse_opds_feed(body.decode(), opds.url + "/opds/series")
    assert all(e.navigation_url and not e.acquisition_links and not e.authors for e in listing.entries)


def test_the_clients_read_a_read_list_as_a_navigation_shelf_of_acquisition_feeds(opds):
    made = opds.admin.post("/api/readlists", {"name": "Event", "summary": "Across",
                                              "items": [{"m": MIXED}, {"m": "Moon Garden", "c": "1/1"}]})[2]
    shelf = f"/opds/readlists/{made['id']}"
    found = opds.clients("/opds/", "/opds/readlists", shelf)
    assert navigation(found["/opds/"]["r2"])["Read lists"] == "/opds/readlists"
    shelves = found["/opds/readlists"]
    assert navigation(shelves["r2"]) == {"Event": shelf} and shelves["parser"]["_class"] == "NavigationFeed"
    listed = found[shelf]
    assert "navigation" not in listed["r2"] and listed["parser"]["_class"] == "AcquisitionFeed"
    assert [p["metadata"]["title"] for p in listed["r2"]["publications"]] == [
        f"{MIXED} · Ch. 1", "Moon Garden · Ch. 1: Seeds"]
    assert [e["pse"] for e in listed["parser"]["entries"]] == [[{"type": "image/jpeg", "count": 3}],
                                                              [{"type": "image/png", "count": 2}]]
    feed = _comiccatcher(opds, shelf)
    assert [p.metadata.title for p in feed.publications] == [f"{MIXED} · Ch. 1", "Moon Garden · Ch. 1: Seeds"]
    status, _, body = opds("/opds/readlists")
    (entry,) = parse_opds_feed(body.decode(), opds.url + "/opds/readlists").entries
    assert entry.title == "Event" and entry.navigation_url.endswith(shelf) and not entry.acquisition_links


def test_every_feed_is_valid_opds_1_2_but_for_the_page_stream_template(opds, tmp_path):
    """Item 8: jing with the OPDS 1.2 RelaxNG schema (corrected, opds-schema/README.md): no error
    but one per Page Streaming link, whose href is the {pageNumber} template."""
    jing = shutil.which("jing")
    assert jing, "jing is needed for the OPDS schema validation: apt-get install jing (scripts/test installs it)"
    moon, mixed = _manga_href(opds, "Moon Garden"), _manga_href(opds, MIXED)
    listed = opds.admin.post("/api/readlists", {"name": "Event", "items": [{"m": MIXED}]})[2]
    paths = ["/opds/", "/opds/series", "/opds/recent", "/opds/continue", "/opds/followed", "/opds/genres",
             "/opds/genres/Mystery", "/opds/tags", "/opds/tags/A/B", "/opds/tags/C%23", "/opds/search?q=moon",
             "/opds/readlists", f"/opds/readlists/{listed['id']}", moon, mixed]
    expected_templates = 0
    files = []
    for n, path in enumerate(paths):
        status, _, body = opds(path)
        assert status == 200, path
        files.append(tmp_path / f"{n:02d}.xml")
        files[-1].write_bytes(body)
        expected_templates += body.count(b"{pageNumber}")
    assert expected_templates == 4  # Moon Garden's two chapters, Mixed Pages' one, in its feed and the list's
    done = subprocess.run([jing, "-c", str(SCHEMA), *map(str, files)], capture_output=True, text=True, timeout=120)
    errors = [line for line in done.stdout.splitlines() if ": error: " in line]
    assert all(line.endswith('value of attribute "href" is invalid') for line in errors), errors
    templates = 0
    for line in errors:
        name, row, col = line.split(":")[:3]
        before = Path(name).read_text().splitlines()[int(row) - 1][:int(col)].removesuffix("<")
        tag = before[before.rfind("<"):]  # jing points at the end of the element it refuses
        assert f'rel="{PSE}"' in tag and "{pageNumber}" in tag, (line, tag)
        templates += 1
    assert templates == expected_templates
