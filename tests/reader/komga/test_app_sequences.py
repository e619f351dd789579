"""Each app's request sequence (docs/apps.md) replayed against a real `serve`: every field the app
parses is there with its type, authentication works the way the app does it, nothing redirects."""
import pytest

from tests.conftest import PASSWORD
from tests.support.pages import wait_for_library

from . import schemas
from .apps import App, MihonExtension, basic, set_cookies

pytestmark = pytest.mark.process


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


def moon(app):
    found = ok(app.call("GET", "/api/v1/series?search=moon&page=0&deleted=false"), schemas.page_of(schemas.SERIES))
    return found["content"][0]


def test_the_mihon_extension_browses_searches_and_reads(site):
    mihon = MihonExtension(site, "reader")
    # Filter options, fetched together in the background
    ok(mihon.call("GET", "/api/v1/libraries"), [schemas.LIBRARY])
    assert mihon.seen[0][2] == 401 and mihon.seen[1][2] == 200  # Basic only after the 401
    ok(mihon.call("GET", "/api/v1/collections?unpaged=true"), schemas.page_of(schemas.COLLECTION))
    for path in ("/api/v1/genres", "/api/v1/tags", "/api/v1/publishers"):
        ok(mihon.call("GET", path), [str])
    assert ok(mihon.call("GET", "/api/v1/authors"), [schemas.AUTHOR]) == [{"name": "A. Writer", "role": "writer"}]
    # From here on the session cookie alone
    popular = ok(mihon.call("GET", "/api/v1/series?search=&page=0&deleted=false&sort=metadata.titleSort%2Casc"),
                 schemas.page_of(schemas.SERIES))
    assert [s["metadata"]["title"] for s in popular["content"]] == ["Long Scroll", "Moon Garden"]
    assert popular["last"] is True and popular["totalElements"] == 2
    ok(mihon.call("GET", "/api/v1/series?search=&page=0&deleted=false&sort=lastModifiedDate%2Cdesc"),
       schemas.page_of(schemas.SERIES))
    found = ok(mihon.call("GET", "/api/v1/series?search=garden&page=0&deleted=false&read_status=UNREAD"
                                 "&read_status=IN_PROGRESS&status=ONGOING,ENDED&library_id=mangacircus,elsewhere"
                                 "&author=A.%20Writer,writer&sort=relevance%2Casc"), schemas.page_of(schemas.SERIES))
    assert [s["name"] for s in found["content"]] == ["Moon Garden"]
    series = found["content"][0]
    assert series["booksMetadata"]["authors"] == [{"name": "A. Writer", "role": "writer"}]
    assert series["metadata"]["readingDirection"] == "RIGHT_TO_LEFT"
    ok(mihon.call("GET", f"/api/v1/series/{series['id']}"), schemas.SERIES)
    books = ok(mihon.call("GET", f"/api/v1/series/{series['id']}/books?unpaged=true&media_status=READY&deleted=false"),
               schemas.page_of(schemas.BOOK))["content"]
    assert [b["metadata"]["numberSort"] for b in books] == [1, 2]
    assert [b["number"] for b in books] == [1, 2]
    for book in books:
        status, hdrs, pages = mihon.call("GET", f"/api/v1/books/{book['id']}/pages")
        assert status == 200 and schemas.check(pages, [schemas.PAGE]) == []
        assert len(pages) == book["media"]["pagesCount"]
        for page in pages:
            status, hdrs, body = mihon.call("GET", f"/api/v1/books/{book['id']}/pages/{page['number']}",
                                            headers={"Accept": "image/*,*/*;q=0.8"})
            assert status == 200 and hdrs.get("Content-Type") == page["mediaType"] and body[:4] == b"\x89PNG"
    status, hdrs, _ = mihon.call("GET", f"/api/v1/series/{series['id']}/thumbnail")
    assert status == 200 and hdrs.get("Content-Type") == "image/webp"
    assert [s for _, _, s in mihon.seen].count(401) == 1


def test_the_mihon_tracker_syncs_progress_both_ways_with_the_extensions_cookie_alone(site):
    mihon = MihonExtension(site, "reader")
    series = moon(mihon)
    tracker = App(site, {"User-Agent": "Mihon v0.19.1 (app.mihon)"})
    tracker.cookies = dict(mihon.cookies)  # the shared cookie jar: no credentials of its own
    ok(tracker.call("GET", f"/api/v1/series/{series['id']}"), schemas.SERIES)
    before = ok(tracker.call("GET", f"/api/v2/series/{series['id']}/read-progress/tachiyomi"), schemas.TACHIYOMI)
    assert before == {"booksCount": 2, "booksReadCount": 0, "booksUnreadCount": 2, "booksInProgressCount": 0,
                      "lastReadContinuousNumberSort": 0, "maxNumberSort": 2}
    ok(tracker.call("PUT", f"/api/v2/series/{series['id']}/read-progress/tachiyomi", body={"lastBookNumberSortRead": 0},
                    headers={"Content-Type": "application/json; charset=utf-8"}), status=204)
    ok(tracker.call("PUT", f"/api/v2/series/{series['id']}/read-progress/tachiyomi",
                    body={"lastBookNumberSortRead": 1.0}, headers={"Content-Type": "application/json; charset=utf-8"}),
       status=204)
    after = ok(tracker.call("GET", f"/api/v2/series/{series['id']}/read-progress/tachiyomi"), schemas.TACHIYOMI)
    assert (after["booksReadCount"], after["lastReadContinuousNumberSort"]) == (1, 1)
    # The other way: a chapter finished elsewhere shows in the tracker's next refresh
    books = ok(mihon.call("GET", f"/api/v1/series/{series['id']}/books?unpaged=true"))["content"]
    ok(mihon.call("PATCH", f"/api/v1/books/{books[1]['id']}/read-progress", body={"completed": True}), status=204)
    synced = ok(tracker.call("GET", f"/api/v2/series/{series['id']}/read-progress/tachiyomi"), schemas.TACHIYOMI)
    assert (synced["booksReadCount"], synced["lastReadContinuousNumberSort"], synced["booksUnreadCount"]) == (2, 2, 0)
    assert all(status != 401 for _, _, status in tracker.seen)


def test_komelia_logs_in_stays_logged_in_across_a_restart_browses_reads_and_saves_progress(site):
    komelia = App(site, {"User-Agent": "Komelia"})
    status, hdrs, user = komelia.call("GET", "/api/v2/users/me?remember-me=true",
                                      headers={"Authorization": basic("reader"), "Cache-Control": "no-cache"})
    assert status == 200 and schemas.check(user, schemas.USER) == [] and "ADMIN" not in user["roles"]
    cookies = set_cookies(hdrs)
    assert cookies["komga-remember-me"]["path"] == "/komga"  # exactly the base: Komelia compares it
    assert cookies["MC-KOMGA-SESSION"]["path"] == "/komga"
    # A restart of the app: only komga-remember-me survives
    komelia = App(site, {"User-Agent": "Komelia"})
    komelia.cookies = {"komga-remember-me": cookies["komga-remember-me"].value}
    ok(komelia.call("GET", "/api/v1/libraries"), [schemas.LIBRARY])
    assert komelia.call("GET", "/sse/v1/events")[0] == 404
    keep_reading = {"condition": {"allOf": [{"readStatus": {"operator": "is", "value": "IN_PROGRESS"}}]}}
    page_of_books = schemas.page_of(schemas.BOOK)
    assert ok(komelia.call("POST", "/api/v1/books/list?sort=readProgress.readDate,desc", body=keep_reading),
              page_of_books)["content"] == []
    ok(komelia.call("GET", "/api/v1/books/ondeck?size=20"), page_of_books)
    recent = {"condition": {"allOf": [{"releaseDate": {"operator": "isInTheLast", "duration": "PT720H"}}]}}
    ok(komelia.call("POST", "/api/v1/books/list?sort=metadata.releaseDate,desc", body=recent), page_of_books)
    ok(komelia.call("POST", "/api/v1/books/list?size=20&sort=createdDate,desc", body={"condition": {"allOf": []}}),
       page_of_books)
    ok(komelia.call("GET", "/api/v1/series/new?oneshot=false&size=20"), schemas.page_of(schemas.SERIES))
    ok(komelia.call("GET", "/api/v1/series/updated?oneshot=false&size=20"), schemas.page_of(schemas.SERIES))
    in_library = {"libraryId": {"operator": "is", "value": "mangacircus"}}
    library = {"condition": {"type": "AllOfSeries", "allOf": [in_library]}, "fullTextSearch": "moon"}
    series = ok(komelia.call("POST", "/api/v1/series/list?page=0&size=50&sort=metadata.titleSort,asc", body=library),
                schemas.page_of(schemas.SERIES))["content"][0]
    for path in ("/api/v1/genres", "/api/v1/tags", "/api/v1/publishers", "/api/v1/languages", "/api/v1/age-ratings",
                 "/api/v1/series/release-dates", "/api/v1/sharing-labels"):
        ok(komelia.call("GET", path + "?library_id=mangacircus"), [str])
    ok(komelia.call("GET", "/api/v2/authors?search=&library_id=mangacircus"), schemas.page_of(schemas.AUTHOR))
    ok(komelia.call("GET", f"/api/v1/series/{series['id']}"), schemas.SERIES)
    # The series screen's tag and author filters
    assert ok(komelia.call("GET", f"/api/v1/tags/book?series_id={series['id']}"), [str]) == []
    assert ok(komelia.call("GET", f"/api/v2/authors?series_id={series['id']}&unpaged=true"),
              schemas.page_of(schemas.AUTHOR))["content"] == [{"name": "A. Writer", "role": "writer"}]
    in_series = {"condition": {"seriesId": {"operator": "is", "value": series["id"]}}}
    books = ok(komelia.call("POST", "/api/v1/books/list?page=0&size=100&sort=metadata.numberSort,asc", body=in_series),
               page_of_books)["content"]
    first, second = books
    ok(komelia.call("GET", f"/api/v1/books/{first['id']}"), schemas.BOOK)
    ok(komelia.call("GET", f"/api/v1/books/{first['id']}/readlists"), [])
    assert ok(komelia.call("GET", f"/api/v1/books/{first['id']}/next"), schemas.BOOK)["id"] == second["id"]
    assert komelia.call("GET", f"/api/v1/books/{first['id']}/previous")[0] == 404
    pages = ok(komelia.call("GET", f"/api/v1/books/{second['id']}/pages"), [schemas.PAGE])
    assert all(p["width"] and p["height"] for p in pages)
    assert komelia.call("GET", f"/api/v1/books/{second['id']}/pages/1/thumbnail")[0] == 200
    ok(komelia.call("PATCH", f"/api/v1/books/{second['id']}/read-progress", body={"page": 1}), status=204)
    progress = ok(komelia.call("GET", f"/api/v1/books/{second['id']}"), schemas.BOOK)["readProgress"]
    assert (progress["page"], progress["completed"]) == (1, False)
    kept = ok(komelia.call("POST", "/api/v1/books/list?sort=readProgress.readDate,desc", body=keep_reading),
              page_of_books)["content"]
    assert [b["id"] for b in kept] == [second["id"]]
    ok(komelia.call("DELETE", f"/api/v1/books/{second['id']}/read-progress"), status=204)
    ok(komelia.call("POST", f"/api/v1/series/{series['id']}/read-progress", raw=b""), status=204)
    assert ok(komelia.call("GET", f"/api/v1/series/{series['id']}"))["booksReadCount"] == 2
    ok(komelia.call("DELETE", f"/api/v1/series/{series['id']}/read-progress"), status=204)
    assert ok(komelia.call("GET", f"/api/v1/series/{series['id']}"))["booksUnreadCount"] == 2
    status, hdrs, _ = komelia.call("POST", "/api/logout", raw=b"")
    assert status == 204 and set_cookies(hdrs)["komga-remember-me"]["path"] == "/komga"
    komelia.cookies = {"komga-remember-me": cookies["komga-remember-me"].value}
    assert komelia.call("GET", "/api/v1/libraries")[0] == 401  # the session is gone


def test_kmreader_logs_in_with_the_token_header_browses_and_saves_progress(site):
    kmreader = App(site, {"User-Agent": "KMReader"})
    assert ok(kmreader.call("GET", "/api/v1/client-settings/global/list")) == {}
    status, hdrs, user = kmreader.call("GET", "/api/v2/users/me?remember-me=true",
                                       headers={"Authorization": basic("reader"), "X-Auth-Token": ""})
    assert status == 200 and {"id", "email", "roles"} <= set(user) and user["email"] == "reader"
    token = hdrs.get("X-Auth-Token")
    assert token
    kmreader = App(site, {"User-Agent": "KMReader", "X-Auth-Token": token})  # no cookies from here on
    ok(kmreader.call("GET", "/api/v1/libraries"), [{"id": str, "name": str, "root": str}])
    lowercase = {"condition": {"allOf": [{"libraryId": {"operator": "is", "value": "mangacircus"}},
                                         {"oneshot": {"operator": "isfalse"}},
                                         {"deleted": {"operator": "isfalse"}}]}}
    listed = ok(kmreader.call("POST", "/api/v1/series/list?page=0&size=20&sort=metadata.titleSort,asc", body=lowercase),
                schemas.page_of(schemas.SERIES))
    assert listed["totalElements"] == 2
    ok(kmreader.call("POST", "/api/v1/series/list?unpaged=true", body={"condition": None, "fullTextSearch": None}))
    ok(kmreader.call("GET", "/api/v1/series/new?page=0&size=20&oneshot=false&library_id=mangacircus"
                            "&library_id=mangacircus"), schemas.page_of(schemas.SERIES))
    ok(kmreader.call("GET", "/api/v1/series/updated?page=0&size=20&oneshot=false"), schemas.page_of(schemas.SERIES))
    series = next(s for s in listed["content"] if s["name"] == "Moon Garden")
    ok(kmreader.call("GET", f"/api/v1/series/{series['id']}/collections"), [])
    not_moon = {"condition": {"allOf": [{"seriesId": {"operator": "isnot", "value": series["id"]}}]}}
    others = ok(kmreader.call("POST", "/api/v1/books/list?unpaged=true", body=not_moon))["content"]
    assert [b["seriesTitle"] for b in others] == ["Long Scroll"]
    in_series = {"condition": {"allOf": [{"seriesId": {"operator": "is", "value": series["id"]}}]}}
    books = ok(kmreader.call("POST", "/api/v1/books/list?unpaged=true&sort=metadata.numberSort,asc", body=in_series),
               schemas.page_of(schemas.BOOK))["content"]
    book = books[0]
    pages = ok(kmreader.call("GET", f"/api/v1/books/{book['id']}/pages"), [schemas.PAGE])
    assert kmreader.call("GET", f"/api/v1/books/{book['id']}/manifest",
                         headers={"Accept": "application/divina+json"})[0] == 404
    ok(kmreader.call("PATCH", f"/api/v1/books/{book['id']}/read-progress", body={"completed": False, "page": 2}),
       status=204)
    assert ok(kmreader.call("GET", f"/api/v1/books/{book['id']}"))["readProgress"]["page"] == 2
    ok(kmreader.call("PATCH", f"/api/v1/books/{book['id']}/read-progress",
                     body={"completed": True, "page": len(pages)}), status=204)
    read = ok(kmreader.call("GET", f"/api/v1/books/{book['id']}"), schemas.BOOK)["readProgress"]
    assert read["completed"] is True
    deck = ok(kmreader.call("GET", "/api/v1/books/ondeck?page=0&size=20"), schemas.page_of(schemas.BOOK))["content"]
    assert [b["id"] for b in deck] == [books[1]["id"]]
    ok(kmreader.call("DELETE", f"/api/v1/books/{book['id']}/read-progress"), status=204)
    assert ok(kmreader.call("GET", f"/api/v1/books/{book['id']}"))["readProgress"] is None
    assert kmreader.call("GET", "/sse/v1/events")[0] == 404


def test_a_mihon_binding_survives_a_rename_of_the_manga_folder(site, admin, library_dir):
    # Mihon keeps the series' and books' URLs it found; the folder is renamed on disk between two syncs
    mihon = MihonExtension(site, "reader")
    series = moon(mihon)
    books = ok(mihon.call("GET", f"/api/v1/series/{series['id']}/books?unpaged=true"))["content"]
    ok(mihon.call("PATCH", f"/api/v1/books/{books[0]['id']}/read-progress", body={"completed": True}), status=204)
    (library_dir / "Moon Garden").rename(library_dir / "Moon Garden (Remastered)")
    status, _, report = admin.post("/api/admin/rescan", {"full": True})
    assert status == 200 and report["renamed"], report
    again = ok(mihon.call("GET", f"/api/v1/series/{series['id']}"), schemas.SERIES)
    assert again["name"] == "Moon Garden (Remastered)"
    after = ok(mihon.call("GET", f"/api/v1/series/{series['id']}/books?unpaged=true"))["content"]
    assert [b["id"] for b in after] == [b["id"] for b in books]
    assert after[0]["readProgress"]["completed"] is True
    ok(mihon.call("GET", f"/api/v1/books/{books[1]['id']}/pages"))


def _collection_series(app, cid, query=""):
    found = ok(app.call("GET", f"/api/v1/collections/{cid}/series{query}"), schemas.page_of(schemas.SERIES))
    return [s["metadata"]["title"] for s in found["content"]]


def test_komelias_collection_screens_and_its_collection_edits_work(site):
    # Komelia offers the edits (POST, PATCH, DELETE) to a Komga admin only, which this server never
    # reports (docs/apps.md); they are replayed here as Komelia sends them, for any other client.
    komelia = App(site, {"User-Agent": "Komelia", "Authorization": basic("reader")})
    everything = ok(komelia.call("GET", "/api/v1/series?unpaged=true"))["content"]
    by_title = {s["metadata"]["title"]: s["id"] for s in everything}
    made = ok(komelia.call("POST", "/api/v1/collections",
                           body={"name": "Household", "ordered": True,
                                 "seriesIds": [by_title["Moon Garden"], by_title["Long Scroll"]]}),
              schemas.COLLECTION)
    assert made["seriesIds"] == [by_title["Moon Garden"], by_title["Long Scroll"]] and made["filtered"] is False
    # The library's Collections tab, then the collection's screen
    tab = ok(komelia.call("GET", "/api/v1/collections?library_id=mangacircus&page=0&size=50"),
             schemas.page_of(schemas.COLLECTION))
    assert [c["name"] for c in tab["content"]] == ["Household"]
    ok(komelia.call("GET", f"/api/v1/collections/{made['id']}"), schemas.COLLECTION)
    assert _collection_series(komelia, made["id"], "?page=0&size=50") == ["Moon Garden", "Long Scroll"]
    status, hdrs, _ = komelia.call("GET", f"/api/v1/collections/{made['id']}/thumbnail")
    assert status == 200 and hdrs.get("Content-Type") == "image/webp"
    # Edit: the name, then the order by dragging (the whole list of ids), then unordered (by title)
    ok(komelia.call("PATCH", f"/api/v1/collections/{made['id']}", body={"name": "Household picks"}), status=204)
    ok(komelia.call("PATCH", f"/api/v1/collections/{made['id']}",
                    body={"seriesIds": [by_title["Long Scroll"], by_title["Moon Garden"]]}), status=204)
    assert _collection_series(komelia, made["id"]) == ["Long Scroll", "Moon Garden"]
    ok(komelia.call("PATCH", f"/api/v1/collections/{made['id']}", body={"ordered": False, "summary": "Ours"}),
       status=204)
    again = ok(komelia.call("GET", f"/api/v1/collections/{made['id']}"), schemas.COLLECTION)
    assert (again["name"], again["ordered"]) == ("Household picks", False)
    # The series screen's "collections" row, and a search inside one
    in_it = ok(komelia.call("GET", f"/api/v1/series/{by_title['Moon Garden']}/collections"), [schemas.COLLECTION])
    assert [c["id"] for c in in_it] == [made["id"]]
    in_collection = {"condition": {"allOf": [{"collectionId": {"operator": "is", "value": made["id"]}}]}}
    listed = ok(komelia.call("POST", "/api/v1/series/list?sort=metadata.titleSort,asc", body=in_collection))
    assert listed["totalElements"] == 2
    status, _, data = komelia.call("POST", "/api/v1/collections", body={"name": "household picks", "ordered": False,
                                                                        "seriesIds": []})
    assert status == 400 and "exists already" in data["error"]
    assert komelia.call("PATCH", f"/api/v1/collections/{made['id']}",
                        body={"seriesIds": ["saaaaaaaaaaaaaaaaaaaa"]})[0] == 404
    ok(komelia.call("DELETE", f"/api/v1/collections/{made['id']}"), status=204)
    assert komelia.call("GET", f"/api/v1/collections/{made['id']}")[0] == 404
    assert ok(komelia.call("GET", f"/api/v1/series/{by_title['Moon Garden']}/collections")) == []


def test_the_mihon_extension_and_kmreader_read_a_shared_collection(site, admin):
    by_title = {s["metadata"]["title"]: s["id"]
                for s in admin.get("/komga/api/v1/series?unpaged=true",
                                   headers={"Authorization": basic("admin")})[2]["content"]}
    made = admin.post("/api/collections", {"name": "Ghibli", "members": ["Long Scroll", "Moon Garden"]})[2]
    assert made["shared"] is True
    mihon = MihonExtension(site, "reader")
    # The filter sheet lists the collections; picking one browses it, with the search words
    offered = ok(mihon.call("GET", "/api/v1/collections?unpaged=true"), schemas.page_of(schemas.COLLECTION))
    assert [(c["id"], c["name"]) for c in offered["content"]] == [(made["id"], "Ghibli")]
    assert _collection_series(mihon, made["id"], "?search=&page=0&deleted=false") == ["Long Scroll", "Moon Garden"]
    assert _collection_series(mihon, made["id"], "?search=garden&page=0&deleted=false") == ["Moon Garden"]
    assert _collection_series(mihon, made["id"], "?search=&page=0&sort=metadata.titleSort%2Cdesc") == [
        "Moon Garden", "Long Scroll"]
    # A plain user reads a shared collection and does not change it
    assert mihon.call("PATCH", f"/api/v1/collections/{made['id']}", body={"name": "Mine"})[0] == 403
    kmreader = App(site, {"User-Agent": "KMReader", "Authorization": basic("reader")})
    page = ok(kmreader.call("GET", "/api/v1/collections?page=0&size=20&library_id=mangacircus"),
              schemas.page_of(schemas.COLLECTION))
    assert page["totalElements"] == 1 and page["content"][0]["seriesIds"] == [by_title["Long Scroll"],
                                                                              by_title["Moon Garden"]]
    assert ok(kmreader.call("GET", "/api/v1/collections?page=0&size=20&library_id=elsewhere"))["content"] == []
    one = ok(kmreader.call("GET", f"/api/v1/collections/{made['id']}"), schemas.COLLECTION)
    assert one["name"] == "Ghibli"
    in_collection = {"condition": {"allOf": [{"collectionId": {"operator": "is", "value": made["id"]}},
                                             {"deleted": {"operator": "isfalse"}}]}}
    listed = ok(kmreader.call("POST", "/api/v1/series/list?page=0&size=20", body=in_collection),
                schemas.page_of(schemas.SERIES))
    assert sorted(s["metadata"]["title"] for s in listed["content"]) == ["Long Scroll", "Moon Garden"]
    assert [c["name"] for c in ok(kmreader.call("GET", f"/api/v1/series/{by_title['Moon Garden']}/collections"),
                                  [schemas.COLLECTION])] == ["Ghibli"]
