"""Reading apps and a second factor (docs/apps.md): Basic with the password is refused for an account
that has one, with a 401 that points to API keys; an API key works as before."""
from accounts import apikeys
from tests.reader.komga.apps import basic
from tests.support import twofactor
from tests.support.twofactor import enrol

clock = twofactor.clock
ME = "/komga/api/v2/users/me"


def test_it_refuses_basic_for_an_account_with_a_second_factor_and_points_to_api_keys(server, reader_user, clock):
    assert server.client().get(ME, headers={"Authorization": basic("reader")})[0] == 200
    enrol(reader_user, clock)
    status, headers, data = server.client().get(ME, headers={"Authorization": basic("reader")})
    assert status == 401 and headers["WWW-Authenticate"].startswith("Basic")
    assert "API key" in data["error"]
    assert server.client().get("/opds/", headers={"Authorization": basic("reader")})[0] == 401


def test_an_api_key_still_signs_the_app_in(server, reader_user, clock):
    enrol(reader_user, clock)
    key = apikeys.create("reader", "phone")
    assert server.client().get(ME, headers={"X-API-Key": key})[0] == 200
    assert server.client().get("/opds/", headers={"X-API-Key": key})[0] == 200


def test_turning_it_on_ends_the_app_sessions_the_password_opened(server, reader_user, clock):
    by_password, by_key = server.client(), server.client()
    assert by_password.get(ME, headers={"Authorization": basic("reader")})[0] == 200
    assert by_key.get(ME, headers={"X-API-Key": apikeys.create("reader", "tablet")})[0] == 200
    enrol(reader_user, clock)
    assert by_password.get(ME)[0] == 401  # its MC-KOMGA-SESSION cookie alone
    assert by_key.get(ME)[0] == 200


def test_basic_still_works_for_an_account_without_one(server, admin, reader_user, clock):
    enrol(reader_user, clock)
    assert server.client().get(ME, headers={"Authorization": basic("admin")})[0] == 200
