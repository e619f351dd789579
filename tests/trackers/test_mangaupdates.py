"""MangaUpdates: the login API (the password sent once, never kept), list updates, the import."""
import orjson

from tests.support.forms import post_form
from trackers import store

from .conftest import MU_ID, finish
from .fakes import MU_USER


def log_in(user, password=MU_USER["password"]):
    return post_form(user, "/settings/user/apps/", {"username": MU_USER["username"], "password": password},
                     "/settings/user/apps/trackers/mangaupdates/connect/")


def test_it_logs_in_and_keeps_the_session_not_the_password(app, user, fake):
    status, headers, _ = log_in(user)
    assert status == 302
    login = next(body for method, path, _, body in fake.log if path == "/mu/v1/account/login")
    assert orjson.loads(login) == {"username": "mureader", "password": "mu password"}
    connection = store.connection("admin", "mangaupdates")
    assert connection["state"] == "connected" and connection["token"] in fake.tokens
    assert connection["accountName"] == "mureader" and connection["accountId"] == "9001"
    assert b"mu password" not in (app.data / "trackers.json").read_bytes()


def test_a_wrong_password_connects_nothing(app, user, fake):
    log_in(user, "wrong")
    assert store.connection("admin", "mangaupdates") is None
    _, _, html = user.get("/settings/user/apps/")
    assert b"Invalid username or password" in html


def test_finishing_chapters_adds_then_updates_the_list_entry(app, user, fake, sender):
    log_in(user)
    finish(user, "Lantern Fields", "1/1", "c0001 One")
    sender.run_due()
    assert fake.updates[-1] == ("mangaupdates", str(MU_ID),
                                {"series": {"id": MU_ID}, "list_id": 0, "status": {"chapter": 1, "volume": 1}})
    assert [p for m, p, _, _ in fake.log if p.startswith("/mu/v1/lists")] == [
        "/mu/v1/lists/series/update", "/mu/v1/lists/series"]  # not on a list yet: added
    finish(user, "Lantern Fields", "1/2", "c0002 Two")
    finish(user, "Lantern Fields", "2/3", "c0003 Three")
    sender.run_due()
    assert fake.updates[-1][2] == {"series": {"id": MU_ID}, "list_id": 2, "status": {"chapter": 3, "volume": 2}}
    assert fake.log[-1][1] == "/mu/v1/lists/series/update"


def test_the_list_is_imported(app, user, fake):
    fake.lists["mangaupdates"] = [(str(MU_ID), 2, "reading")]
    log_in(user)
    post_form(user, "/settings/user/apps/", {"tracker": "mangaupdates", "action": "import"},
              "/settings/user/apps/trackers/")
    _, _, data = user.get("/api/chapter?m=Lantern%20Fields&c=1/2")
    assert data["progress"]["done"] is True
