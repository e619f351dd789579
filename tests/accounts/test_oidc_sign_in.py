"""Sign-in with OpenID Connect against a provider on loopback (docs/accounts.md, "OpenID Connect"):
the authorization code flow with PKCE, accounts made on a first sign-in, the role by group, and the
linking of an existing account by a verified e-mail address."""
from accounts import sessions, totp, users
from tests.accounts.oidc_helpers import back_from_provider, sign_in, to_provider
from tests.support.forms import post_form
from tests.support.oidc_provider import CLIENT_ID


def me(client):
    status, _, data = client.get("/api/me")
    return status, data


def test_it_sends_the_browser_to_the_provider_with_pkce_state_and_nonce(serve, provider):
    srv = serve()
    params, location = to_provider(srv.client())
    assert location.startswith(provider.url + "/authorize?")
    assert params["client_id"] == CLIENT_ID and params["response_type"] == "code"
    assert params["code_challenge_method"] == "S256" and len(params["code_challenge"]) == 43
    assert params["redirect_uri"] == srv.url + "/login/oidc/callback/"
    assert params["scope"] == "openid profile email groups"
    assert len(params["state"]) >= 40 and len(params["nonce"]) >= 40
    again, _ = to_provider(srv.client())
    assert again["state"] != params["state"] and again["nonce"] != params["nonce"]


def test_it_signs_in_and_makes_the_account_on_the_first_sign_in(serve, provider):
    srv = serve(OIDC_SIGNUP="1")
    browser = srv.client()
    status, headers, _ = sign_in(browser, provider, "sam", next_page="/history/")
    assert status == 302 and headers["Location"] == "/history/"
    status, data = me(browser)
    assert (status, data["name"]) == (200, "sam")
    account = users.get_user("sam")
    assert account["oidc"] == f"{provider.url} sub-sam" and account["admin"] is False
    assert account["hash"].startswith("!")  # no password signs this account in
    assert sessions.session_via(browser.cookies["sid"]) == "oidc"
    assert "mc-oidc" not in browser.cookies  # the state, nonce and verifier are spent


def test_a_name_changed_at_the_provider_keeps_the_account(serve, provider):
    srv = serve(OIDC_SIGNUP="1")
    assert sign_in(srv.client(), provider, "sam")[0] == 302
    provider.users["samuel"] = dict(provider.users.pop("sam"), name="samuel")
    browser = srv.client()
    assert sign_in(browser, provider, "samuel")[0] == 302
    assert me(browser)[1]["name"] == "sam" and not users.exists("samuel")


def test_the_admin_group_makes_an_admin_at_each_sign_in(serve, provider):
    srv = serve(OIDC_SIGNUP="1")
    browser = srv.client()
    assert sign_in(browser, provider, "boss")[0] == 302
    assert me(browser)[1]["admin"] is True
    assert browser.get("/settings/admin/users/")[0] == 200
    provider.users["boss"]["groups"] = ["family"]
    assert sign_in(srv.client(), provider, "boss")[0] == 302
    assert users.get_user("boss")["admin"] is False


def test_it_reads_the_groups_from_userinfo_when_the_id_token_has_none(serve, provider):
    provider.groups_in_userinfo = True  # Authelia's default
    srv = serve(OIDC_SIGNUP="1")
    assert sign_in(srv.client(), provider, "boss")[0] == 302
    assert users.get_user("boss")["admin"] is True


def test_it_refuses_a_new_name_while_oidc_signup_is_off(serve, provider):
    srv = serve()
    browser = srv.client()
    status, _, page = sign_in(browser, provider, "sam")
    assert status == 403 and b"Test ID signed you in as sam, who has no account here" in page
    assert "sid" not in browser.cookies and not users.exists("sam")


def test_it_never_takes_over_an_account_by_its_name_alone(serve, provider):
    srv = serve(OIDC_SIGNUP="1")
    admin = srv.client().login("admin")
    assert admin.post("/api/admin/user", {"name": "sam", "password": "a password of sam"})[0] == 200
    browser = srv.client()
    status, _, page = sign_in(browser, provider, "sam")
    assert status == 403 and b"not linked to your Test ID account" in page and b"e-mail address" in page
    assert me(browser)[0] == 401 and "oidc" not in users.get_user("sam")


def test_it_links_an_existing_account_by_its_verified_email(serve, provider):
    srv = serve()
    admin = srv.client().login("admin")
    assert admin.post("/api/admin/user", {"name": "samantha", "password": "a password of sam"})[0] == 200
    status, _, _ = post_form(admin, "/settings/admin/users/", {"action": "email", "email": "Sam@Example.org"},
                             action="/settings/admin/users/samantha/")
    assert status == 302 and users.get_user("samantha")["email"] == "Sam@Example.org"
    browser = srv.client()
    assert sign_in(browser, provider, "sam")[0] == 302
    assert me(browser)[1]["name"] == "samantha"
    assert users.get_user("samantha")["oidc"] == f"{provider.url} sub-sam"
    post_form(admin, "/settings/admin/users/", {"action": "unlink"}, action="/settings/admin/users/samantha/")
    assert "oidc" not in users.get_user("samantha")


def test_an_unverified_email_links_nothing(serve, provider):
    srv = serve()
    users.set_email("admin", "boss@example.org")
    provider.add_user("intruder", email="boss@example.org", email_verified=False)
    status, _, page = sign_in(srv.client(), provider, "intruder")
    assert status == 403 and "oidc" not in users.get_user("admin")


def test_an_admin_signed_in_by_the_provider_is_not_sent_to_set_up_a_second_factor(serve, provider):
    srv = serve(OIDC_SIGNUP="1")
    totp.require_for_admins(True)
    browser = srv.client()
    assert sign_in(browser, provider, "boss")[0] == 302
    assert browser.get("/")[0] == 200 and browser.get("/api/me")[0] == 200


def test_the_sign_in_page_shows_the_provider_beside_the_password_form(serve, provider):
    srv = serve()
    status, _, page = srv.client().get("/login/?next=/history/")
    assert status == 200
    assert b'href="/login/oidc/?next=/history/"' in page and b"Sign in with Test ID" in page
    assert b'name="password"' in page


def test_it_answers_404_when_oidc_is_not_set_up(server, admin):
    assert server.client().get("/login/oidc/")[0] == 404
    assert server.client().get("/login/oidc/callback/?code=x&state=y")[0] == 404
    page = server.client().get("/login/")[2]
    assert b"oidc-sign-in" not in page and b"Sign in with OpenID" not in page  # "Sign in with a passkey" stays


def test_back_from_the_provider_twice_is_refused(serve, provider):
    srv = serve(OIDC_SIGNUP="1")
    browser = srv.client()
    params, _ = to_provider(browser)
    redirect = provider.authorize(params, "sam")
    assert back_from_provider(browser, redirect)[0] == 302
    status, _, page = back_from_provider(browser, redirect)
    assert status == 400 and b"not started in this browser" in page


def test_the_access_log_leaves_out_the_code_and_state_of_the_callback():
    from datetime import timedelta
    from types import SimpleNamespace

    from gunicorn.config import Config

    from mangacircus.accesslog import AccessLogger

    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": "/login/oidc/callback/", "QUERY_STRING": "code=c0de&state=s",
               "RAW_URI": "/manga/login/oidc/callback/?code=c0de&state=s", "SERVER_PROTOCOL": "HTTP/1.1"}
    answer = SimpleNamespace(status="302 Found", sent=0, headers=[])
    atoms = AccessLogger(Config()).atoms(answer, SimpleNamespace(headers=[]), environ, timedelta(0))
    assert "c0de" not in str(atoms) and atoms["r"] == "GET /manga/login/oidc/callback/?(left out) HTTP/1.1"
