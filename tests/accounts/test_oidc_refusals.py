"""What an OpenID sign-in refuses (docs/accounts.md, "OpenID Connect"): an ID token that is tampered
with, expired, for another client or another sign-in; an answer for a state this browser did not
start; a provider that says no; keys on a host the outbound guard does not let the server reach."""
import html

import pytest

from accounts import users
from tests.accounts.oidc_helpers import back_from_provider, sign_in, to_provider


def refused(srv, provider, name="sam"):
    browser = srv.client()
    status, _, page = sign_in(browser, provider, name)
    assert "sid" not in browser.cookies and browser.get("/api/me")[0] == 401
    return status, html.unescape(page.decode())


@pytest.mark.parametrize("spoil, words", [
    ("signature", "not signed by the provider's key"),
    ("expired", "ID token has expired"),
    ("nonce", "not for this sign-in (Invalid claim: 'nonce')"),
    ("audience", "not for this sign-in (Invalid claim: 'aud')"),
])
def test_it_refuses_an_id_token_that_fails_a_check(serve, provider, spoil, words):
    srv = serve(OIDC_SIGNUP="1")
    provider.spoil = spoil
    status, page = refused(srv, provider)
    assert status == 403 and words in page
    assert not users.exists("sam") and "oidc" not in users.get_user("admin")


def test_a_forged_token_never_signs_in_the_name_it_claims(serve, provider):
    srv = serve(OIDC_SIGNUP="1")
    provider.spoil = "signature"  # its claims say preferred_username "admin", sub "sub-admin"
    status, _ = refused(srv, provider)
    assert status == 403 and users.by_oidc_subject(f"{provider.url} sub-admin") is None


def test_it_refuses_an_answer_whose_state_differs(serve, provider):
    srv = serve(OIDC_SIGNUP="1")
    browser = srv.client()
    params, _ = to_provider(browser)
    status, _, page = back_from_provider(browser, provider.authorize({**params, "state": "x" * 43}, "sam"))
    assert status == 400 and b"its state differs" in page and browser.get("/api/me")[0] == 401


def test_it_refuses_an_answer_in_a_browser_that_did_not_start_the_sign_in(serve, provider):
    srv = serve(OIDC_SIGNUP="1")
    params, _ = to_provider(srv.client())
    status, _, page = back_from_provider(srv.client(), provider.authorize(params, "sam"))
    assert status == 400 and b"not started in this browser" in page


def test_it_says_what_the_provider_refused_escaped(serve, provider):
    srv = serve()
    browser = srv.client()
    to_provider(browser)
    status, _, page = browser.get("/login/oidc/callback/?error=access_denied&error_description=%3Cb%3Eno%3C/b%3E")
    assert status == 403 and b"Test ID did not sign you in: access_denied" in page
    assert b"<b>no</b>" not in page and b"&lt;b&gt;no&lt;/b&gt;" in page


def test_it_reaches_only_the_issuers_own_host_on_a_private_address(serve, provider):
    """The issuer's host may be loopback; a key set the discovery document puts on another one may not."""
    discovery = provider.discovery
    provider.discovery = lambda: {**discovery(), "jwks_uri": provider.url.replace("127.0.0.1", "localhost") + "/jwks"}
    srv = serve(OIDC_SIGNUP="1")
    status, page = refused(srv, provider)
    assert status == 502 and "a loopback or private address, and is not the host of OIDC_ISSUER" in page


def test_it_says_so_when_the_provider_cannot_be_reached(serve, provider):
    srv = serve()
    provider.stop()
    status, _, page = srv.client().get("/login/oidc/")
    assert status == 502 and b"cannot be reached" in page
