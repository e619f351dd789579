"""MangaDex accounts: each user's connection through MangaDex's personal API client flow, the
follows list and the read markers (docs/scraper.md, "Your MangaDex account").

The daemon owns `DATA/scraper/mangadex-accounts.json` (mode 0600, written atomically): per reader
user name the personal client's id and secret, the MangaDex user name, the refresh token and the
state ("connected" or "reconnect"). The password is sent once to MangaDex's auth server for the
exchange and never kept; access tokens (15 minutes) stay in memory. Nothing here is logged: errors
name the URL, never a token, a secret or a password.

Every request goes through the daemon's HttpClient as the mangadex source: pacing, the address
guard, Retry-After. A refresh token the auth server no longer accepts (400 invalid_grant: revoked,
expired, a password changed) marks the connection "reconnect needed"; downloads and everything
else go on.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

import orjson

from mangacircus.errors import Conflict, DomainError, Invalid
from mangacircus.jsonfile import write_atomic

from .errors import ScraperError, SourceChanged
from .sources import mangadex

if TYPE_CHECKING:
    from .http import SourceHttp

log = logging.getLogger(__name__)
FILE = "mangadex-accounts.json"
SCHEMA = 1
EARLY = 60          # seconds: an access token this close to its end is refreshed first
FOLLOWS_LIMIT = 100  # the largest page of /user/follows/manga
READ_BATCH = 100     # manga ids per /manga/read request


class NotConnected(DomainError):
    status = 404


class ReconnectNeeded(Conflict):
    """The refresh token was refused: the user connects again (with the password)."""


class AuthRefused(DomainError):
    """The auth server refused the client or the user's credentials."""
    status = 400


class Accounts:
    def __init__(self, directory: Path, clock: Callable[[], float] = time.time) -> None:
        self.path = directory / FILE
        self.clock = clock
        self._lock = threading.RLock()
        self._access: dict[str, tuple[str, float]] = {}  # reader user -> (access token, expires at, by self.clock)
        self.broken: str | None = None  # why the file cannot be read: it is left alone, downloads go on
        try:
            self._data = self._load()
        except (ValueError, OSError) as e:  # orjson's decode error is a ValueError
            self.broken = f"{self.path} cannot be read ({e}); restore it from a backup or move it aside"
            self._data = {"schema": SCHEMA, "accounts": {}}

    def _load(self) -> dict[str, Any]:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return {"schema": SCHEMA, "accounts": {}}
        data = orjson.loads(raw)
        if not isinstance(data, dict) or not isinstance(data.get("accounts"), dict):
            raise ValueError(f"{self.path} is not a MangaDex accounts file")
        if data.get("schema", 1) > SCHEMA:
            raise ValueError(f"{self.path}: schema {data['schema']} is newer than this version understands")
        return data

    def _save(self) -> None:
        if self.broken:
            raise Conflict(self.broken)
        write_atomic(self.path, orjson.dumps(self._data, option=orjson.OPT_INDENT_2), mode=0o600)

    # What a user sees of their connection: never a secret.

    def status(self, user: str) -> dict[str, Any]:
        with self._lock:
            entry = self._data["accounts"].get(user)
            if not entry:
                return {"connected": False, "error": self.broken}
            return {"connected": True, "username": entry["username"], "clientId": entry["clientId"],
                    "state": entry["state"], "since": entry["since"], "error": entry.get("error")}

    def connect(self, http: SourceHttp, user: str, client_id: str, client_secret: str, username: str,
                password: str) -> dict[str, Any]:
        if self.broken:
            raise Conflict(self.broken)
        tokens = self._token(http, {"grant_type": "password", "username": username, "password": password,
                                    "client_id": client_id, "client_secret": client_secret})
        with self._lock:
            self._data["accounts"][user] = {"clientId": client_id, "clientSecret": client_secret,
                                            "username": username, "refreshToken": tokens["refresh_token"],
                                            "state": "connected", "since": int(self.clock() * 1000), "error": None}
            self._keep_access(user, tokens)
            self._save()
        log.info("MangaDex account %s connected for %s", username, user)
        return self.status(user)

    def disconnect(self, user: str) -> bool:
        with self._lock:
            gone = self._data["accounts"].pop(user, None) is not None
            self._access.pop(user, None)
            if gone:
                self._save()
            return gone

    # Tokens

    def _token(self, http: SourceHttp, fields: dict[str, str]) -> dict[str, Any]:
        """POST the token endpoint; -> its JSON. A refused grant raises AuthRefused with MangaDex's reason."""
        response = http.post_form(mangadex.SOURCE.token_url, fields, answer=(400, 401))
        try:
            data = response.json()
        except ScraperError:
            data = None
        if response.status in (400, 401):
            error = data.get("error") if isinstance(data, dict) else None
            why = data.get("error_description") if isinstance(data, dict) else None
            raise AuthRefused(f"MangaDex's auth server refused: {error or response.status}"
                              + (f" ({str(why)[:200]})" if why else "")) from None
        if not isinstance(data, dict) or not isinstance(data.get("access_token"), str) \
                or not isinstance(data.get("refresh_token"), str):
            raise SourceChanged("MangaDex's auth server answered without access_token or refresh_token: "
                                "the mangadex module needs an update")
        return data

    def _keep_access(self, user: str, tokens: dict[str, Any]) -> None:
        seconds = tokens.get("expires_in")
        seconds = seconds if isinstance(seconds, int) and not isinstance(seconds, bool) and seconds > 0 else 900
        self._access[user] = (tokens["access_token"], self.clock() + seconds)

    def _entry(self, user: str) -> dict[str, Any]:
        entry = self._data["accounts"].get(user)
        if not entry:
            raise NotConnected("no MangaDex account is connected for this user")
        if entry["state"] != "connected":
            raise ReconnectNeeded("the MangaDex connection needs to be made again: "
                                  f"{entry.get('error') or 'its token was refused'}")
        return entry

    def access_token(self, http: SourceHttp, user: str, fresh: bool = False) -> str:
        with self._lock:
            entry = self._entry(user)
            token, until = self._access.get(user, (None, 0))
            if token and not fresh and self.clock() < until - EARLY:
                return token
            try:
                tokens = self._token(http, {"grant_type": "refresh_token", "refresh_token": entry["refreshToken"],
                                            "client_id": entry["clientId"], "client_secret": entry["clientSecret"]})
            except AuthRefused as e:
                entry["state"], entry["error"] = "reconnect", e.message
                log.warning("the MangaDex connection of %s needs a reconnect: %s", user, e.message)
                self._access.pop(user, None)
                self._save()
                raise ReconnectNeeded(f"the MangaDex connection needs to be made again: {e.message}") from None
            if tokens["refresh_token"] != entry["refreshToken"]:  # a rotated refresh token replaces the old one
                entry["refreshToken"] = tokens["refresh_token"]
                self._save()
            self._keep_access(user, tokens)
            return tokens["access_token"]

    def _get(self, http: SourceHttp, user: str, path: str, params: list[tuple[str, Any]]) -> Any:
        """A GET on the API as the user; a 401 (a token ended early) refreshes once and tries again."""
        url = f"{mangadex.SOURCE.base}{path}?{urlencode(params)}"
        for fresh in (False, True):
            token = self.access_token(http, user, fresh=fresh)
            response = http.get(url, {"Accept": "application/json", "Authorization": f"Bearer {token}"},
                                answer=(401,))
            if response.status != 401:
                return response.json()
        raise ReconnectNeeded("MangaDex refused a fresh access token: connect the account again")

    # The follows list and the read markers

    def follows(self, http: SourceHttp, user: str) -> list[Any]:
        """Every manga the user follows on MangaDex, as SeriesInfo, in pages of 100."""
        found: list[Any] = []
        offset, total = 0, 1
        while offset < total and offset + FOLLOWS_LIMIT <= mangadex.WINDOW:
            data = self._get(http, user, "/user/follows/manga",
                             [("limit", FOLLOWS_LIMIT), ("offset", offset), ("includes[]", "cover_art")])
            page, total = mangadex.parse_follows(data, mangadex.SOURCE.uploads)
            found.extend(page)
            offset += FOLLOWS_LIMIT
            if not page:
                break
        return found

    def read_markers(self, http: SourceHttp, user: str, manga_ids: Iterable[str]) -> list[str]:
        """The chapter ids the user marked read on MangaDex, in those manga (100 per request)."""
        with self._lock:
            self._entry(user)  # not connected, or a reconnect needed: say so even with nothing to ask
        manga_ids = list(dict.fromkeys(manga_ids))
        read: list[str] = []
        for start in range(0, len(manga_ids), READ_BATCH):
            batch = manga_ids[start:start + READ_BATCH]
            data = self._get(http, user, "/manga/read", [("ids[]", m) for m in batch])
            read.extend(mangadex.parse_read(data))
        return list(dict.fromkeys(read))


def check_connect(body: dict[str, Any]) -> list[str]:
    """The connect form: four non-empty strings; -> them, stripped (the password as typed)."""
    values = []
    for name in ("clientId", "clientSecret", "username", "password"):
        value = body.get(name)
        if not isinstance(value, str) or not value.strip() or len(value) > 500:
            raise Invalid(f"{name} must be a non-empty string of at most 500 characters")
        values.append(value if name == "password" else value.strip())
    return values
