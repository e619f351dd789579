"""Automatic keeping for followed manga (shelf/offline.py, docs/offline.md): GET /api/offline/followed
lists the next offlineAhead unread chapters of each manga the user follows and may see, from where
Continue leads, and nothing while the setting offlineFollowed is off."""
from shelf import offline
from tests.support.forms import post_form


def _followed(client):
    status, _, data = client.get("/api/offline/followed")
    assert status == 200, data
    return data


def _ids(data):
    return [(c["m"], c["c"]) for c in data["chapters"]]


def _follow(client, *names):
    for name in names:
        assert client.post("/api/follow", {"m": name, "on": True})[0] == 200


def test_it_lists_nothing_while_the_setting_is_off(admin):
    _follow(admin, "Moon Garden")
    assert _followed(admin) == {"on": False, "chapters": []}
    assert admin.get("/api/me")[2]["settings"]["offlineFollowed"] is False


def test_it_lists_the_next_unread_chapters_of_each_followed_manga_from_where_continue_leads(admin):
    _follow(admin, "Moon Garden", "Long Scroll")
    assert post_form(admin, "/settings/user/offline/", {"offlineAhead": "1", "offlineFollowed": "on"})[0] == 302
    data = _followed(admin)
    assert data["on"] is True and _ids(data) == [("Long Scroll", "0/1"), ("Moon Garden", "1/1")]
    assert data["chapters"][1] == {"m": "Moon Garden", "c": "1/1", "url": "read/Moon%20Garden/1/1/",
                                   "label": data["chapters"][1]["label"]} and data["chapters"][1]["label"]
    assert admin.post("/api/read", {"m": "Moon Garden", "c": "1/1"})[0] == 200
    assert _ids(_followed(admin)) == [("Long Scroll", "0/1"), ("Moon Garden", "1/2")]
    assert admin.post("/api/read", {"m": "Moon Garden", "c": "1/2"})[0] == 200
    assert _ids(_followed(admin)) == [("Long Scroll", "0/1")]  # caught up: nothing more of Moon Garden
    assert admin.post("/api/unread", {"m": "Moon Garden", "c": "1/1"})[0] == 200
    assert _ids(_followed(admin)) == [("Long Scroll", "0/1")]  # an older chapter unread again is not "next"
    admin.post("/api/settings", {"offlineAhead": 5})
    admin.post("/api/follow", {"m": "Long Scroll", "on": False})
    assert _ids(_followed(admin)) == []
    post_form(admin, "/settings/user/offline/", {"offlineAhead": "3"})  # the box unticked
    assert admin.get("/api/me")[2]["settings"]["offlineFollowed"] is False


def test_it_leaves_out_a_followed_manga_the_user_may_no_longer_see(admin, reader_user):
    _follow(reader_user, "Moon Garden", "Long Scroll")
    reader_user.post("/api/settings", {"offlineFollowed": True})
    assert _ids(_followed(reader_user)) == [("Long Scroll", "0/1"), ("Moon Garden", "1/1"), ("Moon Garden", "1/2")]
    assert admin.post("/api/admin/user/access", {"name": "reader", "only": ["Long Scroll"]})[0] == 200
    assert _ids(_followed(reader_user)) == [("Long Scroll", "0/1")]


def test_it_keeps_at_most_max_chapters_in_all(admin, monkeypatch):
    monkeypatch.setattr(offline, "MAX_CHAPTERS", 2)
    _follow(admin, "Moon Garden", "Long Scroll")
    admin.post("/api/settings", {"offlineFollowed": True})
    assert _ids(_followed(admin)) == [("Long Scroll", "0/1"), ("Moon Garden", "1/1")]
