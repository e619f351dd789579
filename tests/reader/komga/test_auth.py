"""Credentials on the apps' routes: Basic on the sign-in limit and remembered, the session token
and its cookies, API keys shown once, stored hashed and revoked at once."""
import pytest

from accounts import passwords
from tests.conftest import PASSWORD
from tests.support.forms import post_form
from tests.support.pages import wait_for_library

from .apps import basic, set_cookies

ME = "/komga/api/v2/users/me"
SERIES = "/komga/api/v1/series"


@pytest.fixture
def reader(server, admin):
    wait_for_library(admin, 2)
    assert admin.post("/api/admin/user", {"name": "reader", "password": PASSWORD})[0] == 200
    return server.client().login("reader")


@pytest.fixture
def hashes(monkeypatch):
    """How many password hashes were computed (the real check runs)."""
    calls = []
    real = passwords.check

    def counting(password, stored):
        calls.append(1)
        return real(password, stored)

    monkeypatch.setattr(passwords, "check", counting)
    return calls


def test_it_answers_401_with_a_basic_challenge_and_never_403_without_credentials(server, reader):
    for path in (SERIES, ME, "/komga/api/v1/books/ondeck", "/komga/sse/v1/events", "/opds/", "/komga/anything"):
        status, headers, _ = server.client().get(path)
        assert (status, headers.get("WWW-Authenticate")) == (401, 'Basic realm="MangaCircus"'), path
    status, headers, _ = server.client().get(SERIES, headers={"X-Requested-With": "XMLHttpRequest"})
    assert status == 401 and headers.get("WWW-Authenticate") is None


def test_it_remembers_a_successful_basic_check_so_a_page_per_request_costs_no_hash(server, reader, hashes):
    app = server.client()
    for _ in range(5):
        assert app.send("GET", SERIES, headers={"Authorization": basic("reader")})[0] == 200
    assert len(hashes) == 1
    # Suwatte-style clients send Basic without cookies each time: one session, not one per request
    tokens = {set_cookies(app.send("GET", SERIES, headers={"Authorization": basic("reader")})[1])
              ["MC-KOMGA-SESSION"].value for _ in range(3)}
    assert len(tokens) == 1


def test_a_password_change_or_deleted_account_ends_the_remembered_check_and_the_session(server, admin, reader, hashes):
    app = server.client()
    assert app.get(SERIES, headers={"Authorization": basic("reader")})[0] == 200
    assert app.get(SERIES)[0] == 200  # the cookie alone
    assert reader.post("/api/password", {"old": PASSWORD, "new": "another password"})[0] == 200
    assert server.client().get(SERIES, headers={"Authorization": basic("reader")})[0] == 401
    assert app.get(SERIES)[0] == 401
    assert server.client().get(SERIES, headers={"Authorization": basic("reader", "another password")})[0] == 200
    assert admin.post("/api/admin/user/delete", {"name": "reader"})[0] == 200
    assert server.client().get(SERIES, headers={"Authorization": basic("reader", "another password")})[0] == 401


def test_basic_attempts_count_towards_the_sign_in_limit_and_the_other_way_round(server, reader):
    wrong = basic("reader", "wrong password")
    statuses = [server.client().get(SERIES, headers={"Authorization": wrong})[0] for _ in range(10)]
    assert statuses == [401] * 10
    assert server.client().get(SERIES, headers={"Authorization": wrong})[0] == 429
    # The sign-in form shares the count, and so do right passwords that are not remembered yet
    assert server.client().post("/api/login", {"name": "reader", "password": PASSWORD})[0] == 429
    assert server.client().get(SERIES, headers={"Authorization": basic("reader")})[0] == 429


def test_a_stale_token_with_valid_basic_signs_in_and_gets_a_new_token(server, reader):
    stale = {"Cookie": "MC-KOMGA-SESSION=0123; komga-remember-me=4567", "Authorization": basic("reader")}
    status, headers, _ = server.client().send("GET", SERIES, headers=stale)
    assert status == 200 and set_cookies(headers)["MC-KOMGA-SESSION"].value not in ("0123", "4567")


def test_it_tries_every_value_of_a_cookie_sent_twice(server, reader):
    token = set_cookies(server.client().send("GET", ME + "?remember-me=true",
                                             headers={"Authorization": basic("reader")})[1])["komga-remember-me"].value
    both = {"Cookie": f"komga-remember-me=someone-elses; komga-remember-me={token}"}
    assert server.client().send("GET", SERIES, headers=both)[0] == 200


def test_it_refuses_writes_from_another_site(server, reader):
    app = server.client()
    book = app.get("/komga/api/v1/books", headers={"Authorization": basic("reader")})[2]["content"][0]["id"]
    path = f"/komga/api/v1/books/{book}/read-progress"
    assert app.request("PATCH", path, body={"page": 1}, headers={"Origin": "https://evil.example"})[0] == 403
    assert app.request("PATCH", path, body={"page": 1}, headers={"Sec-Fetch-Site": "cross-site"})[0] == 403
    assert app.request("PATCH", path, body={"page": 1})[0] == 204


def test_api_keys_are_shown_once_stored_hashed_noted_when_used_and_revoked_at_once(server, reader):
    assert post_form(reader, "/settings/user/apps/", {"label": "Mihon on my phone"})[0] == 302
    status, _, html = reader.get("/settings/user/apps/")
    key = html.decode().split('<code id="new-key">')[1].split("<")[0]
    assert key.startswith("mc_") and key.encode() not in (server.data / "db.json").read_bytes()
    assert key.encode() not in reader.get("/settings/user/apps/")[2]  # never shown again
    app = server.client()
    status, headers, _ = app.send("GET", SERIES, headers={"X-API-Key": key, "User-Agent": "TachiyomiKomga/1.6"})
    assert status == 200
    cookie = set_cookies(headers)["MC-KOMGA-SESSION"].value
    page = reader.get("/settings/user/apps/")[2].decode()
    assert "Mihon on my phone" in page and "TachiyomiKomga/1.6" in page
    assert server.client().send("GET", SERIES, headers={"X-API-Key": key + "x"})[0] == 401
    key_id = page.split('name="id" value="')[1].split('"')[0]
    assert post_form(reader, "/settings/user/apps/", {"action": "revoke", "id": key_id})[0] == 302
    assert server.client().send("GET", SERIES, headers={"X-API-Key": key})[0] == 401
    assert server.client().send("GET", SERIES, headers={"Cookie": f"MC-KOMGA-SESSION={cookie}"})[0] == 401


def test_another_user_cannot_revoke_a_key(server, admin, reader):
    post_form(reader, "/settings/user/apps/", {"label": "KMReader"})
    key_id = reader.get("/settings/user/apps/")[2].decode().split('name="id" value="')[1].split('"')[0]
    status, _, html = post_form(admin, "/settings/user/apps/", {"action": "revoke", "id": key_id})
    assert status == 404 and b"no such key" in html
    assert "KMReader" in reader.get("/settings/user/apps/")[2].decode()


def test_logout_ends_the_session_and_expires_both_cookies(server, reader):
    app = server.client()
    assert app.get(ME + "?remember-me=true", headers={"Authorization": basic("reader")})[0] == 200
    status, headers, _ = app.request("POST", "/komga/api/logout", raw=b"")
    cookies = set_cookies(headers)
    assert status == 204 and {cookies[n]["max-age"] for n in ("MC-KOMGA-SESSION", "komga-remember-me")} == {"0"}
    assert {cookies[n]["path"] for n in cookies} == {"/komga"}
    assert app.get(SERIES)[0] == 401


def test_the_apps_routes_are_off_with_apps_api_0(data_dir, library_dir):
    from tests.support.app import AppServer

    server = AppServer(data_dir, library_dir, env={"APPS_API": "0"}).start()
    try:
        server.client().signup("admin", PASSWORD)
        for path in (SERIES, "/opds/"):
            assert server.client().get(path, headers={"Authorization": basic("admin")})[0] == 404
    finally:
        server.stop()


def test_signing_out_on_one_device_keeps_another_signed_in(server, reader):
    phone, desktop = server.client(), server.client()
    for device in (phone, desktop):
        assert device.get(ME + "?remember-me=true", headers={"Authorization": basic("reader")})[0] == 200
    assert phone.cookies["komga-remember-me"] != desktop.cookies["komga-remember-me"]
    assert phone.request("POST", "/komga/api/logout", raw=b"")[0] == 204
    assert desktop.get(SERIES)[0] == 200


def test_it_refuses_what_a_form_on_another_site_could_post(server, reader):
    app = server.client()
    series = app.get(SERIES, headers={"Authorization": basic("reader")})[2]["content"][0]["id"]
    path = f"/komga/api/v1/series/{series}/read-progress"
    for content_type in ("application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain"):
        assert app.request("POST", path, raw=b"a=b", headers={"Content-Type": content_type})[0] == 415
    assert app.get(SERIES)[2]["content"][0]["booksReadCount"] == 0
    assert app.request("POST", path, raw=b"")[0] == 204
