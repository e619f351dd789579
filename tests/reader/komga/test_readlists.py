"""Read lists in the apps' API (docs/apps.md, "Read lists"), replayed as Komelia, KMReader and the
Mihon extension call them: every ReadListDto key decoded, books in the list's order with the
user's progress, "next in read list", and a restricted user who never learns of a hidden chapter."""
import pytest

from clients.komga.ids import book_id
from tests.conftest import PASSWORD
from tests.support.pages import wait_for_library

from . import schemas
from .apps import App, MihonExtension, basic

pytestmark = pytest.mark.process

SEEDS, ROOTS, START = book_id("Moon Garden", "1/1"), book_id("Moon Garden", "1/2"), book_id("Long Scroll", "0/1")
BOOKS = schemas.page_of(schemas.BOOK)


def ok(result, schema=None, status=200):
    got, _, data = result
    assert got == status, data
    if schema is not None:
        assert schemas.check(data, schema) == []
    return data


@pytest.fixture
def site(real_server, admin):
    wait_for_library(admin, 2)
    assert admin.post("/api/admin/user", {"name": "reader", "password": PASSWORD})[0] == 200
    return real_server


def ids_of(page):
    return [b["id"] for b in page["content"]]


def test_komelias_read_list_screens_reader_and_edits(site):
    komelia = App(site, {"User-Agent": "Komelia", "Authorization": basic("reader")})
    made = ok(komelia.call("POST", "/api/v1/readlists", body={"name": "Crossover", "summary": "Both at once",
                                                             "ordered": True, "bookIds": [ROOTS, START, SEEDS]}),
              schemas.READLIST)
    assert (made["bookIds"], made["summary"], made["ordered"], made["filtered"]) == (
        [ROOTS, START, SEEDS], "Both at once", True, False)
    # The library's Read lists tab, then the list's screen (its books a page at a time, and unpaged)
    tab = ok(komelia.call("GET", "/api/v1/readlists?library_id=mangacircus&page=0&size=50"),
             schemas.page_of(schemas.READLIST))
    assert [r["name"] for r in tab["content"]] == ["Crossover"]
    assert ok(komelia.call("GET", f"/api/v1/readlists/{made['id']}"), schemas.READLIST) == made
    books = ok(komelia.call("GET", f"/api/v1/readlists/{made['id']}/books?page=0&size=2"), BOOKS)
    assert ids_of(books) == [ROOTS, START] and (books["totalElements"], books["last"]) == (3, False)
    every = ok(komelia.call("GET", f"/api/v1/readlists/{made['id']}/books?unpaged=true"), BOOKS)
    assert ids_of(every) == [ROOTS, START, SEEDS]
    assert [b["number"] for b in every["content"]] == [2, 1, 1]  # each its place in its own series
    status, hdrs, _ = komelia.call("GET", f"/api/v1/readlists/{made['id']}/thumbnail")
    assert status == 200 and hdrs.get("Content-Type") == "image/webp"
    # The book screen's read lists row: the lists holding the book, then each list's books
    assert [r["id"] for r in ok(komelia.call("GET", f"/api/v1/books/{START}/readlists"), [schemas.READLIST])] == [
        made["id"]]
    ok(komelia.call("GET", f"/api/v1/readlists/{made['id']}/books?size=500"), BOOKS)
    # The reader opened from the list goes on in the list, across series; 404 at both ends
    after = f"/api/v1/readlists/{made['id']}/books"
    assert ok(komelia.call("GET", f"{after}/{ROOTS}/next"), schemas.BOOK)["id"] == START
    assert ok(komelia.call("GET", f"{after}/{START}/next"), schemas.BOOK)["id"] == SEEDS
    assert ok(komelia.call("GET", f"{after}/{START}/previous"), schemas.BOOK)["id"] == ROOTS
    assert komelia.call("GET", f"{after}/{ROOTS}/previous")[0] == 404
    assert komelia.call("GET", f"{after}/{SEEDS}/next")[0] == 404
    # Progress shows in the list's books
    ok(komelia.call("PATCH", f"/api/v1/books/{START}/read-progress", body={"completed": True}), status=204)
    progress = ok(komelia.call("GET", f"{after}?unpaged=true"), BOOKS)["content"][1]["readProgress"]
    assert progress["completed"] is True
    unread = ok(komelia.call("GET", f"{after}?read_status=UNREAD&read_status=IN_PROGRESS"), BOOKS)
    assert ids_of(unread) == [ROOTS, SEEDS]
    # The books search's readListId condition
    in_list = {"condition": {"allOf": [{"readListId": {"operator": "is", "value": made["id"]}}]}}
    found = ok(komelia.call("POST", "/api/v1/books/list?unpaged=true", body=in_list), BOOKS)
    assert sorted(ids_of(found)) == sorted([ROOTS, START, SEEDS])
    # Edits: rename, reorder (the whole list of ids), `ordered` accepted and the order kept
    ok(komelia.call("PATCH", f"/api/v1/readlists/{made['id']}", body={"name": "Crossover event"}), status=204)
    ok(komelia.call("PATCH", f"/api/v1/readlists/{made['id']}", body={"bookIds": [SEEDS, ROOTS, START]}),
       status=204)
    ok(komelia.call("PATCH", f"/api/v1/readlists/{made['id']}", body={"ordered": False, "summary": None}),
       status=204)
    again = ok(komelia.call("GET", f"/api/v1/readlists/{made['id']}"), schemas.READLIST)
    assert (again["name"], again["bookIds"], again["ordered"], again["summary"]) == (
        "Crossover event", [SEEDS, ROOTS, START], True, "Both at once")
    assert again["lastModifiedDate"] >= made["lastModifiedDate"]
    status, _, data = komelia.call("POST", "/api/v1/readlists", body={"name": "crossover EVENT", "bookIds": [SEEDS]})
    assert status == 400 and "exists already" in data["error"]
    assert komelia.call("PATCH", f"/api/v1/readlists/{made['id']}",
                        body={"bookIds": ["baaaaaaaaaaaaaaaaaaaa"]})[0] == 404
    ok(komelia.call("DELETE", f"/api/v1/readlists/{made['id']}"), status=204)
    assert komelia.call("GET", f"/api/v1/readlists/{made['id']}")[0] == 404
    assert ok(komelia.call("GET", f"/api/v1/books/{START}/readlists")) == []


def test_kmreader_and_the_mihon_extension_read_a_shared_read_list(site, admin):
    made = admin.post("/api/readlists", {"name": "Event", "items": [{"m": "Long Scroll"}, {"m": "Moon Garden"}]})[2]
    assert made["shared"] is True
    # The extension's "Search for: Read lists": a list is a manga, its books the chapters
    mihon = MihonExtension(site, "reader")
    found = ok(mihon.call("GET", "/api/v1/readlists?search=eve&page=0&sort=name%2Casc"),
               schemas.page_of({"id": str, "name": str, "bookIds": [str], "createdDate": str,
                                "lastModifiedDate": str, "filtered": bool}))
    assert [r["id"] for r in found["content"]] == [made["id"]]
    assert ok(mihon.call("GET", "/api/v1/readlists?search=nothing"))["content"] == []
    ok(mihon.call("GET", f"/api/v1/readlists/{made['id']}"), schemas.READLIST)
    chapters = ok(mihon.call("GET", f"/api/v1/readlists/{made['id']}/books?unpaged=true&media_status=READY"
                                    "&deleted=false"), BOOKS)
    assert ids_of(chapters) == [START, SEEDS, ROOTS]
    assert mihon.call("GET", f"/api/v1/readlists/{made['id']}/books?deleted=true")[2]["content"] == []
    status, hdrs, _ = mihon.call("GET", f"/api/v1/readlists/{made['id']}/thumbnail")
    assert status == 200 and hdrs.get("Content-Type") == "image/webp"
    # A plain user reads a shared list and does not change it
    assert mihon.call("PATCH", f"/api/v1/readlists/{made['id']}", body={"name": "Mine"})[0] == 403
    assert mihon.call("DELETE", f"/api/v1/readlists/{made['id']}")[0] == 403
    kmreader = App(site, {"User-Agent": "KMReader", "Authorization": basic("reader")})
    page = ok(kmreader.call("GET", "/api/v1/readlists?page=0&size=20&library_id=mangacircus&sort=name,asc"),
              schemas.page_of(schemas.READLIST))
    assert page["totalElements"] == 1 and page["content"][0]["bookIds"] == [START, SEEDS, ROOTS]
    assert ok(kmreader.call("GET", "/api/v1/readlists?page=0&size=20&library_id=elsewhere"))["content"] == []
    # KMReader's filters: read status, authors (name, no role) and tags
    ok(kmreader.call("PATCH", f"/api/v1/books/{SEEDS}/read-progress", body={"completed": True, "page": 2}),
       status=204)
    books = f"/api/v1/readlists/{made['id']}/books?page=0&size=20"
    assert ids_of(ok(kmreader.call("GET", books + "&read_status=READ"), BOOKS)) == [SEEDS]
    assert ids_of(ok(kmreader.call("GET", books + "&author=A.%20Writer,"), BOOKS)) == [SEEDS, ROOTS]
    assert ok(kmreader.call("GET", books + "&tag=nothing"), BOOKS)["content"] == []
    assert kmreader.call("GET", f"/api/v1/readlists/{made['id']}/books/{SEEDS}/next")[2]["id"] == ROOTS
    # KMReader's own read list, made and edited as it does it (the whole bookIds each time)
    mine = ok(kmreader.call("POST", "/api/v1/readlists", body={"bookIds": [START], "name": "Later", "ordered": False,
                                                              "summary": ""}), schemas.READLIST)
    ok(kmreader.call("PATCH", f"/api/v1/readlists/{mine['id']}", body={"bookIds": [START, ROOTS]}), status=204)
    ok(kmreader.call("PATCH", f"/api/v1/readlists/{mine['id']}", body={"bookIds": [ROOTS]}), status=204)
    assert ok(kmreader.call("GET", f"/api/v1/readlists/{mine['id']}"))["bookIds"] == [ROOTS]
    # private to its maker
    assert admin.get(f"/komga/api/v1/readlists/{mine['id']}", headers={"Authorization": basic("admin")})[0] == 404


def test_a_restricted_user_never_sees_a_hidden_chapter_of_a_read_list(site, admin):
    assert admin.post("/api/admin/user", {"name": "kid", "password": PASSWORD})[0] == 200
    assert admin.post("/api/admin/user/access", {"name": "kid", "only": ["Long Scroll"]})[0] == 200
    both = admin.post("/api/readlists", {"name": "Both", "items": [{"m": "Moon Garden"}, {"m": "Long Scroll"}]})[2]
    moon_only = admin.post("/api/readlists", {"name": "Moon only", "items": [{"m": "Moon Garden", "c": "1/1"}]})[2]
    kid = App(site, {"Authorization": basic("kid")})
    one = ok(kid.call("GET", f"/api/v1/readlists/{both['id']}"), schemas.READLIST)
    assert one["bookIds"] == [START] and one["filtered"] is False
    assert ids_of(ok(kid.call("GET", f"/api/v1/readlists/{both['id']}/books"), BOOKS)) == [START]
    listed = ok(kid.call("GET", "/api/v1/readlists?unpaged=true"))["content"]
    assert {r["name"]: len(r["bookIds"]) for r in listed} == {"Both": 1, "Moon only": 0}
    assert kid.call("GET", f"/api/v1/readlists/{moon_only['id']}/thumbnail")[0] == 404
    assert kid.call("GET", f"/api/v1/readlists/{both['id']}/books/{ROOTS}/previous")[0] == 404
    assert kid.call("GET", f"/api/v1/readlists/{both['id']}/books/{START}/previous")[0] == 404
    assert kid.call("GET", f"/api/v1/books/{SEEDS}/readlists")[0] == 404
    assert kid.call("POST", "/api/v1/readlists", body={"name": "Mine", "bookIds": [SEEDS]})[0] == 404
    mine = ok(kid.call("POST", "/api/v1/readlists", body={"name": "Mine", "bookIds": [START]}), schemas.READLIST)
    assert mine["bookIds"] == [START]
    assert kid.call("PATCH", f"/api/v1/readlists/{both['id']}", body={"bookIds": [START]})[0] == 403
