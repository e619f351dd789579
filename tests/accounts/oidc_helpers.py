"""Shared by the OpenID Connect tests: the app's settings for the provider on loopback
(tests/support/oidc_provider.py), and a sign-in that goes through the provider as a browser would."""
from urllib.parse import parse_qs, urlsplit

from tests.support.oidc_provider import CLIENT_ID, CLIENT_SECRET

ADMINS = "mc-admins"


def oidc_env(provider, **extra):
    return {"OIDC_ISSUER": provider.url, "OIDC_CLIENT_ID": CLIENT_ID, "OIDC_CLIENT_SECRET": CLIENT_SECRET,
            "OIDC_PROVIDER_NAME": "Test ID", "OIDC_ADMIN_GROUP": ADMINS, **extra}


def to_provider(client, next_page=None):
    """GET /login/oidc/ and answer the parameters of the provider's authorize URL it redirects to."""
    status, headers, _ = client.get("/login/oidc/" + (f"?next={next_page}" if next_page else ""))
    assert status == 302, status
    return {k: v[0] for k, v in parse_qs(urlsplit(headers["Location"]).query).items()}, headers["Location"]


def back_from_provider(client, redirect):
    parts = urlsplit(redirect)
    return client.get(f"{parts.path}?{parts.query}")


def sign_in(client, provider, name, next_page=None):
    """A whole sign-in of `name` at the provider: the callback's (status, headers, body)."""
    params, _ = to_provider(client, next_page)
    return back_from_provider(client, provider.authorize(params, name))
