"""AniList as a tracker: OAuth authorization code, then GraphQL at ANILIST_API_URL.

The shapes are AniList's API docs (https://docs.anilist.co/guide/auth/authorization-code and the
schema's Viewer, SaveMediaListEntry, MediaListCollection): the token request is JSON
{grant_type, client_id, client_secret, redirect_uri, code} answered {token_type, expires_in,
access_token}. An AniList token lasts a year and has no refresh: a 401 means connecting again.
AniList allows 90 requests a minute ("Rate Limiting"), so the pace is 60/90 s.
"""
import re
from urllib.parse import urlencode

from django.conf import settings

from .base import COMPLETED, Entry, Failed, Revoked, Tracker, date_parts

PUBLIC_OAUTH = "https://anilist.co/api/v2/oauth"
PUBLIC_API = "https://graphql.anilist.co"
VIEWER = "query { Viewer { id name } }"
SAVE = """mutation ($mediaId: Int, $progress: Int, $progressVolumes: Int, $status: MediaListStatus,
  $startedAt: FuzzyDateInput, $completedAt: FuzzyDateInput) {
  SaveMediaListEntry(mediaId: $mediaId, progress: $progress, progressVolumes: $progressVolumes, status: $status,
    startedAt: $startedAt, completedAt: $completedAt) { id mediaId status progress progressVolumes } }"""
LIST = """query ($userId: Int) { MediaListCollection(userId: $userId, type: MANGA) {
  lists { entries { mediaId status progress progressVolumes } } } }"""
STATUS = {"reading": "CURRENT", "completed": "COMPLETED"}
_LINK = re.compile(r"anilist\.co/manga/(\d+)")


def _data(answer, key):
    data = answer.get("data") if isinstance(answer, dict) else None
    errors = answer.get("errors") if isinstance(answer, dict) else None
    if isinstance(errors, list) and errors and isinstance(errors[0], dict):
        message = str(errors[0].get("message") or "")
        if errors[0].get("status") == 401 or message.lower() in ("invalid token", "unauthorized."):
            raise Revoked(f"AniList refused the token ({message}): connect again")
        if not isinstance(data, dict) or data.get(key) is None:
            raise Failed(f"AniList answered: {message[:200]}")
    if not isinstance(data, dict) or not isinstance(data.get(key), dict):
        raise Failed(f"AniList answered without {key}")
    return data[key]


class AniList(Tracker):
    key = "anilist"
    name = "AniList"
    home = "https://anilist.co"
    pace = 60 / 90
    metadata_key = "anilist"
    link = _LINK

    @property
    def bases(self):
        return [(settings.ANILIST_OAUTH_URL, PUBLIC_OAUTH), (settings.ANILIST_API_URL, PUBLIC_API)]

    def enabled(self):
        return bool(settings.ANILIST_CLIENT_ID)

    def authorize_url(self, redirect_uri, state, verifier):
        query = {"client_id": settings.ANILIST_CLIENT_ID, "redirect_uri": redirect_uri, "response_type": "code",
                 "state": state}
        return f"{settings.ANILIST_OAUTH_URL}/authorize?{urlencode(query)}"

    def exchange(self, calls, code, redirect_uri, verifier):
        answer = calls.send("POST", f"{settings.ANILIST_OAUTH_URL}/token", json={
            "grant_type": "authorization_code", "client_id": settings.ANILIST_CLIENT_ID,
            "client_secret": settings.ANILIST_CLIENT_SECRET, "redirect_uri": redirect_uri, "code": code})
        if not isinstance(answer, dict) or not isinstance(answer.get("access_token"), str):
            raise Failed("AniList answered the token request without access_token")
        seconds = answer.get("expires_in")
        return {"token": answer["access_token"], "refresh": None,
                "expires": calls.now() + seconds if isinstance(seconds, int) else None}

    def _graphql(self, calls, secret, query, variables, key):
        return _data(calls.send("POST", settings.ANILIST_API_URL, token=secret["token"],
                                json={"query": query, "variables": variables}), key)

    def account(self, calls, secret):
        viewer = self._graphql(calls, secret, VIEWER, {}, "Viewer")
        return {"id": str(viewer.get("id")), "name": str(viewer.get("name") or viewer.get("id"))}

    def update(self, calls, secret, entry_id, state):
        variables = {"mediaId": int(entry_id), "progress": state.chapters, "status": STATUS[state.status],
                     "startedAt": date_parts(state.started)}
        if state.volumes is not None:
            variables["progressVolumes"] = state.volumes
        if state.status == COMPLETED:
            variables["completedAt"] = date_parts(state.finished)
        self._graphql(calls, secret, SAVE, variables, "SaveMediaListEntry")

    def entries(self, calls, secret):
        collection = self._graphql(calls, secret, LIST, {"userId": int(secret["accountId"])}, "MediaListCollection")
        found = []
        for group in collection.get("lists") or []:
            for entry in (group or {}).get("entries") or []:
                if isinstance(entry, dict) and isinstance(entry.get("mediaId"), int) \
                        and isinstance(entry.get("progress"), int):
                    volumes = entry.get("progressVolumes")
                    found.append(Entry(str(entry["mediaId"]), entry["progress"],
                                       volumes if isinstance(volumes, int) else None, str(entry.get("status"))))
        return found
