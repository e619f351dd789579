"""Sign-in by a trusted proxy's header (docs/accounts.md, "Signing in through your proxy"): believed
from TRUSTED_PROXIES only, in process so that requests can come from any address."""
import ipaddress

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from accounts import passwords, users
from tests.conftest import PASSWORD
from tests.support.app import settings_from

PROXY = {"REMOTE_ADDR": "10.0.0.2", "HTTP_HOST": "manga.example.org"}
DIRECT = {"REMOTE_ADDR": "203.0.113.5", "HTTP_HOST": "manga.example.org"}
HERE = {"REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "localhost:8080"}


@pytest.fixture
def proxied(start, settings):
    """Behind a proxy at 10.0.0.2 sending Remote-User and Remote-Groups; the admin made as ever."""
    settings.TRUSTED_PROXIES = [ipaddress.ip_network("10.0.0.2")]
    settings.REMOTE_USER_HEADER, settings.REMOTE_GROUPS_HEADER = "Remote-User", "Remote-Groups"
    start()
    assert Client(**HERE).post("/api/signup", {"name": "admin", "password": PASSWORD},
                               content_type="application/json").status_code == 200
    users.create_user("reader", passwords.make_hash(PASSWORD))
    return settings


def me(where, **headers):
    response = Client(**where).get("/api/me", headers=headers)
    return response.status_code, response.json()


def test_it_signs_in_the_user_the_trusted_proxy_names_with_a_session_of_its_own(proxied):
    browser = Client(**PROXY)
    first = browser.get("/api/me", headers={"Remote-User": "Reader"})
    assert first.status_code == 200 and first.json()["name"] == "reader"
    token = first.cookies["sid"].value
    again = browser.get("/api/me", headers={"Remote-User": "reader"})
    assert again.status_code == 200 and "sid" not in again.cookies  # the cookie's session is theirs: kept
    assert browser.get("/api/me").json()["name"] == "reader"  # and it is an ordinary session
    assert Client(**DIRECT, HTTP_COOKIE=f"sid={token}").get("/api/me").status_code == 200


@pytest.mark.parametrize("where", [DIRECT, HERE], ids=["from-afar", "from-this-machine"])
def test_it_ignores_the_header_from_anyone_but_the_trusted_proxy(proxied, where):
    assert me(where, **{"Remote-User": "admin"})[0] == 401
    assert Client(**where).get("/settings/admin/users/", headers={"Remote-User": "admin"}).status_code == 302


def test_it_ignores_the_header_when_it_is_not_set_up(proxied):
    proxied.REMOTE_USER_HEADER = ""
    assert me(PROXY, **{"Remote-User": "admin"})[0] == 401


def test_it_takes_over_from_another_users_session_in_the_same_browser(proxied):
    browser = Client(**PROXY)
    assert browser.post("/api/login", {"name": "admin", "password": PASSWORD},
                        content_type="application/json").status_code == 200
    answer = browser.get("/api/me", headers={"Remote-User": "reader"})
    assert answer.json()["name"] == "reader"
    assert browser.get("/api/me").json()["name"] == "reader"


def test_it_refuses_an_unknown_name_unless_signup_is_allowed(proxied):
    status, data = me(PROXY, **{"Remote-User": "newcomer"})
    assert status == 403 and "no account here" in data["error"]
    page = Client(**PROXY).get("/", headers={"Remote-User": "<b>x</b>"})
    assert page.status_code == 403 and b"<b>x</b>" not in page.content and b"&lt;b&gt;x&lt;/b&gt;" in page.content
    proxied.REMOTE_SIGNUP = True
    status, data = me(PROXY, **{"Remote-User": "newcomer"})
    assert (status, data["name"], data["admin"]) == (200, "newcomer", False)
    assert users.get_user("newcomer")["hash"].startswith("!")  # no password signs this account in
    assert Client(**HERE).post("/api/login", {"name": "newcomer", "password": ""},
                               content_type="application/json").status_code == 401


def test_it_refuses_a_name_that_cannot_be_one_here(proxied):
    proxied.REMOTE_SIGNUP = True
    status, data = me(PROXY, **{"Remote-User": "../etc"})
    assert status == 403 and "cannot be a name here" in data["error"]


def test_the_admin_group_decides_the_role_at_each_request(proxied):
    proxied.REMOTE_SIGNUP, proxied.REMOTE_ADMIN_GROUP = True, "mc-admins"
    assert me(PROXY, **{"Remote-User": "sam", "Remote-Groups": "family|mc-admins"})[1]["admin"] is True  # Authentik
    assert me(PROXY, **{"Remote-User": "sam", "Remote-Groups": "family,friends"})[1]["admin"] is False  # Authelia
    assert me(PROXY, **{"Remote-User": "sam", "Remote-Groups": "friends, mc-admins"})[1]["admin"] is True
    assert me(PROXY, **{"Remote-User": "sam"})[1]["admin"] is True  # no groups sent: left as it is
    assert me(DIRECT, **{"Remote-User": "sam", "Remote-Groups": "family"})[0] == 401
    assert users.get_user("sam")["admin"] is True


def test_it_never_makes_the_first_account(start, settings):
    settings.TRUSTED_PROXIES = [ipaddress.ip_network("10.0.0.2")]
    settings.REMOTE_USER_HEADER, settings.REMOTE_SIGNUP = "Remote-User", True
    start()
    assert me(PROXY, **{"Remote-User": "first"})[0] == 401
    assert users.user_count() == 0


def test_it_needs_trusted_proxies_and_a_header_name():
    with pytest.raises(ImproperlyConfigured, match="TRUSTED_PROXIES"):
        settings_from({"REMOTE_USER_HEADER": "Remote-User"})
    with pytest.raises(ImproperlyConfigured, match="expected a header name"):
        settings_from({"REMOTE_USER_HEADER": "Remote User", "TRUSTED_PROXIES": "10.0.0.2"})
    assert settings_from({"TRUSTED_PROXIES": "10.0.0.2"})["REMOTE_USER_HEADER"] == ""
