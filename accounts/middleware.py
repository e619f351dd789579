"""The sid cookie: a random token whose SHA-256 is kept in db.json (accounts/sessions.py)."""
from django.conf import settings
from django.urls import get_script_prefix, reverse

from . import sessions

COOKIE = "sid"
COOKIE_AGE = 365 * 86_400


class SessionMiddleware:
    """Sets request.account (the user record, or None) and request.sid (the token, when valid)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = request.COOKIES.get(COOKIE)
        request.account = sessions.session_user(token) if token else None
        request.sid = token if request.account else None
        return self.get_response(request)


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
