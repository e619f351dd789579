"""The tracker contract (docs/trackers.md): one module per site, like the metadata providers.

A tracker module describes one site's sign-in and list API and never opens a connection itself:
it gets the shared HTTP client (scraper/http.py, so the outbound-address guard, timeouts, caps and
this tracker's pace) through `Calls`, and answers plain data. It raises:

- `Revoked` when the site refuses the user's token (401): the connection needs reconnecting;
- `RateLimited(seconds)` on a 429: nothing is sent to that site before Retry-After has passed;
- `Failed` for an answer that will not change by asking again (an unknown id, a refused field);
- scraper.errors.ScraperError (Transient: a timeout, a 5xx, an unreachable host) is retried.
"""
from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urlsplit

import orjson

from mangacircus.errors import DomainError

READING, COMPLETED = "reading", "completed"
ANSWERED = (400, 401, 403, 404, 409, 422, 429)  # statuses a tracker reads itself
DEFAULT_RETRY_AFTER = 60.0


class Revoked(DomainError):
    status = 409

    def __init__(self, message: str, reason: str = "") -> None:
        super().__init__(message)
        self.reason = reason  # the site's own words, ": Invalid token"


class Failed(DomainError):
    status = 502

    def __init__(self, message: str, http_status: int | None = None) -> None:
        super().__init__(message)
        self.http_status = http_status


class RateLimited(DomainError):
    status = 503

    def __init__(self, message: str, seconds: float) -> None:
        super().__init__(message)
        self.seconds = seconds


@dataclass
class State:
    """What is sent for one manga: computed from the user's progress (trackers/reading.py)."""
    chapters: int
    volumes: int | None
    status: str                  # READING or COMPLETED
    started: str | None          # YYYY-MM-DD
    finished: str | None

    def as_dict(self) -> dict[str, Any]:
        return {"chapters": self.chapters, "volumes": self.volumes, "status": self.status,
                "started": self.started, "finished": self.finished}


@dataclass
class Entry:
    """One manga of the user's list at the tracker, for the import."""
    id: str
    chapters: int
    volumes: int | None
    status: str


def retry_after(response: Any) -> float:
    value = (response.headers.get("retry-after") or "").strip()
    return float(value) if value.isdigit() else DEFAULT_RETRY_AFTER


def date_parts(day: str | None) -> dict[str, int] | None:
    if not day:
        return None
    year, month, date = (int(p) for p in day.split("-"))
    return {"year": year, "month": month, "day": date}


class Calls:
    """A tracker's requests through the shared client: JSON or form bodies, the 401 and 429 rules."""

    def __init__(self, http: Any, tracker: Tracker, clock: Callable[[], float] = time.time) -> None:
        self.http, self.tracker, self.clock = http, tracker, clock

    def now(self) -> int:
        return int(self.clock())

    def send(self, method: str, url: str, *, token: str | None = None, json: Any = None,
             form: dict[str, Any] | None = None) -> Any:
        headers = {"Accept": "application/json"}
        body = None
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if json is not None:
            headers["Content-Type"] = "application/json"
            body = orjson.dumps(json)
        elif form is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            body = urlencode({k: v for k, v in form.items() if v is not None}).encode()
        # No retries and no redirects here: a token or a password is in the request, and the sender
        # retries on its own clock (trackers/sender.py).
        response = self.http.request(self.tracker, url, headers, None, method, body, retries=0, answer=ANSWERED,
                                     redirects=0)
        name = self.tracker.name
        if response.status == 429:
            seconds = retry_after(response)
            raise RateLimited(f"{name} asks to wait {seconds:g} s (Retry-After)", seconds)
        try:
            data = orjson.loads(response.body) if response.body else None
        except orjson.JSONDecodeError:
            data = None
        if response.status == 401:
            raise Revoked(f"{name} refused the token (HTTP 401{_reason(data)}): connect again", _reason(data))
        if response.status >= 400:
            raise Failed(f"{name} answered HTTP {response.status}{_reason(data)}", response.status)
        return data


def _reason(data: Any) -> str:
    if isinstance(data, dict):
        errors = data.get("errors")
        if isinstance(errors, list) and errors and isinstance(errors[0], dict):
            return f": {str(errors[0].get('message'))[:200]}"
        for key in ("error_description", "message", "reason", "error"):
            if isinstance(data.get(key), str):
                return f": {data[key][:200]}"
    return ""


class Tracker:
    key = ""
    name = ""
    home = ""
    pace = 1.0              # seconds between two requests to the site
    kind = "oauth"          # "oauth" (a redirect to the site) or "login" (a name and password)
    metadata_key = ""       # the metadata provider whose match names this tracker's entries

    @property
    def bases(self) -> list[tuple[str, str]]:
        """(base in use, public default): a base moved by its setting may be on the LAN or loopback."""
        return []

    def enabled(self) -> bool:
        return False

    def allows(self, host: str, port: int, ip: Any) -> bool:
        for base, public in self.bases:
            parts = urlsplit(base)
            if base != public and host == parts.hostname \
                    and port == (parts.port or (443 if parts.scheme == "https" else 80)):
                return True
        return False

    link: re.Pattern[str] | None = None  # the entry's id in a link to it, its first group

    def id_in(self, url: str) -> str | None:
        found = self.link.search(url) if self.link is not None and isinstance(url, str) else None
        return found.group(1) if found else None

    # What a tracker module offers (the OAuth ones the first three, the login one `login`).

    def authorize_url(self, redirect_uri: str, state: str, verifier: str) -> str:
        raise NotImplementedError

    def exchange(self, calls: Calls, code: str, redirect_uri: str, verifier: str) -> dict[str, Any]:
        """-> the connection's secret fields: token, refresh, expires (s since 1970, or None)."""
        raise NotImplementedError

    def login(self, calls: Calls, username: str, password: str) -> dict[str, Any]:
        raise NotImplementedError

    def account(self, calls: Calls, secret: dict[str, Any]) -> dict[str, str]:
        """-> {"id", "name"} of the signed-in account at the site."""
        raise NotImplementedError

    def refresh(self, calls: Calls, secret: dict[str, Any]) -> dict[str, Any] | None:
        """Fresh secret fields for an expired token, or None when the site has no refresh."""
        return None

    def update(self, calls: Calls, secret: dict[str, Any], entry_id: str, state: State) -> None:
        raise NotImplementedError

    def entries(self, calls: Calls, secret: dict[str, Any]) -> list[Entry]:
        raise NotImplementedError
