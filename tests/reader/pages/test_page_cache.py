"""The library page and GET /api/library are sent again from shelf/pagecache.py while nothing they
show changed, and made again after any change: a follow, a notification read, a catalog title, a
new session. (Progress, scans and votes: test_library_tiles.py, which reads the page twice too.)"""
import re
import types

import pytest

from shelf import pagecache
from tests.conftest import PASSWORD, make_page
from tests.support.forms import post_form
from tests.support.pages import wait_for_library

CATALOG = "/api/admin/catalog"


@pytest.fixture(autouse=True)
def one_minute(monkeypatch):
    """The key holds the clock's minute: a test that crosses one would see a miss it does not test."""
    monkeypatch.setattr(pagecache, "clock", types.SimpleNamespace(now_ms=lambda: 1_790_000_000_000))


def page(client):
    status, _, body = client.get("/")
    assert status == 200
    return body.decode()


def warm(client):
    """The first visit sets the CSRF cookie (a page made for a new one is not kept); the second is kept."""
    page(client)
    return page(client)


def hits():
    return pagecache.stats["hits"]


def test_a_second_request_is_sent_from_the_cache_and_a_follow_makes_it_again(scanned, reader_user):
    first = warm(reader_user)
    before = hits()
    assert page(reader_user) == first and hits() == before + 1
    library = reader_user.get("/api/library")[2]
    assert reader_user.get("/api/library")[2] == library and hits() == before + 2
    assert reader_user.post("/api/follow", {"m": "Moon Garden", "on": True})[0] == 200
    followed = page(reader_user)
    assert followed != first and hits() == before + 2
    assert next(m for m in reader_user.get("/api/library")[2]["manga"] if m["name"] == "Moon Garden")["following"]


def progress_body(client, cid="1/1"):
    status, _, chapter = client.get(f"/api/chapter?m=Moon%20Garden&c={cid}")
    assert status == 200, chapter
    return {"m": "Moon Garden", "c": cid, "v": chapter["version"], "p": 0, "n": len(chapter["pages"]),
            "done": False, "shift": []}


def test_another_users_progress_keeps_my_page_and_my_own_makes_it_again(scanned, reader_user, other_user):
    body = progress_body(other_user)
    first = warm(reader_user)
    before = hits()
    assert other_user.post("/api/progress", body)[0] == 200  # the other user's own data: not on my page
    assert page(reader_user) == first and hits() == before + 1
    assert reader_user.get("/api/library")[0] == 200
    library = reader_user.get("/api/library")[2]
    assert hits() == before + 2
    assert reader_user.post("/api/progress", progress_body(reader_user))[0] == 200
    mine = page(reader_user)
    assert hits() == before + 2 and mine != first and "Continue" in mine
    assert reader_user.get("/api/library")[2] != library and hits() == before + 2
    assert "Moon Garden" in page(other_user)  # their page, made after their write, shows it too


def test_each_session_gets_its_own_page(scanned, admin, reader_user, other_user):
    assert '<span class="who">reader</span>' in page(reader_user)
    assert '<span class="who">other</span>' in page(other_user)
    again = scanned.client().login("reader", PASSWORD)
    assert '<span class="who">reader</span>' in page(again)
    assert '<span class="who">reader</span>' in page(reader_user)


def test_a_catalog_title_shows_at_once(scanned, admin):
    page(admin)
    rev = admin.get(CATALOG)[2]["rev"]
    status, _, body = admin.post(CATALOG + "/overrides", {"rev": rev, "m": "Long Scroll", "title": "The Long Scroll"})
    assert status == 200, body
    assert "The Long Scroll" in page(admin)
    assert "The Long Scroll" in [m["title"] for m in admin.get("/api/library")[2]["manga"]]


def test_the_csrf_token_of_a_page_sent_again_still_signs_a_form(scanned, reader_user):
    warm(reader_user)
    before = hits()
    # post_form reads the token from the page, now from the cache, then signs out with it.
    status, _, _ = post_form(reader_user, "/", {}, action="/logout/")
    assert hits() == before + 1
    assert status == 302, status
    assert reader_user.get("/api/me")[0] == 401


def csrf_cookie_sent(client, path):
    status, headers, _ = client.get(path)
    assert status == 200
    return "csrftoken=" in (headers.get("Set-Cookie") or "")


def test_a_kept_answer_sets_no_cookie_and_a_made_page_renews_the_csrf_cookie(scanned, reader_user):
    warm(reader_user)
    assert csrf_cookie_sent(reader_user, "/api/library") is False  # made: JSON holds no token
    before = hits()
    assert [csrf_cookie_sent(reader_user, path) for path in ("/", "/api/library")] == [False, False]
    assert hits() == before + 2
    assert reader_user.post("/api/follow", {"m": "Moon Garden", "on": True})[0] == 200
    assert csrf_cookie_sent(reader_user, "/") is True and hits() == before + 2  # made again: renewed


def test_a_page_with_a_message_is_never_kept(scanned, reader_user):
    warm(reader_user)
    before = hits()
    reader_user.cookies["messages"] = "x"
    page(reader_user)
    assert hits() == before
    reader_user.cookies.pop("messages", None)  # the page dropped the unreadable message
    page(reader_user)
    assert hits() == before + 1


def test_a_scan_that_adds_a_manga_shows_it(scanned, admin, library_dir):
    assert "New Arrival" not in page(admin)
    make_page(library_dir / "New Arrival" / "c0001 One" / "001.png")
    assert admin.post("/api/admin/rescan", {})[0] == 200
    wait_for_library(admin, 3)
    html = page(admin)
    recent = re.search(r'<section class="recent"[\s\S]*?</section>', html).group(0)
    assert "New Arrival" in recent and "1 chapter</span>" in recent  # the row's own cache, made again
    assert "New Arrival" in re.search(r'<ul class="grid" id="grid">[\s\S]*?</ul>', html).group(0)


def test_the_manga_page_and_api_manga_are_sent_again_until_the_user_reads_or_follows(scanned, reader_user, other_user):
    url, api = "/manga/Moon%20Garden/", "/api/manga?m=Moon%20Garden"
    reader_user.get(url)
    first = reader_user.get(url)[2]
    before = hits()
    assert reader_user.get(url)[2] == first and hits() == before + 1
    detail = reader_user.get(api)[2]
    assert reader_user.get(api)[2] == detail and hits() == before + 2
    assert other_user.post("/api/progress", progress_body(other_user))[0] == 200  # not on my page
    assert reader_user.get(url)[2] == first and hits() == before + 3
    assert reader_user.post("/api/progress", {**progress_body(reader_user), "p": 1})[0] == 200
    read = reader_user.get(api)[2]
    assert read["books"][0]["chapters"][0]["progress"]["p"] == 1 and hits() == before + 3
    assert reader_user.post("/api/follow", {"m": "Moon Garden", "on": True})[0] == 200
    assert reader_user.get(api)[2]["following"] is True
    assert reader_user.get(url)[2] != first
