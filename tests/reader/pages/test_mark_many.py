"""POST /api/read/many {m, read, before?}: mark every chapter, or every one before a chapter, read or
unread in one step; chapter rows show their page count and the date they were added."""
from tests.conftest import PASSWORD
from tests.support.pages import fresh_reader

MOON = ["1/1", "1/2", "1/2.5", "1/3", "2/4", "2/5", "2/x1", "x1/1"]


def _read(client):
    data = client.get("/api/manga?m=Moon%20Garden")[2]
    return [c["id"] for b in data["books"] for c in b["chapters"] if c["read"]]


def test_it_marks_the_chapters_before_one_read_keeping_positions(demo_app):
    user = demo_app.client().login(fresh_reader(demo_app), PASSWORD)
    started = {"m": "Moon Garden", "c": "1/2", "v": "c0002 Roots [Official]", "p": 3, "n": 9, "done": False,
               "shift": []}
    assert user.post("/api/progress", started)[0] == 200
    status, _, data = user.post("/api/read/many", {"m": "Moon Garden", "read": True, "before": "2/4"})
    assert status == 200, data
    assert data["marked"] == 4 and data["counts"] == {"chapters": 8, "read": 4, "unread": 4}
    assert data["continue"]["id"] == "2/4"
    assert _read(user) == MOON[:4]
    chapter = user.get("/api/chapter?m=Moon%20Garden&c=1/2")[2]
    assert chapter["progress"]["p"] == 3 and chapter["progress"]["done"] is True  # the page stays


def test_it_marks_all_read_and_all_unread(demo_app):
    user = demo_app.client().login(fresh_reader(demo_app), PASSWORD)
    assert user.post("/api/read/many", {"m": "Moon Garden", "read": True})[2]["counts"]["unread"] == 0
    assert _read(user) == MOON
    data = user.post("/api/read/many", {"m": "Moon Garden", "read": False})[2]
    assert data["counts"]["read"] == 0 and data["continue"]["action"] == "start"
    assert _read(user) == []
    assert user.get("/api/library?q=moon")[2]["manga"][0]["read"] == 0


def test_it_refuses_bad_requests(demo_app):
    user = demo_app.client().login(fresh_reader(demo_app), PASSWORD)
    for body, status, word in (({"m": "Moon Garden"}, 400, "read"), ({"m": "Moon Garden", "read": "yes"}, 400, "read"),
                               ({"m": "Moon Garden", "read": True, "before": "9/9"}, 404, "Moon Garden has no"),
                               ({"m": "Nope", "read": True}, 404, "no manga")):
        got, _, data = user.post("/api/read/many", body)
        assert got == status and data["error"].startswith(word), body


def test_chapter_rows_show_page_count_date_and_mark_previous(demo_app):
    user = demo_app.client().login(fresh_reader(demo_app), PASSWORD)
    data = user.get("/api/manga?m=Moon%20Garden")[2]
    first, second = data["books"][0]["chapters"][:2]
    assert first["pages"] == 11 and second["pages"] == 9  # the version shown first: Official, priority 10
    assert isinstance(first["added"], int) and first["added"] > 1_600_000_000_000
    page = user.get("/manga/Moon%20Garden/")[2].decode()
    assert '<span class="pages">11 pages</span>' in page and "added 20" in page
    assert page.count('class="link mark-previous"') == 7  # every chapter but the first
    assert 'class="mark-all" data-read="true"' in page


def test_it_marks_every_chapter_of_several_manga_in_one_request(demo_app):
    user = demo_app.client().login(fresh_reader(demo_app), PASSWORD)
    library = {m["name"]: m for m in user.get("/api/library")[2]["manga"]}
    two = ["Moon Garden", "Long Scroll"]
    status, _, data = user.post("/api/read/series", {"manga": two, "read": True})
    assert status == 200, data
    assert data == {"manga": 2, "marked": sum(library[n]["chapters"] for n in two)}
    after = {m["name"]: m for m in user.get("/api/library")[2]["manga"]}
    assert [after[n]["unread"] for n in two] == [0, 0]
    others = [n for n in library if n not in two]
    assert all(after[n]["unread"] == library[n]["unread"] for n in others)  # only the selected ones
    assert user.post("/api/read/series", {"manga": ["Moon Garden"], "read": False})[2]["marked"] == 8
    assert _read(user) == []


def test_it_refuses_a_bad_selection_and_marks_nothing(demo_app):
    user = demo_app.client().login(fresh_reader(demo_app), PASSWORD)
    for body, status, words in (({"manga": "Moon Garden", "read": True}, 400, "list of 1 to 1000"),
                                ({"manga": [], "read": True}, 400, "list of 1 to 1000"),
                                ({"manga": [3], "read": True}, 400, "list of 1 to 1000"),
                                ({"manga": ["Moon Garden"], "read": "yes"}, 400, "read"),
                                ({"manga": ["Moon Garden", "Invented"], "read": True}, 404, "Invented")):
        got, _, data = user.post("/api/read/series", body)
        assert got == status and words in data["error"], (body, got, data)
    assert _read(user) == []  # the known manga before the unknown one was not marked either
