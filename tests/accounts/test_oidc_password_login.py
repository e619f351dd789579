"""PASSWORD_LOGIN=0: the web signs in through the OpenID provider only; the sign-in page shows its
button alone, /api/login and the form refuse a password, and the reading apps keep API keys and
Basic (docs/apps.md)."""
import re
from urllib.parse import urlencode

import pytest
from django.core.exceptions import ImproperlyConfigured

from accounts import apikeys
from tests.accounts.oidc_helpers import sign_in
from tests.conftest import PASSWORD
from tests.reader.komga.apps import basic
from tests.support.app import settings_from

ME = "/komga/api/v2/users/me"


def _post_login_form(client, fields):
    """The password form posted as a browser would, though the page no longer shows it."""
    token = re.search(rb'data-csrf-token="([^"]+)"', client.get("/login/")[2]).group(1).decode()
    return client.request("POST", "/login/", raw=urlencode({"csrfmiddlewaretoken": token, **fields}).encode(),
                          headers={"Content-Type": "application/x-www-form-urlencoded"})


def test_it_refuses_password_sign_in_on_the_web_but_not_for_apps(serve, provider):
    srv = serve(PASSWORD_LOGIN="0", OIDC_SIGNUP="1")
    status, _, data = srv.client().post("/api/login", {"name": "admin", "password": PASSWORD})
    assert status == 403 and "sign in with Test ID" in data["error"] and "API keys" in data["error"]
    status, _, page = _post_login_form(srv.client(), {"name": "admin", "password": PASSWORD})
    assert status == 403 and b"turned off" in page
    key = apikeys.create("admin", "phone")
    assert srv.client().get(ME, headers={"X-API-Key": key})[0] == 200
    assert srv.client().get(ME, headers={"Authorization": basic("admin")})[0] == 200
    browser = srv.client()
    assert sign_in(browser, provider, "sam")[0] == 302 and browser.get("/api/me")[0] == 200


def test_the_sign_in_page_shows_the_provider_instead_of_the_password_form(serve, provider):
    srv = serve(PASSWORD_LOGIN="0", SIGNUP="open")
    status, _, page = srv.client().get("/login/")
    assert status == 200 and b"Sign in with Test ID" in page
    assert b'name="password"' not in page and b"Sign up" not in page
    assert srv.client().post("/api/signup", {"name": "newbie", "password": PASSWORD})[0] == 403


def test_its_settings_are_checked_at_start():
    with pytest.raises(ImproperlyConfigured, match="OIDC_CLIENT_ID"):
        settings_from({"OIDC_ISSUER": "https://id.example.org"})
    with pytest.raises(ImproperlyConfigured, match="PASSWORD_LOGIN=0 needs"):
        settings_from({"PASSWORD_LOGIN": "0"})
    with pytest.raises(ImproperlyConfigured, match="OIDC_ISSUER"):
        settings_from({"OIDC_ISSUER": "id.example.org", "OIDC_CLIENT_ID": "x"})
    made = settings_from({"OIDC_ISSUER": "https://id.example.org/application/o/manga/", "OIDC_CLIENT_ID": "x"})
    assert made["OIDC_ISSUER"] == "https://id.example.org/application/o/manga"
    assert (made["OIDC_USERNAME_CLAIM"], made["OIDC_GROUPS_CLAIM"], made["PASSWORD_LOGIN"]) == (
        "preferred_username", "groups", True)
