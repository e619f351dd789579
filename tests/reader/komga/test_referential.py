"""Tag and author lists (Komga's referential routes) scoped to a series, and books by release date:
what Komelia asks each time a series opens, and its "released lately" shelf."""
import json

import pytest

from tests.support.pages import wait_for_library

from . import schemas
from .apps import basic


@pytest.fixture
def site(request, library_dir):
    """tiny_tree with tags, an artist and release dates: Ch. 1 lately, Ch. 2 [Official] long ago,
    Long Scroll's chapter without one."""
    moon = library_dir / "Moon Garden"
    (moon / "manga.json").write_text(json.dumps({"title": "Moon Garden", "direction": "rtl", "tags": ["garden"],
                                                 "authors": ["A. Writer"], "artists": ["B. Artist"]}))
    (moon / "b01 Spring" / "c0001 Seeds" / "chapter.json").write_text(
        json.dumps({"published": "2025-11-20", "tags": ["colour"]}))
    (moon / "b01 Spring" / "c0002 Roots [Official]" / "chapter.json").write_text(
        json.dumps({"published": "2020-01-31T10:00:00Z"}))
    (library_dir / "Long Scroll" / "manga.json").write_text(json.dumps({"direction": "ttb", "authors": ["C. Other"]}))
    server = request.getfixturevalue("server")
    admin = request.getfixturevalue("admin")
    wait_for_library(admin, 2)
    app = Komelia(server.client())
    return app, {s["name"]: s["id"] for s in app.call("GET", "/api/v1/series?unpaged=true")[2]["content"]}


class Komelia:
    def __init__(self, client):
        self.client = client

    def call(self, method, path, body=None):
        return self.client.request(method, "/komga" + path, body=body,
                                   headers={"User-Agent": "Komelia", "Authorization": basic("admin")})


def get(app, path, status=200):
    got, _, data = app.call("GET", path)
    assert got == status, (path, data)
    return data


def test_tag_lists_for_a_series_its_books_and_the_library(site):
    app, ids = site
    moon = ids["Moon Garden"]
    assert get(app, f"/api/v1/tags/book?series_id={moon}") == ["colour"]
    assert get(app, f"/api/v1/tags/book?series_id={ids['Long Scroll']}") == []
    assert get(app, "/api/v1/tags/book") == ["colour"]
    assert get(app, "/api/v1/tags/series") == ["garden"]
    assert get(app, "/api/v1/tags/series?library_id=elsewhere") == []
    assert get(app, "/api/v1/tags") == ["colour", "garden"]
    assert get(app, "/api/v1/tags/book?readlist_id=r1") == []
    assert "no series" in get(app, "/api/v1/tags/book?series_id=saaaaaaaaaaaaaaaaaaaa", 404)["error"]


def test_author_names_roles_and_authors_of_one_series(site):
    app, ids = site
    moon = ids["Moon Garden"]
    assert get(app, "/api/v1/authors/names") == ["A. Writer", "B. Artist", "C. Other"]
    assert get(app, "/api/v1/authors/names?search=art") == ["B. Artist"]
    assert get(app, "/api/v1/authors/roles") == ["penciller", "writer"]
    found = get(app, f"/api/v2/authors?series_id={moon}")
    assert schemas.check(found, schemas.page_of(schemas.AUTHOR)) == []
    assert found["content"] == [{"name": "A. Writer", "role": "writer"}, {"name": "B. Artist", "role": "penciller"}]
    assert get(app, f"/api/v1/authors?series_id={ids['Long Scroll']}") == [{"name": "C. Other", "role": "writer"}]
    assert get(app, "/api/v2/authors?role=penciller")["content"] == [{"name": "B. Artist", "role": "penciller"}]
    assert get(app, "/api/v2/authors?collection_id=c1")["totalElements"] == 0
    assert get(app, f"/api/v2/authors/names?series_id={moon}&search=writer")["content"] == ["A. Writer"]
    assert get(app, f"/api/v2/authors/roles?series_id={ids['Long Scroll']}")["content"] == ["writer"]


def test_books_sort_by_release_date_and_undated_books_are_in_no_period(site, monkeypatch):
    app, _ = site
    monkeypatch.setattr("clients.komga.search.now_ms", lambda: 1_764_633_600_000)  # 2025-12-02: Ch. 1 is 12 days old

    def titles(path, condition=None):
        got, _, data = app.call("POST", path, body={"condition": condition})
        assert got == 200, data
        return [(b["seriesTitle"], b["metadata"]["title"], b["metadata"]["releaseDate"]) for b in data["content"]]

    newest = titles("/api/v1/books/list?sort=metadata.releaseDate,desc")
    assert newest == [("Moon Garden", "Ch. 1: Seeds", "2025-11-20"), ("Moon Garden", "Ch. 2: Roots", "2020-01-31"),
                      ("Long Scroll", "Ch. 1: Start", None)]
    assert titles("/api/v1/books/list?sort=metadata.releaseDate,asc") == newest[::-1]
    recent = {"allOf": [{"releaseDate": {"operator": "isInTheLast", "duration": "PT720H"}}]}
    assert [t for _, t, _ in titles("/api/v1/books/list", recent)] == ["Ch. 1: Seeds"]
    older = {"releaseDate": {"operator": "isNotInTheLast", "duration": "P30D"}}
    assert [t for _, t, _ in titles("/api/v1/books/list", older)] == ["Ch. 2: Roots"]


def test_tags_and_authors_of_a_collection_and_of_a_read_list(site, server):
    app, _ = site
    admin = server.client().login("admin")
    c = admin.post("/api/collections", {"name": "Only the garden", "members": ["Moon Garden"]})[2]
    r = admin.post("/api/readlists", {"name": "Scroll", "items": [{"m": "Long Scroll"}]})[2]
    assert get(app, f"/api/v1/tags?collection_id={c['id']}") == ["colour", "garden"]
    assert get(app, f"/api/v1/tags/series?collection_id={c['id']}") == ["garden"]
    assert get(app, f"/api/v2/authors?collection_id={c['id']}")["content"] == [
        {"name": "A. Writer", "role": "writer"}, {"name": "B. Artist", "role": "penciller"}]
    assert get(app, f"/api/v2/authors?readlist_id={r['id']}")["content"] == [{"name": "C. Other", "role": "writer"}]
    assert get(app, f"/api/v1/tags/book?readlist_id={r['id']}") == []
    assert get(app, "/api/v2/authors?readlist_id=rnothere")["totalElements"] == 0
