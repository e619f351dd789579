"""POST /api/follow: per user, only for manga that exist."""


def _following(client, name):
    return next(m["following"] for m in client.get("/api/library")[2]["manga"] if m["name"] == name)


def test_it_follows_and_unfollows_for_this_user_only(scanned, reader_user, other_user):
    status, _, data = reader_user.post("/api/follow", {"m": "Moon Garden", "on": True})
    assert status == 200 and data == {"m": "Moon Garden", "following": True}
    assert _following(reader_user, "Moon Garden") is True
    assert reader_user.get("/api/manga?m=Moon%20Garden")[2]["following"] is True
    assert _following(other_user, "Moon Garden") is False
    assert reader_user.post("/api/follow", {"m": "Moon Garden", "on": False})[2]["following"] is False
    assert _following(reader_user, "Moon Garden") is False


def test_it_refuses_unknown_manga_and_non_boolean_switches(scanned, reader_user):
    status, _, data = reader_user.post("/api/follow", {"m": "Invented Manga", "on": True})
    assert status == 404 and "Invented Manga" in data["error"]
    for body, name in (({"m": "Moon Garden", "on": "yes"}, "on"), ({"m": "Moon Garden"}, "on"), ({"on": True}, "m")):
        status, _, data = reader_user.post("/api/follow", body)
        assert status == 400 and data["error"].startswith(name + " "), body
    assert "Invented" not in (scanned.data / "db.json").read_text()
