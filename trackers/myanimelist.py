"""MyAnimeList as a tracker: OAuth 2 with PKCE (plain), then its API v2.

The shapes are MyAnimeList's API docs (https://myanimelist.net/apiconfig/references/authorization
and https://myanimelist.net/apiconfig/references/api/v2): `/authorize` takes code_challenge with
code_challenge_method=plain (the only method MAL accepts), `/token` takes form fields and answers
{token_type, expires_in, access_token, refresh_token}; `PATCH /manga/{id}/my_list_status` takes the
form fields status, num_chapters_read, num_volumes_read, start_date, finish_date; `GET
/users/@me/mangalist?fields=list_status` pages with paging.next. An access token lasts a month and
is refreshed with the refresh token; a refused refresh means connecting again. MAL documents no
rate limit; the pace is one request a second.
"""
import re
from urllib.parse import urlencode

from django.conf import settings

from .base import COMPLETED, Entry, Failed, Revoked, Tracker

PUBLIC_OAUTH = "https://myanimelist.net/v1/oauth2"
PUBLIC_API = "https://api.myanimelist.net/v2"
EARLY = 300  # seconds: a token this close to its end is refreshed first
LIST_PAGES = 20  # of 1,000 entries each
_LINK = re.compile(r"myanimelist\.net/manga/(\d+)")


def _tokens(calls, answer):
    if not isinstance(answer, dict) or not isinstance(answer.get("access_token"), str):
        raise Failed("MyAnimeList answered the token request without access_token")
    seconds = answer.get("expires_in")
    return {"token": answer["access_token"], "refresh": answer.get("refresh_token"),
            "expires": calls.now() + seconds if isinstance(seconds, int) else None}


class MyAnimeList(Tracker):
    key = "myanimelist"
    name = "MyAnimeList"
    home = "https://myanimelist.net"
    pace = 1.0
    link = _LINK

    @property
    def bases(self):
        return [(settings.MAL_OAUTH_URL, PUBLIC_OAUTH), (settings.MAL_API_URL, PUBLIC_API)]

    def enabled(self):
        return bool(settings.MAL_CLIENT_ID)

    def authorize_url(self, redirect_uri, state, verifier):
        query = {"response_type": "code", "client_id": settings.MAL_CLIENT_ID, "state": state,
                 "redirect_uri": redirect_uri, "code_challenge": verifier, "code_challenge_method": "plain"}
        return f"{settings.MAL_OAUTH_URL}/authorize?{urlencode(query)}"

    def _token(self, calls, fields):
        fields = {"client_id": settings.MAL_CLIENT_ID, "client_secret": settings.MAL_CLIENT_SECRET or None, **fields}
        return _tokens(calls, calls.send("POST", f"{settings.MAL_OAUTH_URL}/token", form=fields))

    def exchange(self, calls, code, redirect_uri, verifier):
        return self._token(calls, {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri,
                                   "code_verifier": verifier})

    def refresh(self, calls, secret):
        if not secret.get("refresh"):
            return None
        try:
            return self._token(calls, {"grant_type": "refresh_token", "refresh_token": secret["refresh"]})
        except Failed as e:
            if e.http_status in (400, 401):  # invalid_grant: revoked or expired
                raise Revoked(f"MyAnimeList refused the refresh token ({e.message}): connect again") from None
            raise

    @staticmethod
    def expiring(calls, secret):
        return secret.get("expires") is not None and calls.now() >= secret["expires"] - EARLY

    def account(self, calls, secret):
        me = calls.send("GET", f"{settings.MAL_API_URL}/users/@me", token=secret["token"])
        if not isinstance(me, dict) or "id" not in me:
            raise Failed("MyAnimeList answered /users/@me without an id")
        return {"id": str(me["id"]), "name": str(me.get("name") or me["id"])}

    def update(self, calls, secret, entry_id, state):
        if not str(entry_id).isdigit():
            raise Failed(f"{entry_id!r} is not a MyAnimeList manga id")
        fields = {"status": state.status, "num_chapters_read": state.chapters, "num_volumes_read": state.volumes,
                  "start_date": state.started, "finish_date": state.finished if state.status == COMPLETED else None}
        calls.send("PATCH", f"{settings.MAL_API_URL}/manga/{entry_id}/my_list_status", token=secret["token"],
                   form=fields)

    def entries(self, calls, secret):
        found = []
        url = f"{settings.MAL_API_URL}/users/@me/mangalist?{urlencode({'fields': 'list_status', 'limit': 1000})}"
        for _ in range(LIST_PAGES):
            page = calls.send("GET", url, token=secret["token"])
            for item in (page or {}).get("data") or []:
                node, status = item.get("node") or {}, item.get("list_status") or {}
                if isinstance(node.get("id"), int) and isinstance(status.get("num_chapters_read"), int):
                    volumes = status.get("num_volumes_read")
                    found.append(Entry(str(node["id"]), status["num_chapters_read"],
                                       volumes if isinstance(volumes, int) else None, str(status.get("status"))))
            following = ((page or {}).get("paging") or {}).get("next")
            if not isinstance(following, str) or not following.startswith(settings.MAL_API_URL):
                break
            url = following  # only a page of the same API: the token goes nowhere else
        return found
