"""MangaUpdates as a tracker: its login API and reading lists, at MANGAUPDATES_API_URL.

The shapes are MangaUpdates' API v1 (https://api.mangaupdates.com/, its OpenAPI description):
`PUT /account/login` {username, password} answers {status, reason, context: {session_token, uid}};
`POST /lists/series/update` and `POST /lists/series` take [{series: {id}, list_id, status:
{volume, chapter}}]; `POST /lists/{id}/search` {page, perpage} answers {total_hits, results:
[{record: {series: {id, title}, list_id, status: {volume, chapter}}}]}. The password is sent
once, to log in, and never kept; the session token is. Lists have no start or finish dates.
MangaUpdates documents no rate limit, so the pace is 2 s, as for its metadata.
"""
import re

from django.conf import settings
from django.utils.translation import gettext as _

from mangacircus.errors import Invalid

from .base import COMPLETED, Entry, Failed, Revoked, Tracker

PUBLIC_API = "https://api.mangaupdates.com/v1"
READING_LIST, COMPLETE_LIST = 0, 2  # MangaUpdates' own list ids: "Reading List", "Complete List"
LIST_PAGES = 20
PER_PAGE = 100
_LINK = re.compile(r"mangaupdates\.com/series/([0-9a-z]+)(?:/|$)")
_OLD_LINK = re.compile(r"mangaupdates\.com/series\.html\?id=([0-9a-z]*[a-z][0-9a-z]*)$")


class MangaUpdates(Tracker):
    key = "mangaupdates"
    name = "MangaUpdates"
    home = "https://www.mangaupdates.com"
    pace = 2.0
    kind = "login"
    metadata_key = "mangaupdates"

    @property
    def bases(self):
        return [(settings.MANGAUPDATES_API_URL, PUBLIC_API)]

    def enabled(self):
        return settings.MANGAUPDATES_TRACKER

    def id_in(self, url):
        """The series id of a link: the site's new addresses name it in base 36 (MangaDex's `mu` link
        does too); the old numeric ids of series.html are another numbering and are left alone."""
        if not isinstance(url, str):
            return None
        found = _LINK.search(url) or _OLD_LINK.search(url)
        return str(int(found.group(1), 36)) if found else None

    def login(self, calls, username, password):
        try:
            answer = calls.send("PUT", f"{settings.MANGAUPDATES_API_URL}/account/login",
                                json={"username": username, "password": password})
        except Revoked as e:  # a 401 here is the name or the password
            if not e.reason:
                raise Invalid(_("MangaUpdates did not log in: the name or password is wrong")) from None
            # the site's own words arrive as ": Invalid credentials" (trackers/base.py _reason)
            reason = e.reason.removeprefix(": ")
            raise Invalid(_("MangaUpdates did not log in: %(reason)s") % {"reason": reason}) from None
        context = answer.get("context") if isinstance(answer, dict) else None
        if not isinstance(context, dict) or not isinstance(context.get("session_token"), str):
            raise Failed(f"MangaUpdates did not log in: {str((answer or {}).get('reason') or 'no session')[:200]}")
        return {"token": context["session_token"], "refresh": None, "expires": None,
                "accountId": str(context.get("uid") or ""), "accountName": username}

    def account(self, calls, secret):
        return {"id": secret.get("accountId") or "", "name": secret.get("accountName") or ""}

    def update(self, calls, secret, entry_id, state):
        if not str(entry_id).isdigit():
            raise Failed(f"{entry_id!r} is not a MangaUpdates series id")
        status = {"chapter": state.chapters}
        if state.volumes is not None:
            status["volume"] = state.volumes
        chosen = COMPLETE_LIST if state.status == COMPLETED else READING_LIST
        item = [{"series": {"id": int(entry_id)}, "list_id": chosen, "status": status}]
        try:
            calls.send("POST", f"{settings.MANGAUPDATES_API_URL}/lists/series/update", token=secret["token"], json=item)
        except Failed as e:
            if e.http_status not in (400, 404):
                raise
            # Not on any of the user's lists yet: add it to the right one.
            calls.send("POST", f"{settings.MANGAUPDATES_API_URL}/lists/series", token=secret["token"], json=item)

    def entries(self, calls, secret):
        found = []
        for list_id in (READING_LIST, COMPLETE_LIST):
            for page in range(1, LIST_PAGES + 1):
                answer = calls.send("POST", f"{settings.MANGAUPDATES_API_URL}/lists/{list_id}/search",
                                    token=secret["token"], json={"page": page, "perpage": PER_PAGE})
                results = (answer or {}).get("results") or []
                for result in results:
                    record = (result or {}).get("record") or {}
                    series, status = record.get("series") or {}, record.get("status") or {}
                    if isinstance(series.get("id"), int) and isinstance(status.get("chapter"), int):
                        volume = status.get("volume")
                        found.append(Entry(str(series["id"]), status["chapter"],
                                           volume if isinstance(volume, int) and volume > 0 else None,
                                           "completed" if list_id == COMPLETE_LIST else "reading"))
                if len(results) < PER_PAGE:
                    break
        return found
