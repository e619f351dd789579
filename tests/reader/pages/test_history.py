"""Recently read (/history/, GET /api/history): where the user stopped in each chapter, newest first,
from any device; never another user's, never a hidden manga's."""
import time

from tests.conftest import PASSWORD
from tests.support.pages import fresh_reader

MOON_2 = {"m": "Moon Garden", "c": "1/2", "v": "c0002 Roots [MangaDex]", "p": 4, "n": 10, "done": False, "shift": []}


def test_it_lists_positions_newest_first_across_devices(demo_app):
    name = fresh_reader(demo_app)
    phone, desktop = demo_app.client().login(name, PASSWORD), demo_app.client().login(name, PASSWORD)
    assert phone.post("/api/read", {"m": "Iron Harbor", "c": "1/1"})[0] == 200
    time.sleep(0.002)  # positions are stamped in whole milliseconds; two in the same one tie
    assert phone.post("/api/progress", MOON_2)[0] == 200
    status, _, data = desktop.get("/api/history")
    assert status == 200 and data["total"] == 2
    first, second = data["items"]
    assert (first["title"], first["chapter"], first["page"], first["pages"], first["done"]) == (
        "Moon Garden", "Ch. 2: Roots", 4, 10, False)
    assert first["url"] == "read/Moon%20Garden/1/2/?v=c0002%20Roots%20%5BMangaDex%5D"  # the version read
    assert (second["title"], second["done"]) == ("Iron Harbor", True)
    assert first["t"] >= second["t"]
    assert desktop.get("/api/history?offset=1&limit=1")[2]["items"][0]["m"] == "Iron Harbor"
    other = demo_app.client().login(fresh_reader(demo_app), PASSWORD)
    assert other.get("/api/history")[2] == {"total": 0, "offset": 0, "items": []}

    page = desktop.get("/history/")[2].decode()
    assert "stopped at p. 5/10" in page and "finished" in page
    assert page.index("Moon Garden") < page.index("Iron Harbor")
    assert 'href="/read/Moon%20Garden/1/2/?v=c0002%20Roots%20%5BMangaDex%5D"' in page
    assert "Nothing read yet" in other.get("/history/")[2].decode()


def test_it_leaves_out_manga_hidden_from_the_user(demo_app):
    name = fresh_reader(demo_app)
    user = demo_app.client().login(name, PASSWORD)
    user.post("/api/read", {"m": "Iron Harbor", "c": "1/1"})
    user.post("/api/progress", MOON_2)
    demo_app.admin.post("/api/admin/user/access", {"name": name, "only": ["Moon Garden"]})
    data = user.get("/api/history")[2]
    assert [i["m"] for i in data["items"]] == ["Moon Garden"] and data["total"] == 1
    assert "Iron Harbor" not in user.get("/history/")[2].decode()


def test_it_refuses_bad_paging(demo_app):
    user = demo_app.client().login(fresh_reader(demo_app), PASSWORD)
    for query, word in (("limit=0", "limit"), ("limit=x", "limit"), ("offset=-1", "offset")):
        status, _, data = user.get("/api/history?" + query)
        assert status == 400 and data["error"].startswith(word), query
