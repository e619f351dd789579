"""GET /api/notifications and POST /api/notifications/read {id | all}: each user sees only their own."""
from tests.support.pages import add_notes

NOTES = [
    {"id": "n1", "t": 1_790_000_000_000, "m": "Moon Garden", "c": "1/2", "text": "Moon Garden · Ch. 2: Roots",
     "read": False},
    {"id": "n2", "t": 1_790_000_100_000, "m": "Gone Manga", "c": "1/1", "text": "Gone Manga · Ch. 1",
     "read": False},
]


def test_it_lists_the_users_notifications_newest_first_with_links(scanned, reader_user, other_user):
    add_notes(scanned, "reader", NOTES)
    status, _, data = reader_user.get("/api/notifications")
    assert status == 200 and data["unread"] == 2
    assert [n["id"] for n in data["notifications"]] == ["n2", "n1"]
    assert data["notifications"][1]["url"] == "read/Moon%20Garden/1/2/"
    assert data["notifications"][0]["url"] is None  # the manga is gone from the library
    assert reader_user.get("/api/me")[2]["unread"] == 2
    assert other_user.get("/api/notifications")[2] == {"notifications": [], "unread": 0}


def test_it_marks_one_or_all_read_and_never_another_users(scanned, reader_user, other_user):
    add_notes(scanned, "reader", NOTES)
    status, _, data = other_user.post("/api/notifications/read", {"id": "n1"})
    assert status == 404
    status, _, data = reader_user.post("/api/notifications/read", {"id": "n1"})
    assert status == 200 and data == {"marked": 1, "unread": 1}
    status, _, data = reader_user.post("/api/notifications/read", {"all": True})
    assert status == 200 and data == {"marked": 1, "unread": 0}
    assert all(n["read"] for n in reader_user.get("/api/notifications")[2]["notifications"])


def test_it_refuses_bad_requests_naming_the_field(scanned, reader_user):
    for body, word in (({}, "id or all"), ({"all": False}, "all"), ({"all": "yes"}, "all"), ({"id": 7}, "id")):
        status, _, data = reader_user.post("/api/notifications/read", body)
        assert status == 400 and data["error"].startswith(word), body
    assert reader_user.post("/api/notifications/read", {"id": "nope"})[0] == 404
