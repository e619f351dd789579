"""The apps' series and books lists from the answer cache (shelf/pagecache.cached_data): the same
request is answered from it, per account, and the account's own progress write, another user's
restriction or a vote makes it again."""
from shelf import pagecache
from tests.conftest import PASSWORD
from tests.support.pages import wait_for_library

from .apps import basic

BOOKS = "/komga/api/v1/books?unpaged=true&sort=metadata.numberSort,asc"


def answer(client, name, path=BOOKS):
    status, _, data = client.get(path, headers={"Authorization": basic(name)})
    assert status == 200, data
    return data


def test_the_books_list_is_kept_per_account_until_what_it_shows_changes(server, admin):
    wait_for_library(admin, 2)
    for name in ("reader", "other"):
        assert admin.post("/api/admin/user", {"name": name, "password": PASSWORD})[0] == 200
    reader, other = server.client(), server.client()
    first = answer(reader, "reader")
    hits = pagecache.stats["hits"]
    assert answer(reader, "reader") == first and pagecache.stats["hits"] == hits + 1
    # another account's answer is its own
    assert answer(other, "other") == first and pagecache.stats["hits"] == hits + 1
    book = next(b for b in first["content"] if b["seriesTitle"] == "Moon Garden" and b["media"]["pagesCount"] == 2)
    assert book["readProgress"] is None
    status, _, _ = reader.request("PATCH", f"/komga/api/v1/books/{book['id']}/read-progress", body={"page": 2},
                                  headers={"Authorization": basic("reader")})
    assert status == 204
    mine = {b["id"]: b for b in answer(reader, "reader")["content"]}
    assert mine[book["id"]]["readProgress"]["page"] == 2
    # the other account's kept answer shows none of it
    assert {b["id"]: b for b in answer(other, "other")["content"]}[book["id"]]["readProgress"] is None
    # a restriction made by the admin: the next answer for that account leaves the manga out
    assert admin.post("/api/admin/user/access", {"name": "other", "only": ["Long Scroll"]})[0] == 200
    assert {b["seriesTitle"] for b in answer(other, "other")["content"]} == {"Long Scroll"}
    series = answer(other, "other", "/komga/api/v1/series?unpaged=true")
    assert [s["name"] for s in series["content"]] == ["Long Scroll"]
