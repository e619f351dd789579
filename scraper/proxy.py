"""The reader's admin-only proxy to the daemon's private API: /api/admin/scraper/<path>.

The browser talks only to the reader; the reader adds the token, so it never leaves the server.
When the daemon cannot be reached the answer is 503 {"error": "scraper offline"}.
"""
import re

from django.http import JsonResponse
from django.utils.translation import gettext as _

from mangacircus.errors import DomainError, NotFound, Unavailable
from mangacircus.http import api

from . import client

_PATH = re.compile(r"[a-z]+(?:/[A-Za-z0-9_-]{1,64}){0,2}")
_SLOW = {"search": 90.0, "chapters": 90.0, "pause": 40.0}


class DaemonRefused(DomainError):
    """The daemon answered but will not serve the reader: the two processes disagree on the token."""
    status = 502


@api(auth="admin", methods=("GET", "POST"))
def forward(request, path):
    # MangaDex accounts are each user's own (scraper/mangadex_views.py), never reached from here.
    if not _PATH.fullmatch(path) or path.split("/")[0] == "account":
        raise NotFound(_("no such scraper route"))
    query = request.META.get("QUERY_STRING", "")
    target = f"/{path}" + (f"?{query}" if query else "")
    body = request.data if request.method == "POST" else None
    try:
        status, data = client.call(request.method, target, body, timeout=_SLOW.get(path, 10.0))
    except client.Offline:
        raise Unavailable(_("scraper offline")) from None
    if status == 401:
        # Not the admin's fault and not a sign-in problem, so not a 401 to the browser.
        raise DaemonRefused(_("the scraper refused the reader's token: check SCRAPER_TOKEN"))
    return JsonResponse(data, status=status, safe=False, json_dumps_params={"ensure_ascii": False})
