"""A security change that cannot be saved answers 503 and has no effect, through the JSON API and
the forms alike: the answer is the truth (docs/accounts.md)."""
import contextlib
import time

import orjson

from tests.conftest import PASSWORD
from tests.support.forms import post_form
from tests.support.pages import wait_for_library

SAVING_FAILS = b"saving data is failing"


@contextlib.contextmanager
def failing_writes(server, probe):
    """Every write of db.json fails inside the block (a folder stands where its tmp file goes);
    after it, waits until `probe`'s POSTs are let through again (a write has succeeded)."""
    blocker = server.data / "db.json.tmp"
    blocker.mkdir()
    try:
        yield
    finally:
        blocker.rmdir()
    deadline = time.monotonic() + 5
    # An unknown manga: 404 once writes work, without writing anything itself.
    while probe.post("/api/follow", {"m": "no such manga", "on": True})[0] == 503:
        assert time.monotonic() < deadline, "writes did not recover"
        time.sleep(0.05)


def saved(server):
    server.stop()
    data = orjson.loads((server.data / "db.json").read_bytes())
    server.start()
    return data


def test_it_keeps_the_password_and_sessions_when_a_password_change_cannot_be_saved(server, admin, reader_user):
    laptop = server.client().login("reader")
    with failing_writes(server, admin):
        status, headers, data = reader_user.post("/api/password", {"old": PASSWORD, "new": "a new password"})
        assert status == 503 and headers["Retry-After"] and "try again" in data["error"]
    with failing_writes(server, admin):
        assert admin.post("/api/admin/user", {"name": "reader", "password": "a new password"})[0] == 503
    assert laptop.get("/api/me")[0] == reader_user.get("/api/me")[0] == 200
    assert server.client().post("/api/login", {"name": "reader", "password": "a new password"})[0] == 401
    server.client().login("reader", PASSWORD)


def test_it_keeps_the_session_when_a_sign_out_cannot_be_saved(server, admin, reader_user):
    with failing_writes(server, admin):
        assert reader_user.post("/api/logout")[0] == 503
    assert reader_user.get("/api/me")[0] == 200


def test_it_answers_the_503_page_when_the_sign_out_form_cannot_be_saved(server, admin, reader_user):
    with failing_writes(server, admin):
        status, headers, page = post_form(reader_user, "/settings/user/profile/", {}, action="/logout/")
        assert status == 503 and headers["Retry-After"] and SAVING_FAILS in page
        assert b'class="card"' in page
    assert "sid" in reader_user.cookies
    assert reader_user.get("/api/me")[0] == 200


def test_it_keeps_roles_users_and_their_data_when_an_admin_change_cannot_be_saved(server, admin, reader_user):
    wait_for_library(admin, 2)
    assert reader_user.post("/api/follow", {"m": "Moon Garden", "on": True})[0] == 200
    assert admin.post("/api/admin/user/role", {"name": "reader", "admin": True})[0] == 200
    with failing_writes(server, admin):
        assert admin.post("/api/admin/user/role", {"name": "reader", "admin": False})[0] == 503
    with failing_writes(server, admin):
        assert admin.post("/api/admin/user/delete", {"name": "reader"})[0] == 503
    with failing_writes(server, admin):
        assert admin.post("/api/admin/user", {"name": "newcomer", "password": PASSWORD})[0] == 503
    assert reader_user.get("/api/admin")[0] == 200
    assert reader_user.get("/api/manga?m=Moon%20Garden")[2]["following"] is True
    assert [u["name"] for u in admin.get("/api/admin")[2]["users"]] == ["admin", "reader"]
    data = saved(server)
    assert data["users"]["reader"]["admin"] is True and "newcomer" not in data["users"]
    assert data["follows"]["reader"] == {"Moon Garden": True}


def test_it_makes_no_account_or_session_that_cannot_be_saved(server, guest):
    with failing_writes(server, server.client()):
        assert guest.post("/api/signup", {"name": "admin", "password": PASSWORD})[0] == 503
    assert guest.get("/api/auth")[2]["firstRun"] is True
    admin = server.client().signup("admin")
    sessions = len(saved(server)["sessions"])
    with failing_writes(server, admin):
        assert guest.post("/api/login", {"name": "admin", "password": PASSWORD})[0] == 503
    assert "sid" not in guest.cookies
    assert len(saved(server)["sessions"]) == sessions


def test_it_changes_nothing_when_a_form_cannot_be_saved(server, admin, reader_user):
    assert admin.post("/api/admin/user/role", {"name": "reader", "admin": True})[0] == 200
    users = "/settings/admin/users/"
    with failing_writes(server, admin):
        for client, page, fields, action in (
            (reader_user, "/settings/user/profile/",
             {"old": PASSWORD, "new": "a new password", "new2": "a new password"}, None),
            (admin, users, {"name": "newcomer", "password": PASSWORD}, None),
            (admin, users, {"action": "password", "password": "a new password"}, users + "reader/"),
            (admin, users, {"action": "revoke"}, users + "reader/"),
            (admin, users + "reader/delete/", {}, None),
        ):
            status, headers, _ = post_form(client, page, fields, action)
            assert status == 302, (page, action, status)
            assert SAVING_FAILS in client.get(headers["Location"])[2], (page, action)
        status, _, html = post_form(server.client(), "/login/", {"name": "reader", "password": PASSWORD})
        assert status == 503 and SAVING_FAILS in html
    assert reader_user.get("/api/admin")[0] == 200
    assert [u["name"] for u in admin.get("/api/admin")[2]["users"]] == ["admin", "reader"]
    assert server.client().post("/api/login", {"name": "reader", "password": "a new password"})[0] == 401
    server.client().login("reader", PASSWORD)


def test_it_makes_no_first_account_from_a_form_that_cannot_be_saved(server, guest):
    with failing_writes(server, server.client()):
        status, _, html = post_form(guest, "/login/", {"action": "signup", "name": "admin", "password": PASSWORD,
                                                       "password2": PASSWORD}, action="/signup/")
        assert status == 503 and SAVING_FAILS in html
    assert guest.get("/api/auth")[2]["firstRun"] is True
