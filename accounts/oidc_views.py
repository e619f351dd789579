"""Sign-in with OpenID Connect: <root>/login/oidc/ sends the browser to the provider, and the provider
sends it back to <root>/login/oidc/callback/ with a code (docs/accounts.md, "OpenID Connect").

The state, the nonce, the PKCE verifier and the page to go back to travel in a cookie signed with
the server's secret key (django.core.signing), good for ten minutes and sent only to the callback:
so the answer is taken only in the browser that started the sign-in, and nothing is kept on the
server until the session, this app's own (accounts/sessions.py).
"""
import hmac
import secrets

from django.conf import settings
from django.core import signing
from django.http import Http404, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from mangacircus.errors import DomainError, Invalid
from mangacircus.pages import error_page

from . import oidc, oidc_accounts, sessions
from .middleware import COOKIE_AGE, safe_next, set_session_cookie

FLOW_COOKIE = "mc-oidc"
FLOW_SALT = "mangacircus.accounts.oidc-flow"
FLOW_SECONDS = 600
# The ID token, kept for the provider's sign-out (id_token_hint); sent to the sign-out form only.
HINT_COOKIE = "mc-oidc-hint"
MAX_HINT = 3800  # browsers keep cookies up to 4 KB; a larger token signs out without the hint


def _redirect_uri(request):
    return request.build_absolute_uri(reverse("mc-login-oidc-callback"))


def _flow_cookie(response, value):
    response.set_cookie(FLOW_COOKIE, value, max_age=FLOW_SECONDS, httponly=True, samesite="Lax",
                        secure=settings.COOKIE_SECURE, path=reverse("mc-login-oidc-callback"))


def _refusal(request, error):
    response = error_page(request, error.status, error.message, error.headers)
    response.delete_cookie(FLOW_COOKIE, path=reverse("mc-login-oidc-callback"), samesite="Lax")
    return response


@require_GET
def start(request):
    """Off to the provider's sign-in page, with a new state, nonce and PKCE verifier for this browser."""
    if not oidc.enabled():
        raise Http404("OpenID Connect is not set up")
    flow = {"s": secrets.token_urlsafe(32), "n": secrets.token_urlsafe(32), "v": secrets.token_urlsafe(48),
            "x": safe_next(request.GET.get("next"))}
    try:
        url = oidc.authorization_url(_redirect_uri(request), flow["s"], flow["n"], flow["v"])
    except DomainError as e:
        return _refusal(request, e)
    response = HttpResponseRedirect(url)
    _flow_cookie(response, signing.dumps(flow, salt=FLOW_SALT))
    return response


@require_GET
def callback(request):
    if not oidc.enabled():
        raise Http404("OpenID Connect is not set up")
    try:
        flow = _flow(request)
        claims, id_token = _signed_in_claims(request, flow)
        user = oidc_accounts.account_for(claims)
        token = sessions.create_session(user["name"], via="oidc")
    except DomainError as e:
        return _refusal(request, e)
    if request.sid:  # someone's session in this browser before: this sign-in replaces it
        sessions.end_session(request.sid)
    response = HttpResponseRedirect(safe_next(flow.get("x")))
    set_session_cookie(response, token)
    response.delete_cookie(FLOW_COOKIE, path=reverse("mc-login-oidc-callback"), samesite="Lax")
    if len(id_token) <= MAX_HINT:
        response.set_cookie(HINT_COOKIE, id_token, max_age=COOKIE_AGE, httponly=True, samesite="Lax",
                            secure=settings.COOKIE_SECURE, path=reverse("mc-logout"))
    return response


def _flow(request):
    """The state, nonce and verifier this browser's sign-in started with, checked against the answer."""
    error = request.GET.get("error")
    if error:
        described = request.GET.get("error_description", "")[:300]
        said = {"provider": settings.OIDC_PROVIDER_NAME, "error": error[:100], "described": described}
        raise oidc.Refused(_("%(provider)s did not sign you in: %(error)s (%(described)s)") % said if described
                           else _("%(provider)s did not sign you in: %(error)s") % said)
    try:
        flow = signing.loads(request.COOKIES.get(FLOW_COOKIE, ""), salt=FLOW_SALT, max_age=FLOW_SECONDS)
    except signing.BadSignature:  # SignatureExpired too
        raise Invalid(_("this sign-in was not started in this browser, or took more than 10 minutes; start again "
                        "from the sign-in page")) from None
    if not hmac.compare_digest(str(flow.get("s")), request.GET.get("state", "")):
        raise Invalid(_("the provider's answer is not for the sign-in this browser started (its state differs); "
                        "start again from the sign-in page"))
    if not request.GET.get("code"):
        raise Invalid(_("the provider's answer has no code; start again from the sign-in page"))
    return flow


def _signed_in_claims(request, flow):
    """The ID token's checked claims, with what the userinfo endpoint adds, and the ID token."""
    tokens = oidc.exchange(request.GET["code"][:2000], _redirect_uri(request), flow["v"])
    access_token = tokens.get("access_token") if isinstance(tokens.get("access_token"), str) else None
    claims = oidc.id_token_claims(tokens["id_token"], flow["n"], access_token)
    extra = oidc.userinfo(access_token, claims["sub"])
    return {**extra, **claims}, tokens["id_token"]


def sign_out_target(request, via):
    """Where the sign-out goes after this app's session ends: the provider's end-session page for a
    session it signed in (with the ID token as the hint), back to the sign-in page after; else None."""
    if via != "oidc" or not oidc.enabled():
        return None
    back = request.build_absolute_uri(reverse("mc-login"))
    return oidc.end_session_url(request.COOKIES.get(HINT_COOKIE), back)


def forget_hint(response):
    response.delete_cookie(HINT_COOKIE, path=reverse("mc-logout"), samesite="Lax")
    return response


def provider_context():
    """What the sign-in page shows of OpenID Connect and of the password form."""
    return {"oidc_name": settings.OIDC_PROVIDER_NAME if oidc.enabled() else None,
            "password_login": settings.PASSWORD_LOGIN}
