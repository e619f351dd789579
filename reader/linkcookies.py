"""The link cookies (library/links.py) on every answer the reader makes for a signed-in browser,
when IMAGE_LINKS=signed: set for a user without restrictions when missing or when the expiry grid
has moved on, removed for a restricted user, at sign-out, and when the session changes."""
import time

from django.conf import settings
from django.urls import get_script_prefix

from accounts.middleware import COOKIE as SID_COOKIE
from library import guard, links

EXPIRES, SIGNATURE = "mclink_e", "mclink_s"


class LinkCookieMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if links.enabled():
            keep(request, response)
        return response


def keep(request, response):
    held = request.COOKIES.get(EXPIRES)
    # A pair is for one sid: none without a session, or when it was made or ended just now.
    session = request.sid if SID_COOKIE not in response.cookies else None
    if session is None or not guard.sees_everything(request.account):
        if held is not None:
            _clear(response)
        return
    until = links.expires()
    if held == str(until):
        return
    age = max(1, until - int(time.time()))
    for name, value in ((EXPIRES, str(until)), (SIGNATURE, links.thumb_signature(session, until))):
        response.set_cookie(name, value, max_age=age, httponly=True, samesite="Lax",
                            secure=settings.COOKIE_SECURE, path=get_script_prefix())


def _clear(response):
    for name in (EXPIRES, SIGNATURE):
        response.delete_cookie(name, path=get_script_prefix(), samesite="Lax")
