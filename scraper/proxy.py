"""The reader's admin-only proxy to the daemon's private API: /api/admin/scraper/<path>.

The browser talks only to the reader; the reader adds the token, so it never leaves the server.
When the daemon cannot be reached the answer is 503 {"error": "scraper offline"}.
"""
import re

from django.http import JsonResponse

from mangacircus.http import HttpError, api

from . import client

_PATH = re.compile(r"[a-z]+(?:/[A-Za-z0-9_-]{1,64}){0,2}")
_SLOW = {"search": 90.0, "pause": 40.0}


@api(auth="admin", methods=("GET", "POST"))
def forward(request, path):
    if not _PATH.fullmatch(path):
        raise HttpError(404, "no such scraper route")
    query = request.META.get("QUERY_STRING", "")
    target = f"/{path}" + (f"?{query}" if query else "")
    body = request.data if request.method == "POST" else None
    try:
        status, data = client.call(request.method, target, body, timeout=_SLOW.get(path, 10.0))
    except client.Offline:
        return JsonResponse({"error": "scraper offline"}, status=503)
    if status == 401:
        # Not the admin's fault and not a sign-in problem: the two processes disagree on the token.
        return JsonResponse({"error": "the scraper refused the reader's token: check SCRAPER_TOKEN"}, status=502)
    return JsonResponse(data, status=status, safe=False, json_dumps_params={"ensure_ascii": False})
