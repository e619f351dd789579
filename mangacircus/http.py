"""JSON API plumbing: HttpError, the @api decorator and the body parser."""
from functools import wraps

import orjson
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse, HttpResponseBase, JsonResponse
from django.views.decorators.csrf import csrf_exempt

MAX_BODY = 1024 * 1024
_DJANGO_ENCODER = DjangoJSONEncoder()


class HttpError(Exception):
    def __init__(self, status, message, headers=None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


def error_response(status, message, headers=None):
    return JsonResponse({"error": message}, status=status, headers=headers)


def _fallback(value):
    return _DJANGO_ENCODER.default(value)  # Decimal, lazy strings …: as JsonResponse would write them


def json_response(data, status=200):
    """A JSON response serialised with orjson: ~15× faster than JsonResponse's json module, which
    was ~15 % of GET /api/chapter's time for a 200-chapter manga (docs/performance.md)."""
    body = orjson.dumps(data, default=_fallback, option=orjson.OPT_NON_STR_KEYS)
    return HttpResponse(body, status=status, content_type="application/json")


def parse_json_body(request):
    """The request body as a JSON object, or HttpError 400/413."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        raise HttpError(400, "invalid Content-Length") from None
    if length > MAX_BODY:
        raise HttpError(413, "request body is larger than 1 MB")
    raw = request.body
    if not raw:
        raise HttpError(400, "request body must be a JSON object")
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise HttpError(400, "request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise HttpError(400, "request body must be a JSON object")
    return data


def api(auth="user", methods=("GET",)):
    """Wrap a JSON API view.

    auth is "public", "user" or "admin". The view gets the request, with `request.data` holding
    the parsed JSON body of a POST, and returns a dict (sent as JSON) or a response.
    CSRF for /api/ is enforced by ApiGuardMiddleware (JSON only, same-origin).
    """
    assert auth in ("public", "user", "admin")

    def decorate(view):
        @csrf_exempt
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method not in methods:
                return error_response(405, f"method {request.method} not allowed", {"Allow": ", ".join(methods)})
            account = getattr(request, "account", None)
            if auth != "public" and account is None:
                return error_response(401, "sign in first")
            if auth == "admin" and not account.get("admin"):
                return error_response(403, "admins only")
            try:
                request.data = parse_json_body(request) if request.method == "POST" else {}
                result = view(request, *args, **kwargs)
            except HttpError as e:
                return error_response(e.status, e.message, e.headers)
            if isinstance(result, HttpResponseBase):
                return result
            return json_response(result)

        wrapper.api_auth = auth
        return wrapper

    return decorate


# Field helpers: each names the field in its 400.

def field(data, name, kind, *, required=True, default=None):
    if name not in data:
        if required:
            raise HttpError(400, f"{name} is required")
        return default
    value = data[name]
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        raise HttpError(400, f"{name} must be {_KIND_NAMES.get(kind, kind.__name__)}")
    return value


def text_field(data, name, *, required=True, default=None, max_length=1000):
    value = field(data, name, str, required=required, default=default)
    if value is not None and len(value) > max_length:
        raise HttpError(400, f"{name} is longer than {max_length} characters")
    return value


_KIND_NAMES = {str: "a string", int: "a whole number", bool: "true or false", dict: "an object", list: "a list"}
