"""Per-user restrictions (reader/access.py): an admin limits a user to some manga or hides tags,
and every list and page follows; a hidden manga answers exactly like a missing one."""
from urllib.parse import quote

from tests.conftest import PASSWORD
from tests.support.forms import post_form
from tests.support.pages import add_notes, fresh_reader

NOTE = {"id": "a1", "t": 1_790_000_000_000, "m": "Iron Harbor", "c": "1/1", "text": "Iron Harbor · Ch. 1",
        "read": False}


def _titles(client, q=""):
    status, _, data = client.get("/api/library?q=" + quote(q))
    assert status == 200, data
    return [m["title"] for m in data["manga"]], data


def _restrict(admin, name, only=None, tags=()):
    status, _, data = admin.post("/api/admin/user/access", {"name": name, "only": only, "excludeTags": list(tags)})
    assert status == 200, data
    return data


def test_it_hides_manga_with_an_excluded_tag_everywhere(demo_app):
    name = fresh_reader(demo_app)
    user = demo_app.client().login(name, PASSWORD)
    assert "Iron Harbor" in _titles(user)[0]
    assert _restrict(demo_app.admin, name, tags=["western COMIC"])["excludeTags"] == ["western COMIC"]

    titles, data = _titles(user)
    assert "Iron Harbor" not in titles and data["count"] == data["total"] == 5
    assert _titles(user, "iron")[0] == []
    hidden = user.get("/api/manga?m=Iron%20Harbor")
    missing = user.get("/api/manga?m=Iron%20Harbo")
    assert hidden[0] == missing[0] == 404
    assert hidden[2]["error"] == "no manga named Iron Harbor"  # the words a missing manga gets
    assert user.get("/manga/Iron%20Harbor/")[0] == 404
    assert user.get("/thumb/Iron%20Harbor")[0] == 404
    first = demo_app.admin.get("/api/chapter?m=Iron%20Harbor&c=1/1")[2]["pages"][0]["u"]
    assert demo_app.admin.get("/" + first)[0] == 200
    assert user.get("/" + first)[0] == 404
    assert user.get("/api/chapter?m=Iron%20Harbor&c=1/1")[0] == 404
    assert user.get("/api/manga?m=Moon%20Garden")[0] == 200  # the others are untouched


def test_it_limits_a_user_to_some_manga_and_lifts_it_again(demo_app):
    name = fresh_reader(demo_app)
    user = demo_app.client().login(name, PASSWORD)
    _restrict(demo_app.admin, name, only=["Moon Garden"])
    assert _titles(user)[0] == ["Moon Garden"]
    _restrict(demo_app.admin, name, only=None)
    assert len(_titles(user)[0]) == 6


def test_it_hides_notifications_and_reading_of_hidden_manga(demo_app):
    name = fresh_reader(demo_app)
    add_notes(demo_app, name, [NOTE])
    user = demo_app.client().login(name, PASSWORD)
    assert user.post("/api/read", {"m": "Iron Harbor", "c": "1/1"})[0] == 200
    assert user.get("/api/notifications")[2]["unread"] == 1
    _restrict(demo_app.admin, name, only=["Moon Garden"])
    assert user.get("/api/notifications")[2] == {"notifications": [], "unread": 0}
    assert user.get("/api/me")[2]["unread"] == 0
    assert user.post("/api/notifications/read", {"id": "a1"})[0] == 404
    data = user.get("/api/library")[2]
    assert data["continue"] == [] and all(m["name"] == "Moon Garden" for m in data["manga"])


def test_it_refuses_unknown_manga_users_and_oneself(demo_app):
    admin = demo_app.admin
    name = fresh_reader(demo_app)
    status, _, data = admin.post("/api/admin/user/access", {"name": name, "only": ["Nope"]})
    assert status == 404 and data["error"] == "no manga named Nope"
    status, _, data = admin.post("/api/admin/user/access", {"name": "admin", "only": []})
    assert status == 400 and "your own" in data["error"]
    status, _, data = admin.post("/api/admin/user/access", {"name": name, "only": "Moon Garden"})
    assert status == 400 and data["error"].startswith("only")
    status, _, data = admin.post("/api/admin/user/access", {"name": name, "excludeTags": [""]})
    assert status == 400 and data["error"].startswith("excludeTags")


def test_the_admin_sets_restrictions_in_the_users_settings(demo_app):
    admin = demo_app.admin
    name = fresh_reader(demo_app)
    page = f"/settings/admin/users/{name}/access/"
    status, _, html = admin.get(page)
    assert status == 200 and b"sees the whole library" in html and b'value="Western comic"' in html
    status, headers, _ = post_form(admin, page, {"scope": "some", "only": "Long Scroll", "tag": "Drama",
                                                 "more_tags": "adult, gore"})
    assert status == 302
    assert admin.get(page)[2].count(b" checked") == 3  # the radio, the manga, the tag
    user = demo_app.client().login(name, PASSWORD)
    assert _titles(user)[0] == ["Long Scroll"]
    stored = admin.post("/api/admin/user/access", {"name": name, "only": ["Long Scroll"],
                                                   "excludeTags": ["Drama", "adult", "gore"]})[2]
    assert stored["excludeTags"] == ["adult", "Drama", "gore"]


def test_it_forgets_the_restrictions_of_a_deleted_user(demo_app):
    admin = demo_app.admin
    name = fresh_reader(demo_app)
    _restrict(admin, name, only=["Moon Garden"])
    assert admin.post("/api/admin/user/delete", {"name": name})[0] == 200
    assert admin.post("/api/admin/user", {"name": name, "password": PASSWORD})[0] == 200
    assert len(_titles(demo_app.client().login(name, PASSWORD))[0]) == 6


def test_can_see_takes_a_name_or_the_requests_account(demo_app):
    from reader import access

    name = fresh_reader(demo_app)
    _restrict(demo_app.admin, name, only=["Moon Garden"])
    assert access.can_see(name, "Moon Garden") and access.can_see({"name": name, "admin": False}, "Moon Garden")
    assert not access.can_see(name, "Iron Harbor") and not access.can_see({"name": name}, "Iron Harbor")
    assert access.can_see("admin", "Iron Harbor")  # no restrictions: everything
    assert access.restrictions(name) == {"only": ["Moon Garden"], "excludeTags": [], "libraries": None}


def test_a_tag_added_later_hides_the_manga_after_the_next_scan(scanned, admin, reader_user, library_dir):
    assert admin.post("/api/admin/user/access", {"name": "reader", "excludeTags": ["Adult"]})[0] == 200
    assert reader_user.get("/api/manga?m=Moon%20Garden")[0] == 200
    meta = library_dir / "Moon Garden" / "manga.json"
    meta.write_text('{"title": "Moon Garden", "direction": "rtl", "tags": ["adult"]}')
    assert admin.post("/api/admin/rescan", {"full": True})[0] == 200
    assert reader_user.get("/api/manga?m=Moon%20Garden")[0] == 404
    assert [m["name"] for m in reader_user.get("/api/library")[2]["manga"]] == ["Long Scroll"]
    assert admin.get("/api/manga?m=Moon%20Garden")[0] == 200
