"""Signing out of a session an OpenID provider signed in: this app's session ends, and the browser
goes on to the provider's end-session page with the ID token as the hint and the way back."""
import html
import re
from urllib.parse import parse_qs, urlsplit

from tests.accounts.oidc_helpers import sign_in
from tests.support.forms import post_form
from tests.support.oidc_provider import CLIENT_ID

REFRESH = re.compile(r'<meta http-equiv="refresh" content="0; url=([^"]+)">')


def test_it_ends_the_session_and_sends_the_browser_to_the_providers_sign_out(serve, provider):
    srv = serve(OIDC_SIGNUP="1")
    browser = srv.client()
    assert sign_in(browser, provider, "sam")[0] == 302
    id_token = browser.cookies["mc-oidc-hint"]
    status, headers, page = post_form(browser, "/", {}, action="/logout/")
    assert status == 200 and browser.get("/api/me")[0] == 401
    target = html.unescape(REFRESH.search(page.decode()).group(1))
    assert target.startswith(provider.url + "/end-session?")
    params = {k: v[0] for k, v in parse_qs(urlsplit(target).query).items()}
    assert params == {"client_id": CLIENT_ID, "id_token_hint": id_token,
                      "post_logout_redirect_uri": srv.url + "/login/"}
    assert "mc-oidc-hint" not in browser.cookies and "sid" not in browser.cookies
    assert b"Sign out at Test ID" in page


def test_a_password_session_signs_out_here_only(serve, provider):
    srv = serve()
    browser = srv.client().login("admin")
    status, headers, _ = post_form(browser, "/", {}, action="/logout/")
    assert (status, headers["Location"]) == (302, "/login/")
