"""GET /api/chapter, POST /api/progress and the read/ page on the demo library."""
import json
import re
from urllib.parse import quote

import pytest

from reader.chapter import start_page
from tests.reader.conftest import new_user, start_server
from tests.support.app import AppServer

MOON = "Moon Garden"
MOON_Q = quote(MOON)


@pytest.fixture
def srv(demo_app):
    return demo_app


def chapter(client, manga=MOON, cid="1/1", version=None):
    url = f"/api/chapter?m={quote(manga)}&c={quote(cid)}" + (f"&v={quote(version)}" if version else "")
    return client.get(url)


def test_it_builds_the_payload_of_a_chapter(srv):
    status, _, data = chapter(new_user(srv))
    assert status == 200, data
    assert data["manga"] == {"name": MOON, "title": MOON}
    assert data["chapter"] == {"id": "1/1", "book": "1", "key": "1", "title": "Seeds", "label": "Ch. 1"}
    assert data["version"] == "c0001 Seeds" and data["direction"] == "rtl"
    assert len(data["pages"]) == 11
    assert data["pages"][0] == {"u": "lib/Moon%20Garden/b01%20Spring/c0001%20Seeds/001%20%5Bcover%5D.jpg",
                                "w": 900, "h": 1350, "t": ["cover"], "r": 0}
    assert data["pages"][5]["w"] == 1800  # the spread 006-007
    assert data["prev"] is None
    assert data["next"] == {"id": "1/2", "m": "Moon Garden", "title": "Roots", "label": "Ch. 2",
                            "url": "read/Moon%20Garden/1/2/"}
    assert data["progress"] is None and data["start"] == 0
    assert data["manga_url"] == "manga/Moon%20Garden/"
    assert data["settings"]["zoom"] == {"flow": 1, "page": 1, "book": 1, "strip": 1}
    books = data["books"]
    assert [b["key"] for b in books] == ["1", "2", "x1"]
    assert books[2]["extra"] is True and books[0]["title"] == "Spring"
    assert [c["id"] for c in books[0]["chapters"]] == ["1/1", "1/2", "1/2.5", "1/3"]
    assert books[0]["chapters"][2] == {"id": "1/2.5", "key": "2.5", "title": "Interlude", "label": "Ch. 2.5",
                                      "read": False, "url": "read/Moon%20Garden/1/2.5/"}
    # The labels are the manga page's: a chapter of an extras book is an Extra, whatever its key.
    assert (books[2]["heading"], books[2]["chapters"][0]["label"]) == ("Extras 1 · Side Stories", "Extra 1")


def test_it_shows_the_top_ranked_version_unless_one_is_named(srv):
    client = new_user(srv)
    data = chapter(client, cid="1/2")[2]
    assert data["version"] == "c0002 Roots [Official]"  # priority 10
    assert [v["name"] for v in data["versions"]] == ["c0002 Roots [Official]", "c0002 Roots [MangaDex]"]
    data = chapter(client, cid="1/2", version="c0002 Roots [MangaDex]")[2]
    assert data["version"] == "c0002 Roots [MangaDex]" and len(data["pages"]) == 10
    assert data["pages"][9]["t"] == ["extra"]


def test_it_gives_rotation_and_the_webtoon_direction(srv):
    client = new_user(srv)
    pages = chapter(client, cid="1/3")[2]["pages"]
    assert pages[4]["r"] == 90 and pages[4]["t"] == ["r90"] and (pages[4]["w"], pages[4]["h"]) == (1350, 900)
    data = chapter(client, "Long Scroll", "0/2")[2]
    assert data["direction"] == "ttb" and data["chapter"]["book"] == "0"
    assert data["prev"]["url"] == "read/Long%20Scroll/0/1/" and data["next"]["id"] == "0/3"


@pytest.mark.parametrize("query, status, message", [
    ("m=Nobody&c=1/1", 404, "no manga"),
    (f"m={MOON_Q}&c=9/9", 404, "no chapter"),
    (f"m={MOON_Q}&c=1/1&v=c0009%20Nope", 404, "no version"),
    ("c=1/1", 400, "m is required"),
    (f"m={MOON_Q}", 400, "c is required"),
])
def test_it_refuses_unknown_or_missing_names(srv, query, status, message):
    got, _, data = new_user(srv).get(f"/api/chapter?{query}")
    assert got == status and message in data["error"]


def test_it_needs_a_session(srv):
    assert srv.client().get(f"/api/chapter?m={MOON_Q}&c=1/1")[0] == 401
    assert srv.client().post("/api/progress", {"m": MOON})[0] == 401


def position(**changes):
    body = {"m": MOON, "c": "1/2", "v": "c0002 Roots [MangaDex]", "p": 4, "n": 10, "done": False, "shift": [1]}
    body.update(changes)
    return {k: v for k, v in body.items() if v is not ...}


def test_it_saves_a_position_and_opens_there(srv):
    client = new_user(srv)
    status, _, data = client.post("/api/progress", position())
    assert status == 200 and data["progress"]["p"] == 4 and data["progress"]["shift"] == [1]
    data = chapter(client, cid="1/2", version="c0002 Roots [MangaDex]")[2]
    assert data["progress"]["v"] == "c0002 Roots [MangaDex]" and data["start"] == 4


def test_it_maps_the_page_proportionally_to_another_version(srv):
    client = new_user(srv)
    client.post("/api/progress", position(p=9))
    data = chapter(client, cid="1/2")[2]  # the Official version: 9 pages
    assert data["version"] == "c0002 Roots [Official]" and data["start"] == 8
    client.post("/api/progress", position(p=4))
    assert chapter(client, cid="1/2")[2]["start"] == 4  # round(4 * 8 / 9)


def test_it_reopens_a_finished_chapter_at_the_start_and_marks_it_read(srv):
    client = new_user(srv)
    client.post("/api/progress", position(p=9, done=True))
    client.post("/api/progress", position(p=6, done=False))  # done is sticky
    data = chapter(client, cid="1/2", version="c0002 Roots [MangaDex]")[2]
    assert data["progress"]["done"] is True and data["start"] == 0
    read = {c["id"]: c["read"] for c in data["books"][0]["chapters"]}
    assert read == {"1/1": False, "1/2": True, "1/2.5": False, "1/3": False}


@pytest.mark.parametrize("changes, status, message", [
    ({"m": "Nobody"}, 404, "no manga"),
    ({"c": "1/7"}, 404, "no chapter"),
    ({"v": "c0002 Roots [Elsewhere]"}, 404, "no version"),
    ({"p": "4"}, 400, "p must be"),
    ({"p": 10}, 400, "p must be a page index from 0 to 9"),
    ({"p": -1}, 400, "p must be"),
    ({"n": 9}, 400, "n must be the version's page count (10)"),
    ({"n": True}, 400, "n must be"),
    ({"done": "yes"}, 400, "done must be"),
    ({"shift": [1, 10]}, 400, "shift must be"),
    ({"shift": "1"}, 400, "shift must be"),
    ({"shift": [True]}, 400, "shift must be"),
    ({"v": ...}, 400, "v is required"),
    ({"m": 5}, 400, "m must be"),
])
def test_it_refuses_a_bad_position(srv, changes, status, message):
    client = new_user(srv)
    got, _, data = client.post("/api/progress", position(**changes))
    assert got == status and message in data["error"], data
    assert chapter(client, cid="1/2")[2]["progress"] is None  # nothing was saved


def test_it_computes_the_start_page():
    class Version:
        name = "a"

    assert start_page(None, Version, 10) == 0
    assert start_page({"v": "a", "p": 7, "n": 10}, Version, 10) == 7
    assert start_page({"v": "a", "p": 12, "n": 13}, Version, 10) == 9
    assert start_page({"v": "b", "p": 10, "n": 21}, Version, 11) == 5
    assert start_page({"v": "a", "p": 7, "n": 10, "done": True}, Version, 10) == 0


def test_it_renders_the_reader_page_with_the_payload(srv):
    client = new_user(srv)
    status, headers, body = client.get("/read/Moon%20Garden/1/2/?v=c0002%20Roots%20%5BMangaDex%5D")
    html = body.decode()
    assert status == 200
    payload = json.loads(re.search(r'<script id="chapter-data" type="application/json">(.*?)</script>', html, re.S)[1])
    assert payload["version"] == "c0002 Roots [MangaDex]" and payload["chapter"]["id"] == "1/2"
    assert '<link rel="preload" as="image" href="/lib/Moon%20Garden/b01%20Spring/' in html
    assert "js/read.js" in html and "js/read-layout.js" in html
    assert not re.search(r"<script(?![^>]*(src=|application/json))", html)  # no inline script (CSP)
    assert " style=" not in html
    assert "script-src 'self'" in headers["Content-Security-Policy"]


@pytest.mark.parametrize("path", [
    "/read/Nobody/1/1/", "/read/Moon%20Garden/1/9/", "/read/Moon%20Garden/1/2/?v=c0002%20Roots%20%5BX%5D",
])
def test_it_answers_404_for_an_unknown_chapter_page(srv, path):
    assert new_user(srv).get(path)[0] == 404


def test_it_sends_visitors_to_sign_in(srv):
    status, headers, _ = srv.client().get("/read/Moon%20Garden/1/1/")
    assert status == 302 and headers["Location"].startswith("/login/?next=/read/Moon%2520Garden/1/1/")


def test_it_marks_the_chapters_notifications_read_on_open(tmp_path_factory, demo_library):
    # Notifications come from scans; here they are written into db.json while the server is down.
    srv = start_server(tmp_path_factory, demo_library, (MOON, "1/1"), AppServer)
    srv.stop()
    db_path = srv.data / "db.json"
    db = json.loads(db_path.read_text())
    db["notes"]["admin"] = [
        {"id": "n1", "t": 1, "m": MOON, "c": "1/2", "text": "Moon Garden · Ch. 2", "read": False},
        {"id": "n2", "t": 2, "m": MOON, "c": "1/3", "text": "Moon Garden · Ch. 3", "read": False},
        {"id": "n3", "t": 3, "m": "Iron Harbor", "c": "1/2", "text": "Iron Harbor · Ch. 2", "read": False},
    ]
    db_path.write_text(json.dumps(db))
    srv.start()
    try:
        client = srv.client().login("admin")
        # Flow fetching the next chapter ahead (peek) has not opened it.
        status, _, data = client.get("/api/chapter?peek=1&m=Moon%20Garden&c=1/2")
        assert status == 200 and data["chapter"]["id"] == "1/2"
        assert client.get("/api/me")[2]["unread"] == 3
        assert client.get("/read/Moon%20Garden/1/2/")[0] == 200
        assert client.get("/api/me")[2]["unread"] == 2
        assert chapter(client, cid="1/3")[0] == 200
        assert client.get("/api/me")[2]["unread"] == 1
    finally:
        srv.stop()
    db = json.loads(db_path.read_text())
    assert [n["read"] for n in db["notes"]["admin"]] == [True, True, False]
