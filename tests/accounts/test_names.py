"""Account names are one name whatever their case (docs/accounts.md): sign-in, the admin's
actions and the API find an account typed in any case and keep the spelling chosen at creation."""
import json

import pytest

from tests.conftest import PASSWORD
from tests.reader.komga.apps import basic
from tests.support.forms import post_form


@pytest.fixture
def camel(server, admin):
    """A user created as "ReaDer"."""
    status, _, data = admin.post("/api/admin/user", {"name": "ReaDer", "password": PASSWORD})
    assert (status, data) == (200, {"name": "ReaDer", "created": True})
    return "ReaDer"


def test_it_signs_in_whatever_the_case_typed_and_keeps_the_spelling_of_creation(server, camel):
    for typed in ("reader", "READER", "ReaDer"):
        client = server.client()
        status, _, data = client.post("/api/login", {"name": typed, "password": PASSWORD})
        assert (status, data) == (200, {"name": "ReaDer"}), typed
        assert client.get("/api/me")[2]["name"] == "ReaDer"


def test_it_refuses_a_name_taken_in_another_case(server, admin, camel):
    status, _, data = admin.post("/api/admin/user", {"name": "rEADER2x", "password": PASSWORD})
    assert status == 200
    status, _, data = admin.post("/api/admin/user/role", {"name": "READER", "admin": True})
    assert (status, data) == (200, {"name": "ReaDer", "admin": True})
    # The create-or-reset API resets the existing account, whatever the case: no second account.
    status, _, data = admin.post("/api/admin/user", {"name": "reader", "password": "another password"})
    assert (status, data) == (200, {"name": "ReaDer", "created": False})
    assert server.client().post("/api/login", {"name": "Reader", "password": "another password"})[0] == 200
    assert [u["name"] for u in admin.get("/api/admin")[2]["users"]].count("ReaDer") == 1


def test_it_answers_an_unknown_name_as_a_wrong_password_and_counts_it_alike(server, camel):
    client = server.client()
    wrong = client.post("/api/login", {"name": "READER", "password": "wrong password"})
    unknown = client.post("/api/login", {"name": "nobody", "password": "wrong password"})
    assert wrong[0] == unknown[0] == 401 and wrong[2] == unknown[2]
    # One limit per name whatever its case: 9 more wrong guesses in other cases reach the 10.
    for typed in ("reader", "Reader", "rEader", "reAder", "reaDer", "readEr", "readeR", "REader", "rEADER"):
        assert client.post("/api/login", {"name": typed, "password": "wrong password"})[0] == 401
    assert client.post("/api/login", {"name": "reader", "password": PASSWORD})[0] == 429


def test_it_finds_the_account_of_an_admin_form_in_any_case(server, admin, camel):
    status, headers, _ = post_form(admin, "/settings/admin/users/", {"action": "grant"},
                                   action="/settings/admin/users/reader/")
    assert status == 302
    assert admin.get("/settings/admin/users/")[2].count(b"ReaDer") >= 1
    assert [u for u in admin.get("/api/admin")[2]["users"] if u["name"] == "ReaDer"][0]["admin"] is True


def test_it_still_loads_accounts_whose_names_differ_only_by_case(server, camel):
    """db.json files from before the rule may hold "ReaDer" and "reader": both load, each signs in
    with its exact spelling, and a third spelling matches neither (it would be a guess)."""
    server.stop()
    path = server.data / "db.json"
    db = json.loads(path.read_text())
    db["users"]["reader"] = {**db["users"]["ReaDer"], "name": "reader"}
    path.write_text(json.dumps(db))
    server.start()
    assert server.client().post("/api/login", {"name": "ReaDer", "password": PASSWORD})[2] == {"name": "ReaDer"}
    assert server.client().post("/api/login", {"name": "reader", "password": PASSWORD})[2] == {"name": "reader"}
    assert server.client().post("/api/login", {"name": "READER", "password": PASSWORD})[0] == 401


FULL_WIDTH = "\uff41\uff4c\uff49\uff43\uff45"  # ａｌｉｃｅ


def test_it_stores_a_name_in_its_nfkc_form_and_signs_it_in_however_wide(server, admin):
    status, _, data = admin.post("/api/admin/user", {"name": FULL_WIDTH, "password": PASSWORD})
    assert (status, data) == (200, {"name": "alice", "created": True})
    status, _, data = admin.post("/api/admin/user", {"name": "alice", "password": PASSWORD})
    assert (status, data) == (200, {"name": "alice", "created": False})  # the same account
    assert [u["name"] for u in admin.get("/api/admin")[2]["users"]] == ["admin", "alice"]
    for typed in (FULL_WIDTH, FULL_WIDTH.upper(), "Alice"):
        status, _, data = server.client().post("/api/login", {"name": typed, "password": PASSWORD})
        assert (status, data) == (200, {"name": "alice"}), typed
    # The apps' Basic sign-in goes through the same rule.
    assert server.client().get("/komga/api/v2/users/me", headers={"Authorization": basic(FULL_WIDTH)})[0] == 200


def test_it_refuses_a_look_alike_of_a_taken_name_at_sign_up(server, admin, settings):
    settings.SIGNUP = "open"
    assert admin.post("/api/admin/user", {"name": "alice", "password": PASSWORD})[0] == 200
    status, _, data = server.client().post("/api/signup", {"name": FULL_WIDTH, "password": PASSWORD})
    assert status == 409 and "alice" in data["error"]
    status, _, data = server.client().post("/api/signup", {"name": "\ufb01ona", "password": PASSWORD})  # ﬁona
    assert (status, data["name"]) == (200, "fiona")


def test_it_keeps_look_alikes_from_an_old_file_apart_and_lists_them_on_health(server, admin):
    assert admin.post("/api/admin/user", {"name": "alice", "password": PASSWORD})[0] == 200
    server.stop()
    path = server.data / "db.json"
    db = json.loads(path.read_text())
    db["users"][FULL_WIDTH] = {**db["users"]["alice"], "name": FULL_WIDTH}
    path.write_text(json.dumps(db))
    server.start()
    for typed in ("alice", FULL_WIDTH):  # the exact spelling first
        assert server.client().post("/api/login", {"name": typed, "password": PASSWORD})[2] == {"name": typed}
    assert server.client().post("/api/login", {"name": "ALICE", "password": PASSWORD})[0] == 401  # a guess
    admin = server.client().login("admin")
    assert admin.get("/api/admin/health")[2]["accounts"] == {"lookAlikes": [["alice", FULL_WIDTH]]}
    page = admin.get("/settings/admin/health/")[2].decode()
    assert f"alice and {FULL_WIDTH}" in page and "Look-alike names" in page


@pytest.mark.browser
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_it_signs_in_from_the_form_in_another_case(server, admin, camel, size, request):
    page = request.getfixturevalue(size).new_page()
    page.goto(server.url + "/login/")
    page.fill("input[name=name]", "Reader")
    page.fill("input[name=password]", PASSWORD)
    page.click("button.primary")
    page.wait_for_url(server.url + "/")
    assert page.request.get(server.url + "/api/me").json()["name"] == "ReaDer"
