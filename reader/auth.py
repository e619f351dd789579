"""Our own sessions (docs/accounts.md, "Sessions"): a random `sid` cookie whose SHA-256 is kept in db.json."""
from functools import wraps
from urllib.parse import quote

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect

from . import store

COOKIE = "sid"
COOKIE_AGE = 365 * 86_400


class SessionMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = request.COOKIES.get(COOKIE)
        request.account = store.session_user(token) if token and store.db else None
        request.sid = token if request.account else None
        return self.get_response(request)


def set_session_cookie(response, request, token):
    response.set_cookie(
        COOKIE, token, max_age=COOKIE_AGE, httponly=True, samesite="Lax",
        secure=settings.COOKIE_SECURE, path=request.META.get("SCRIPT_NAME", "") + "/",
    )


def clear_session_cookie(response, request):
    response.delete_cookie(COOKIE, path=request.META.get("SCRIPT_NAME", "") + "/", samesite="Lax")


def safe_next(request, target):
    """Only same-site paths: '/x' but never '//host', '/\\host' or 'http://...'."""
    if not target or not target.startswith("/") or target.startswith(("//", "/\\")) or "\n" in target:
        return request.META.get("SCRIPT_NAME", "") + "/"
    return target


def page(auth="user"):
    """Wrap a server-rendered page: visitors go to the login page, admin pages are 403 for others."""

    def decorate(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.account is None:
                login = request.META.get("SCRIPT_NAME", "") + "/login/"
                return HttpResponseRedirect(f"{login}?next={quote(request.get_full_path())}")
            if auth == "admin" and not request.account.get("admin"):
                raise PermissionDenied("admins only")
            return view(request, *args, **kwargs)

        wrapper.page_auth = auth
        return wrapper

    return decorate


def user_context(request):
    """Every page: the account, the app root (links are root + an app-relative URL) and the bell's count."""
    account = getattr(request, "account", None)
    return {
        "account": account, "signup_open": settings.SIGNUP == "open",
        "root": request.META.get("SCRIPT_NAME", "") + "/",
        "unread_notes": store.unread_count(account["name"]) if account else 0,
    }
