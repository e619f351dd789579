"""Progress through the apps is the web reader's progress: the same record, version and `done`;
numberSort and the Mihon tracker's float32 numbers; each user sees only their own."""
import pytest

from tests.conftest import PASSWORD, make_page
from tests.support.pages import wait_for_library

from .apps import basic

MOON = "Moon Garden"


def add_manga(library, name, chapters):
    """chapters: relative chapter folders, each with two pages."""
    for folder in chapters:
        for n in (1, 2):
            make_page(library / name / folder / f"{n:03d}.png")


@pytest.fixture
def library_dir(library_dir):
    add_manga(library_dir, "Decimals", ["b01/c0001", "b01/c0002", "b01/c0002.3", "b01/x01 Omake", "b02/c0003",
                                        "b02/c0004", "x01 Side/c0001"])
    add_manga(library_dir, "Restarts", ["b01/c0001", "b01/c0002", "b02/c0001", "b02/c0002"])
    add_manga(library_dir, "Prologue", ["c0000", "c0001"])
    return library_dir


@pytest.fixture
def apps(server, admin):
    wait_for_library(admin, 5)
    for name in ("reader", "other"):
        assert admin.post("/api/admin/user", {"name": name, "password": PASSWORD})[0] == 200
    web = server.client().login("reader")
    app = server.client()
    app.get("/komga/api/v2/users/me", headers={"Authorization": basic("reader")})
    other = server.client()
    other.get("/komga/api/v2/users/me", headers={"Authorization": basic("other")})
    return web, app, other


def series(app, title):
    return next(s for s in app.get("/komga/api/v1/series?unpaged=true")[2]["content"] if s["name"] == title)


def books(app, title):
    return app.get(f"/komga/api/v1/series/{series(app, title)['id']}/books?unpaged=true")[2]["content"]


def tachiyomi(app, title, value=None):
    path = f"/komga/api/v2/series/{series(app, title)['id']}/read-progress/tachiyomi"
    if value is None:
        return app.get(path)[2]
    return app.request("PUT", path, body={"lastBookNumberSortRead": value})[0]


def test_numbersort_keeps_decimal_chapters_and_slots_extras_between_the_numbers(apps):
    _, app, _ = apps
    found = books(app, "Decimals")
    assert [b["metadata"]["numberSort"] for b in found] == [1, 2, 2.3, 2.65, 3, 4, 4.5]
    assert [b["metadata"]["number"] for b in found] == ["1/1", "1/2", "1/2.3", "1/x1", "2/3", "2/4", "x1/1"]
    assert [b["number"] for b in found] == list(range(1, 8))
    assert [b["metadata"]["numberSort"] for b in books(app, "Restarts")] == [1, 2, 3, 4]
    assert tachiyomi(app, "Decimals")["maxNumberSort"] == 4.5


def test_the_tracker_marks_up_to_a_number_sent_back_through_float32(apps):
    _, app, _ = apps
    assert tachiyomi(app, "Decimals", 2.299999952316284) == 204  # Mihon's float 2.3 as a double
    found = books(app, "Decimals")
    assert [bool(b["readProgress"] and b["readProgress"]["completed"]) for b in found] == [True] * 3 + [False] * 4
    assert tachiyomi(app, "Decimals")["lastReadContinuousNumberSort"] == 2.3
    assert tachiyomi(app, "Decimals", 1) == 204  # never un-marks
    assert tachiyomi(app, "Decimals")["booksReadCount"] == 3


def test_the_tracker_ignores_zero_so_binding_does_not_mark_a_prologue(apps):
    _, app, _ = apps
    assert tachiyomi(app, "Prologue", 0) == 204
    assert tachiyomi(app, "Prologue")["booksReadCount"] == 0
    assert tachiyomi(app, "Prologue", 1) == 204
    assert tachiyomi(app, "Prologue")["booksReadCount"] == 2
    assert tachiyomi(app, "Prologue", "2")  == 400


def test_a_page_read_in_the_web_reader_is_the_apps_page_and_the_other_way_round(apps):
    web, app, _ = apps
    # The web reader reads the MangaDex version of chapter 2, page 2 of 2
    body = {"m": MOON, "c": "1/2", "v": "c0002 Roots [MangaDex]", "p": 0, "n": 2, "done": False, "shift": []}
    assert web.post("/api/progress", body)[0] == 200
    book = books(app, MOON)[1]
    assert book["name"] == "c0002 Roots [MangaDex]" and book["readProgress"]["page"] == 1
    pages = app.get(f"/komga/api/v1/books/{book['id']}/pages")[2]
    assert [p["fileName"] for p in pages] == ["001 [cover].png", "002.png"]
    # The app turns to the last page: the web reader's record follows, done, same version
    assert app.request("PATCH", f"/komga/api/v1/books/{book['id']}/read-progress", body={"page": 2})[0] == 204
    chapter = web.get("/api/chapter?m=Moon%20Garden&c=1/2")[2]
    assert (chapter["progress"]["v"], chapter["progress"]["p"], chapter["progress"]["done"]) == (
        "c0002 Roots [MangaDex]", 1, True)
    # done is sticky, as in the web reader: turning back keeps the chapter read
    assert app.request("PATCH", f"/komga/api/v1/books/{book['id']}/read-progress", body={"page": 1})[0] == 204
    again = books(app, MOON)[1]["readProgress"]
    assert (again["page"], again["completed"]) == (1, True)
    # Marked unread in the app: gone for the web reader too
    assert app.request("DELETE", f"/komga/api/v1/books/{book['id']}/read-progress")[0] == 204
    assert web.get("/api/chapter?m=Moon%20Garden&c=1/2")[2]["progress"] is None


def test_a_chapter_marked_read_on_the_web_is_completed_in_the_apps(apps):
    web, app, _ = apps
    assert web.post("/api/read", {"m": MOON, "c": "1/1"})[0] == 200
    first = books(app, MOON)[0]
    assert first["readProgress"]["completed"] is True
    assert series(app, MOON)["booksReadCount"] == 1


def test_it_refuses_pages_outside_the_book_and_bodies_without_page_or_completed(apps):
    _, app, _ = apps
    path = f"/komga/api/v1/books/{books(app, MOON)[0]['id']}/read-progress"
    for body in ({"page": 0}, {"page": 3}, {"page": "1"}, {}, {"completed": False}, {"completed": "yes"}):
        status, _, data = app.request("PATCH", path, body=body)
        assert status == 400 and data["error"], body
    assert app.request("PATCH", path, raw=b"not json", headers={"Content-Type": "application/json"})[0] == 400
    book = books(app, MOON)[0]["id"]
    assert app.get(f"/komga/api/v1/books/{book}/pages/3")[0] == 400
    assert app.get(f"/komga/api/v1/books/{book}/pages/0?zero_based=true")[0] == 200
    assert app.get(f"/komga/api/v1/books/{book}/pages/1?convert=tiff")[0] == 400
    assert app.get("/komga/api/v1/books/baaaaaaaaaaaaaaaaaaaa")[0] == 404


def test_a_user_never_sees_another_users_progress(apps):
    web, app, other = apps
    book = books(app, MOON)[0]
    assert app.request("PATCH", f"/komga/api/v1/books/{book['id']}/read-progress", body={"completed": True})[0] == 204
    assert books(other, MOON)[0]["readProgress"] is None
    assert series(other, MOON)["booksReadCount"] == 0
    assert tachiyomi(other, MOON)["booksReadCount"] == 0
    keep = {"condition": {"readStatus": {"operator": "is", "value": "READ"}}}
    assert other.post("/komga/api/v1/books/list", keep)[2]["content"] == []
    assert other.get("/opds/series/" + book["seriesId"])[2].count(b"pse:lastRead") == 0
    assert len(app.post("/komga/api/v1/books/list", keep)[2]["content"]) == 1


def test_ids_stay_the_same_after_a_restart(server, apps):
    _, app, _ = apps
    before = [b["id"] for b in books(app, "Decimals")]
    server.stop()
    server.start()
    app = server.client()
    assert app.get("/komga/api/v2/users/me", headers={"Authorization": basic("reader")})[0] == 200
    assert [b["id"] for b in books(app, "Decimals")] == before


def test_list_parameters_come_repeated_comma_joined_or_comma_space_joined_in_any_case(apps):
    web, app, _ = apps
    assert web.post("/api/read", {"m": MOON, "c": "1/1"})[0] == 200
    styles = ["read_status=IN_PROGRESS&read_status=unread", "read_status=IN_PROGRESS,UNREAD",
              "read_status=in_progress,%20unread"]
    for style in styles:
        found = app.get(f"/komga/api/v1/series?unpaged=true&library_id=elsewhere,%20mangacircus&{style}")[2]
        assert [s["name"] for s in found["content"]] == ["Decimals", "Long Scroll", "Moon Garden", "Prologue",
                                                         "Restarts"], style
    read = app.get("/komga/api/v1/series?read_status=read")[2]["content"]
    assert read == []  # Moon Garden has one of two chapters read: in progress
    assert app.get("/komga/api/v1/series?library_id=elsewhere")[2]["totalElements"] == 0
    paged = app.get("/komga/api/v1/series?size=2&page=1&sort=metadata.titleSort,desc")[2]
    assert ([s["name"] for s in paged["content"]], paged["totalPages"], paged["last"]) == (
        ["Moon Garden", "Long Scroll"], 3, False)
