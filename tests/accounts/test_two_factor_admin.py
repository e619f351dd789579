"""What admins do about second factors (docs/accounts.md, "Two-factor sign-in"): require one for
admins, reset another user's for a lost phone on the users screen or with `manage.py resettwofactor`."""
import io

import pytest
from django.core.management import CommandError, call_command

from accounts import totp
from tests.conftest import PASSWORD
from tests.peering.support import manage
from tests.support import twofactor
from tests.support.forms import post_form
from tests.support.twofactor import PROFILE, code, enrol

clock = twofactor.clock
USERS = "/settings/admin/users/"


def require_for_admins(admin, on=True):
    fields = {"admins": "on"} if on else {}
    status, headers, _ = post_form(admin, USERS, fields, action="/settings/admin/two-factor/")
    assert (status, headers["Location"]) == (302, USERS)


def test_it_sends_an_admin_without_a_second_factor_to_set_one_up(server, admin, reader_user, clock):
    require_for_admins(admin)
    status, headers, _ = admin.get("/settings/admin/users/")
    assert (status, headers["Location"]) == (302, PROFILE)
    status, _, data = admin.get("/api/admin")
    assert status == 403 and "two-factor" in data["error"]
    assert "must sign in with a second factor" in admin.get(PROFILE)[2].decode()
    assert reader_user.get("/history/")[0] == 200  # readers are not asked
    enrol(admin, clock)
    assert admin.get("/settings/admin/users/")[0] == 200
    assert admin.get("/api/admin")[0] == 200


def test_it_asks_the_code_of_an_admin_who_has_one_and_lets_the_rule_go(server, admin, clock):
    secret, _ = enrol(admin, clock)
    require_for_admins(admin)
    assert totp.required_for_admins()
    status, _, data = server.client().post("/api/login", {"name": "admin", "password": PASSWORD})
    assert status == 401 and data["codeNeeded"]
    require_for_admins(admin, on=False)
    assert not totp.required_for_admins()
    assert server.client().post("/api/login", {"name": "admin", "password": PASSWORD,
                                               "code": code(secret, clock)})[0] == 200


def test_only_admins_set_the_rule(server, admin, reader_user):
    status, _, _ = reader_user.request("POST", "/settings/admin/two-factor/", raw=b"admins=on",
                                       headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 403 and not totp.required_for_admins()


def test_another_admin_resets_a_lost_second_factor_on_the_users_screen(server, admin, reader_user, clock):
    enrol(reader_user, clock)
    assert "Reset two-factor" in admin.get(USERS)[2].decode()
    status, _, _ = post_form(admin, USERS, {"action": "twofactor"}, action="/settings/admin/users/reader/")
    assert status == 302 and not totp.enabled("reader")
    assert "second factor is reset" in admin.get(USERS)[2].decode()
    assert server.client().post("/api/login", {"name": "reader", "password": PASSWORD})[0] == 200


def test_an_admin_cannot_reset_their_own_on_the_users_screen(server, admin, clock):
    enrol(admin, clock)
    post_form(admin, USERS, {"action": "twofactor"}, action="/settings/admin/users/admin/")
    assert totp.enabled("admin")
    assert "in Settings → Profile" in admin.get(USERS)[2].decode()


def test_manage_py_resets_it_when_no_reader_runs(server, admin, reader_user, clock, settings):
    enrol(reader_user, clock)
    server.stop()
    settings.DATA = server.data  # as the command's environment says
    out = io.StringIO()
    call_command("resettwofactor", "Reader", stdout=out)  # any case
    assert out.getvalue().startswith("reader's second factor is reset")
    with pytest.raises(CommandError, match="reader has no second factor"):
        call_command("resettwofactor", "reader")
    with pytest.raises(CommandError, match="no user named nobody"):
        call_command("resettwofactor", "nobody")
    server.start()
    assert not totp.enabled("reader")
    assert server.client().post("/api/login", {"name": "reader", "password": PASSWORD})[0] == 200


def test_manage_py_resets_it_through_the_running_reader(real_server, library_dir, clock):
    admin = real_server.client().signup("admin")
    assert admin.post("/api/admin/user", {"name": "reader", "password": PASSWORD})[0] == 200
    reader = real_server.client().login("reader")
    enrol(reader, clock)  # the server's clock is the real one: the code of this moment
    assert real_server.client().post("/api/login", {"name": "reader", "password": PASSWORD})[0] == 401
    status, out = manage(real_server.data, library_dir, "resettwofactor", "reader")
    assert status == 0 and "second factor is reset" in out
    assert real_server.client().post("/api/login", {"name": "reader", "password": PASSWORD})[0] == 200
