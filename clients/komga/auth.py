"""Authentication and answers for the apps' routes (/komga/ and /opds/), apart from /api/'s rules.

Credentials, the first valid one winning: a session token (cookie MC-KOMGA-SESSION or
komga-remember-me, every value of each when a jar sends several, or the X-Auth-Token header),
then X-API-Key, then HTTP Basic (accounts/basic.py: the sign-in limit, checks remembered). A
request with valid credentials but no valid token gets a session token (an app session of
accounts/sessions.py: it opens these routes only, never the web's, and a password change ends it),
as cookies scoped to the mount point and, when asked for, the X-Auth-Token header: the Mihon
tracker and Komelia send nothing else. A web session (the sid cookie) is not accepted here.

No credentials → 401 with WWW-Authenticate (never 403: Mihon sends Basic only after a 401). No
redirects. Writes answer 204. State changes refuse a foreign Origin or a cross-site fetch, bodies
over 1 MB, and get 503 while DATA cannot be written. No CSRF token: the apps have none, and the
Origin check plus SameSite cookies keep pages of other sites out.
"""
import threading
from functools import wraps
from http.cookies import _unquote

import orjson
from django.conf import settings
from django.http import HttpResponse, HttpResponseBase
from django.views.decorators.csrf import csrf_exempt

from accounts import apikeys, basic, sessions
from mangacircus import clientip, jsonfile
from mangacircus.errors import DomainError, Invalid, WrongCredentials
from mangacircus.http import body_length, json_object, json_response
from mangacircus.middleware import cross_site_refusal

SESSION_COOKIE = "MC-KOMGA-SESSION"
REMEMBER_COOKIE = "komga-remember-me"
COOKIE_AGE = 365 * 86_400
REALM = 'Basic realm="MangaCircus"'
WRITES = ("POST", "PUT", "PATCH", "DELETE")

_tokens = {}  # credential key (Basic HMAC or API key digest) → the session token handed out for it
_tokens_lock = threading.Lock()


def mount_path():
    """The cookies' Path: exactly the base the user types into the app (/komga, or /sub/komga)."""
    return f"{settings.SCRIPT_NAME}/komga"


def cookie_values(request, names):
    """Every value of the named cookies in the raw Cookie header (a jar may send one name twice)."""
    found = []
    for part in request.META.get("HTTP_COOKIE", "").split(";"):
        name, eq, value = part.strip().partition("=")
        if eq and name in names and value:
            found.append(_unquote(value.strip()))
    return found


def _session(request):
    candidates = cookie_values(request, (SESSION_COOKIE, REMEMBER_COOKIE))
    header = request.META.get("HTTP_X_AUTH_TOKEN", "").strip()
    if header:
        candidates.append(header)
    for token in candidates[:8]:
        user = sessions.session_user(token, sessions.APP)
        if user is not None:
            return user, token
    return None, None


def _issued(key, name, api_key=None, fresh=False):
    """The token handed out earlier for these credentials while it is still valid, else a new one:
    an app sending Basic with every request does not make a session each time. A sign-in (`fresh`:
    Komelia's and KMReader's GET /api/v2/users/me) always gets a session of its own, so that signing
    out on one device does not sign out another that uses the same password."""
    with _tokens_lock:
        token = None if fresh else _tokens.get(key)
    if token:
        user = sessions.session_user(token, sessions.APP)
        if user is not None and user["name"] == name:
            return token
    token = sessions.create_session(name, key=api_key, scope=sessions.APP)
    with _tokens_lock:
        if len(_tokens) > 10_000:
            _tokens.clear()
        _tokens[key] = token
    return token


def authenticate(request, fresh=False):
    """(user record, session token, whether the token is new) or (None, None, False).
    WrongCredentials, RateLimited or Unavailable for Basic credentials that fail."""
    user, token = _session(request)
    if user is not None:
        return user, token, False
    key = request.META.get("HTTP_X_API_KEY", "").strip()
    if key:
        user = apikeys.key_user(key, device=request.META.get("HTTP_USER_AGENT", ""))
        if user is None:
            raise WrongCredentials("unknown or revoked API key")
        kid = apikeys.key_id(apikeys.digest(key))
        return user, _issued("k" + apikeys.digest(key), user["name"], api_key=kid, fresh=fresh), True
    pair = basic.parse(request.META.get("HTTP_AUTHORIZATION", ""))
    if pair is None:
        return None, None, False
    user = basic.authenticate(*pair, clientip.client_ip(request))
    return user, _issued("b" + basic.cache_key(*pair), user["name"], fresh=fresh), True


def forget_token(token):
    with _tokens_lock:
        for key in [k for k, t in _tokens.items() if t == token]:
            del _tokens[key]


def error(status, message, headers=None):
    response = HttpResponse(orjson.dumps({"error": message}), status=status, content_type="application/json")
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def unauthorized(request, message="sign in: HTTP Basic, an API key or the session cookie"):
    headers = {} if request.META.get("HTTP_X_REQUESTED_WITH") == "XMLHttpRequest" else {"WWW-Authenticate": REALM}
    return error(401, message, headers)


def _write_refusal(request):
    """What a page of another site could send is refused, by the rules of /api/ but that the apps
    may send no body at all (mangacircus.middleware.cross_site_refusal)."""
    refused = cross_site_refusal(request, body_optional=True)
    if refused:
        return error(*refused)
    if jsonfile.any_failing():
        return error(503, "saving data is failing on the server; try again shortly", {"Retry-After": "5"})
    return None


def set_cookies(request, response, token):
    path = mount_path()
    response.set_cookie(SESSION_COOKIE, token, max_age=COOKIE_AGE, path=path, httponly=True, samesite="Lax",
                        secure=settings.COOKIE_SECURE)
    if request.GET.get("remember-me", "").lower() == "true":
        response.set_cookie(REMEMBER_COOKIE, token, max_age=COOKIE_AGE, path=path, httponly=True, samesite="Lax",
                            secure=settings.COOKIE_SECURE)


def clear_cookies(response):
    for name in (SESSION_COOKIE, REMEMBER_COOKIE):
        response.delete_cookie(name, path=mount_path(), samesite="Lax")


def app_view(methods=("GET",), public=False, cookies=True, sign_in=False):
    """Wrap a view of the apps' API. The view gets the request with `request.account` (the user
    record) and `request.data` (a JSON body, {} without one) and returns data (sent as JSON), None
    (204) or a response. `cookies=False` (OPDS) hands out no session cookies; `sign_in` marks the
    route apps sign in with (a new session for each sign-in)."""

    def decorate(view):
        @csrf_exempt
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if not settings.APPS_API:
                return error(404, "the apps' API is turned off on this server (APPS_API=0)")
            allowed = methods + (("HEAD",) if "GET" in methods else ())
            if request.method not in allowed:
                return error(405, f"method {request.method} not allowed", {"Allow": ", ".join(allowed)})
            token, new = None, False
            request.account = None
            try:
                if not public:
                    user, token, new = authenticate(request, fresh=sign_in)
                    if user is None:
                        return unauthorized(request)
                    request.account = user
                if request.method in WRITES:
                    refusal = _write_refusal(request)
                    if refusal:
                        return refusal
                length = body_length(request.META.get("CONTENT_LENGTH"))
                request.data = json_object(request.body) if length and request.method in WRITES else {}
                request.app_token = token
                result = view(request, *args, **kwargs)
            except WrongCredentials as e:
                return unauthorized(request, e.message)
            except DomainError as e:
                return error(e.status, e.message, e.headers)
            token = request.app_token  # None when the view ended the session (logout)
            if result is None:
                response = HttpResponse(status=204)
            elif isinstance(result, HttpResponseBase):
                response = result
            else:
                response = json_response(result)
            if token and cookies and (new or "remember-me" in request.GET):
                set_cookies(request, response, token)
            if token and "HTTP_X_AUTH_TOKEN" in request.META:
                response["X-Auth-Token"] = token
            return response

        wrapper.app_auth = "public" if public else "user"
        return wrapper

    return decorate


def query_bool(request, name):
    """true/false (and Spring's 1/0, yes/no, on/off), or None when absent; Invalid otherwise."""
    raw = request.GET.get(name)
    if raw is None or raw == "":
        return None
    value = raw.strip().lower()
    if value in ("true", "1", "yes", "on"):
        return True
    if value in ("false", "0", "no", "off"):
        return False
    raise Invalid(f"{name} must be true or false")
