"""Security headers on every response, and the /api/ guard (CSRF, body size, failing storage).

X-Content-Type-Options and X-Frame-Options come from Django's SecurityMiddleware and
XFrameOptionsMiddleware (settings.py); the CSP, Referrer-Policy and Cross-Origin-Opener-Policy from here.
A view may send its own CSP (/lib/ images send a sandbox).
"""
from urllib.parse import urlsplit

from django.http.request import split_domain_port
from django.utils.translation import gettext_lazy

from . import clientip, jsonfile
from .http import MAX_BODY, error_response
from .pages import error_page

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)


class SecurityHeadersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
        return response


class AllowedHostMiddleware:
    """Check the Host of every request against ALLOWED_HOSTS. Django checks it only where something
    asks for the host (CSRF, the Origin check); without this, other routes answer any Host."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.get_host()  # raises DisallowedHost, which Django answers with 400
        return self.get_response(request)


MAX_URL = 8192  # bytes of path and query string; gunicorn's own line limit is off (`serve`)


class LongUrlMiddleware:
    """414 for an address longer than MAX_URL, with the styled page (or JSON under /api/) rather
    than gunicorn's bare "Request Line is too large", which a 4 KB search used to get. The worker
    still caps the whole head at 64 KB (mangacircus/gworker.py)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        raw = request.META.get("RAW_URI") or request.get_full_path()
        if len(raw.encode("utf-8", "surrogateescape")) > MAX_URL:
            message = f"this address is longer than {MAX_URL // 1024} KB; use a shorter search or filter"
            if request.path_info.startswith("/api/"):
                return error_response(414, message)
            return error_page(request, 414, message)
        return self.get_response(request)


class ApiGuardMiddleware:
    """POSTs to /api/ must be same-origin JSON. Plain cross-site forms cannot send JSON, and
    browsers label cross-site requests with Sec-Fetch-Site or Origin."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path_info.startswith("/api/") and request.method not in ("GET", "HEAD", "OPTIONS"):
            refusal = self.refusal(request)
            if refusal:
                return refusal
        return self.get_response(request)

    def refusal(self, request):
        refused = cross_site_refusal(request)
        if refused:
            return error_response(*refused)
        try:
            if int(request.META.get("CONTENT_LENGTH") or 0) > MAX_BODY:
                return error_response(413, "request body is larger than 1 MB")
        except ValueError:
            return error_response(400, "invalid Content-Length")
        if jsonfile.any_failing():
            return error_response(503, "saving data is failing on the server; try again shortly", {"Retry-After": "5"})
        return None


def cross_site_refusal(request, body_optional=False):
    """(status, message) when a state-changing request may come from a page of another site, else
    None: any content type but JSON (a form or a no-cors fetch cannot send application/json; with
    `body_optional`, as the apps' routes allow, no body and no type too), a cross-site fetch, a
    foreign Origin. /api/ (ApiGuardMiddleware) and the apps' writes (clients/komga/auth.py) share it."""
    content_type = media_type(request)
    if content_type != "application/json" and not (body_optional and not content_type):
        return 415, "send JSON (Content-Type: application/json)" + (", or no body" if body_optional else "")
    if request.META.get("HTTP_SEC_FETCH_SITE", "").lower() == "cross-site":
        return 403, "cross-site requests are refused"
    origin = request.META.get("HTTP_ORIGIN")
    if origin and not same_origin(origin, request):
        return 403, "cross-origin requests are refused"
    return None


DEFAULT_PORTS = {"http": 80, "https": 443}


def same_origin(origin, request):
    """Whether an Origin header names this server: exactly a serialised origin (scheme, host and an
    optional port; no user info, path, query or fragment, as browsers send it) with the same scheme,
    host and port (an https page is not the http server of the same host and port). "null" and
    anything else are not."""
    try:
        parts = urlsplit(origin)
        port = parts.port
    except ValueError:
        return False
    scheme = parts.scheme.lower()
    if (scheme not in DEFAULT_PORTS or not parts.hostname or "@" in parts.netloc or parts.path
            or parts.query or parts.fragment or "?" in origin or "#" in origin or origin != origin.strip()):
        return False
    mine = clientip.scheme(request)
    host, my_port = split_domain_port(request.get_host())
    return (scheme, parts.hostname.lower().strip("[]").rstrip("."), port or DEFAULT_PORTS[scheme]) == (
        mine, host.strip("[]"), int(my_port) if my_port else DEFAULT_PORTS[mine])


def media_type(request):
    """The Content-Type's essence, lowercased ("" without one): `application/json` of
    `application/json; charset=utf-8`. A list of types is no type of its own."""
    return request.META.get("CONTENT_TYPE", "").split(";")[0].strip().lower()


class ErrorPageMiddleware:
    """Every error status of an HTML route gets the styled error page (error.html, with a way back)
    instead of an empty body the browser would show as its own page: Django's bare 405 for a GET on
    a POST-only page, for one. Answers that carry a body, and all of /api/, are left as they are."""

    MESSAGES = {405: gettext_lazy("this page only takes a form's POST; open the page the form is on instead")}

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (response.status_code < 400 or request.path_info.startswith("/api/") or response.streaming
                or response.content or request.method == "HEAD"):
            return response
        message = str(self.MESSAGES.get(response.status_code, response.reason_phrase.lower()))
        styled = error_page(request, response.status_code, message)
        for name in ("Allow", "Retry-After"):
            if name in response:
                styled[name] = response[name]
        return styled
