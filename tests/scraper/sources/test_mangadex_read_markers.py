"""Importing MangaDex read markers through the reader (issue 28, item 7): the reader in process,
the daemon in process behind its real control API, the fake MangaDex. Chapters are matched by the
MangaDex chapter id in their chapter.json; what is not here yet is counted, not dropped silently."""
import pytest

from bench.server import free_port
from scraper import queue
from scraper.api import ApiServer
from scraper.sources import mangadex
from tests.conftest import PASSWORD
from tests.scraper.conftest import TOKEN, drain
from tests.scraper.sources.test_mangadex_accounts import PASSWORD as MD_PASSWORD
from tests.scraper.sources.test_mangadex_accounts import USER
from tests.support.app import AppServer


@pytest.fixture
def reader(tmp_path, dexd, dex, library):
    mangadex.SOURCE.configure(dex.url, dex.url)
    port = free_port()
    control = ApiServer(dexd, f"http://127.0.0.1:{port}", TOKEN).start()
    srv = AppServer(tmp_path / "data", library, env={"SCRAPER_URL": f"http://127.0.0.1:{port}",
                                                     "SCRAPER_TOKEN": TOKEN})
    # Two chapters of Moon Garden downloaded (not followed), before the reader's first scan.
    queue.add_job(dexd.queue, "chapters", "mangadex", dex.ids["garden"], [dex.ids["c1"], dex.ids["c2"]], lang="en")
    drain(dexd)
    srv.start()
    yield srv
    srv.stop()
    control.stop()
    mangadex.SOURCE.configure(dex.url)


def _connect(client, dex):
    client_id, secret = dex.add_account(USER, MD_PASSWORD)
    status, _, data = client.post("/api/mangadex/account", {"clientId": client_id, "clientSecret": secret,
                                                            "username": USER, "password": MD_PASSWORD})
    assert status == 200, data
    return data["account"]


def _read(client):
    status, _, data = client.get("/api/manga?m=Moon%20Garden")
    assert status == 200, data
    return {c["key"]: c["read"] for b in data["books"] for c in b["chapters"]}


def test_read_markers_mark_the_chapters_here_and_count_the_others(reader, dex):
    admin = reader.client().signup("admin", PASSWORD)
    assert admin.post("/api/admin/user", {"name": "reader", "password": PASSWORD})[0] == 200
    user = reader.client().login("reader", PASSWORD)
    assert _connect(user, dex)["username"] == USER
    chapters = {c["key"]: c["id"] for b in user.get("/api/manga?m=Moon%20Garden")[2]["books"] for c in b["chapters"]}
    assert sorted(chapters) == ["1", "2"]
    assert user.post("/api/read", {"m": "Moon Garden", "c": chapters["1"]})[0] == 200  # finished here already
    dex.mark_read(USER, dex.ids["c1"], dex.ids["c2"], dex.ids["c3.9"])

    status, _, result = user.post("/api/mangadex/read-markers", {})
    assert status == 200 and result == {"read": 3, "marked": 1, "already": 1, "notHere": 1}
    assert _read(user) == {"1": True, "2": True}
    assert _read(admin) == {"1": False, "2": False}  # another user's progress is untouched
    status, _, again = user.post("/api/mangadex/read-markers", {})
    assert again == {"read": 3, "marked": 0, "already": 2, "notHere": 1}


def test_each_user_reaches_only_their_own_connection(reader, dex):
    admin = reader.client().signup("admin", PASSWORD)
    assert admin.post("/api/admin/user", {"name": "reader", "password": PASSWORD})[0] == 200
    user = reader.client().login("reader", PASSWORD)
    _connect(user, dex)
    assert admin.get("/api/mangadex/account")[2] == {"account": {"connected": False, "error": None}}
    status, _, data = admin.post("/api/mangadex/read-markers", {})
    assert status == 404 and data["error"] == "no MangaDex account is connected for this user"
    assert admin.get("/api/mangadex/follows")[0] == 404
    assert user.get("/api/mangadex/follows")[0] == 403  # following series is for admins
    # The admin proxy does not reach the daemon's account routes.
    assert admin.get("/api/admin/scraper/account?user=reader")[0] == 404
    assert admin.post("/api/admin/scraper/account/disconnect", {"user": "reader"})[0] == 404
    assert user.get("/api/mangadex/account")[2]["account"]["connected"]


def test_a_revoked_connection_says_reconnect_and_a_bad_password_says_why(reader, dex):
    user = reader.client().signup("admin", PASSWORD)
    client_id, secret = dex.add_account(USER, MD_PASSWORD)
    status, _, data = user.post("/api/mangadex/account", {"clientId": client_id, "clientSecret": secret,
                                                          "username": USER, "password": "wrong"})
    assert status == 400 and "Invalid user credentials" in data["error"]
    status, _, data = user.post("/api/mangadex/account", {"clientId": client_id, "clientSecret": secret,
                                                          "username": USER})
    assert status == 400 and "password" in data["error"]
    _connect(user, dex)
    dex.revoke(USER)
    dex.expire(USER)
    status, _, data = user.post("/api/mangadex/read-markers", {})
    assert status == 409 and "needs to be made again" in data["error"]
    account = user.get("/api/mangadex/account")[2]["account"]
    assert account["state"] == "reconnect" and "Token is not active" in account["error"]


def test_an_account_made_again_under_the_same_name_does_not_inherit_the_connection(reader, dex):
    admin = reader.client().signup("admin", PASSWORD)
    assert admin.post("/api/admin/user", {"name": "reader", "password": PASSWORD})[0] == 200
    _connect(reader.client().login("reader", PASSWORD), dex)
    assert admin.post("/api/admin/user/delete", {"name": "reader"})[0] == 200
    assert admin.post("/api/admin/user", {"name": "reader", "password": PASSWORD})[0] == 200
    again = reader.client().login("reader", PASSWORD)
    assert again.get("/api/mangadex/account")[2]["account"]["connected"] is False
    assert again.post("/api/mangadex/read-markers", {})[0] == 404
