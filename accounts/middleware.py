"""The sid cookie: a random token whose SHA-256 is kept in db.json (accounts/sessions.py); the
trusted proxy's sign-in header (accounts/proxyauth.py); the admins' second-factor rule, which a
proxy's or an OpenID provider's sign-in stands for."""
from django.conf import settings
from django.http import HttpResponseRedirect
from django.urls import get_script_prefix, reverse

from mangacircus.errors import DomainError
from mangacircus.http import error_response
from mangacircus.pages import error_page

from . import proxyauth, rules, sessions, totp

COOKIE = "sid"
COOKIE_AGE = 365 * 86_400
# The reading apps' routes take their own credentials (clients/komga/auth.py), never the web's.
APP_PATHS = ("/komga/", "/opds/")
# What an admin who must set up a second factor may still reach.
ENROL_URLS = ("mc-settings-profile", "mc-settings-two-factor", "mc-settings-passkeys", "mc-logout", "mc-login",
              "mc-passkey-register-begin", "mc-passkey-register-finish")


class SessionMiddleware:
    """Sets request.account (the user record, or None) and request.sid (the token, when valid).

    A request from a trusted proxy naming a user signs that user in: a new session, its cookie set on
    the answer, unless the cookie's session is theirs already. While admins must have a second factor,
    an admin signed in with a password but without one gets the profile page, where it is set up."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = request.COOKIES.get(COOKIE)
        request.account = sessions.session_user(token) if token else None
        request.sid = token if request.account else None
        request.by_proxy = False
        new_token = None
        if settings.REMOTE_USER_HEADER and not request.path_info.startswith(APP_PATHS):
            try:
                new_token = self._proxy_sign_in(request)
            except DomainError as e:
                request.account = request.sid = None
                return _refusal(request, e.status, e.message, e.headers)
        if _must_enrol(request):
            return self._enrol(request)
        response = self.get_response(request)
        if new_token:
            set_session_cookie(response, new_token)
        return response

    def _proxy_sign_in(self, request):
        user = proxyauth.proxy_user(request)
        if user is None:
            return None
        request.by_proxy = True
        new_token = None
        if request.account is None or request.account["name"] != user["name"]:
            if request.sid:  # someone else's session in this browser: the proxy says who it is now
                sessions.end_session(request.sid)
            new_token = request.sid = sessions.create_session(user["name"])
        request.account = user
        return new_token

    def _enrol(self, request):
        message = "admins must set up two-factor sign-in or a passkey first: Settings → Profile & password"
        if request.path_info.startswith("/api/"):
            return error_response(403, message)
        return HttpResponseRedirect(reverse("mc-settings-profile"))


def _must_enrol(request):
    account = request.account
    if not account or not account.get("admin") or request.by_proxy or not totp.required_for_admins():
        return False
    if request.path in {reverse(name) for name in ENROL_URLS} or request.path_info == "/api/logout":
        return False
    # An OpenID provider's sign-in stands for the second factor, as the proxy's does (docs/accounts.md).
    return not rules.has_second_factor(account["name"]) and sessions.session_via(request.sid) != "oidc"


def _refusal(request, status, message, headers=None):
    if request.path_info.startswith("/api/"):
        return error_response(status, message, headers)
    return error_page(request, status, message, headers)


def set_session_cookie(response, token):
    response.set_cookie(COOKIE, token, max_age=COOKIE_AGE, httponly=True, samesite="Lax",
                        secure=settings.COOKIE_SECURE, path=get_script_prefix())


def clear_session_cookie(response):
    response.delete_cookie(COOKIE, path=get_script_prefix(), samesite="Lax")


def safe_next(target):
    """Only same-site paths: '/x' but never '//host', '/\\host' or 'http://...'."""
    if not target or not target.startswith("/") or target.startswith(("//", "/\\")) or "\n" in target:
        return reverse("mc-home")
    return target
