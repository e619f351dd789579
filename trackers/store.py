"""DATA/trackers.json (mode 0600): each user's tracker connections, bindings and what was sent.

    {"schema": 1, "users": {user: {
        "connections": {tracker: {"state": "connected" | "reconnect", "accountId", "accountName",
                                  "since", "token", "refresh", "expires", "error", "imported", "last"}},
        "bindings": {tracker: {manga: entry id}},      # set by the user; they win over the match
        "sent": {tracker: {manga: {chapters, volumes, status, started, finished}}}}}}

This module is the file's only reader and writer, in the reader process. Tokens are written with
an immediate edit, so a disconnect or a deleted account leaves no token on disk once it returns;
the file is never in a backup (ops/backups/archive.py EXCLUDED), as the secret key is not.
Nothing here is logged: no token, no session, no password ever reaches a log line.
"""
from __future__ import annotations

from typing import Any

from mangacircus.clock import now_ms
from mangacircus.moves import Move
from mangacircus.store import Document, Store

SCHEMA = 1
FILE = "trackers.json"
SECRET = ("token", "refresh", "expires")


def empty() -> Document:
    return {"schema": SCHEMA, "users": {}}


def validate(data: Document) -> None:
    schema = data.get("schema", SCHEMA)
    if not isinstance(schema, int) or schema > SCHEMA:
        raise ValueError(f"it has schema {schema!r}, not the {SCHEMA} this version reads")
    if not isinstance(data.get("users", {}), dict):
        raise ValueError('"users" must be an object')


STATE = Store(FILE, empty=empty, validate=validate)


def _user(data: Document, user: str) -> dict[str, Any]:
    found = data["users"].setdefault(user, {})
    for key in ("connections", "bindings", "sent"):
        found.setdefault(key, {})
    return found


def connection(user: str, tracker: str) -> dict[str, Any] | None:
    """The connection with its secret fields (for the sender and the import), a copy."""
    with STATE.read() as data:
        found = data["users"].get(user, {}).get("connections", {}).get(tracker)
        return dict(found) if isinstance(found, dict) else None


def connected(user: str) -> list[str]:
    """The trackers the user is connected to and that take updates now."""
    if not STATE.is_open():
        return []
    with STATE.read() as data:
        return [key for key, c in data["users"].get(user, {}).get("connections", {}).items()
                if c.get("state") == "connected"]


def connect(user: str, tracker: str, secret: dict[str, Any], account: dict[str, str]) -> None:
    with STATE.edit(immediate=True) as data:
        _user(data, user)["connections"][tracker] = {
            "state": "connected", "accountId": account.get("id") or "", "accountName": account.get("name") or "",
            "since": now_ms(), "error": None, "imported": None, "last": None,
            **{key: secret.get(key) for key in SECRET}}
        _user(data, user)["sent"].pop(tracker, None)


def keep_secret(user: str, tracker: str, secret: dict[str, Any]) -> None:
    """A refreshed token replaces the old one."""
    with STATE.edit(immediate=True) as data:
        found = data["users"].get(user, {}).get("connections", {}).get(tracker)
        if found:
            found.update({key: secret.get(key, found.get(key)) for key in SECRET})


def needs_reconnect(user: str, tracker: str, why: str) -> None:
    """The site refused the token: it is dropped, and Settings → Apps asks to connect again."""
    with STATE.edit(immediate=True) as data:
        found = data["users"].get(user, {}).get("connections", {}).get(tracker)
        if found:
            found.update(state="reconnect", error=why[:300], token=None, refresh=None, expires=None)


def disconnect(user: str, tracker: str) -> bool:
    with STATE.edit(immediate=True) as data:
        found = data["users"].get(user, {})
        gone = found.get("connections", {}).pop(tracker, None) is not None
        found.get("sent", {}).pop(tracker, None)
        return gone


def forget_user(name: str) -> None:
    """events.user_deleted: the account's tokens, bindings and sent state go, on disk at once."""
    if STATE.is_open():
        with STATE.edit(immediate=True) as data:
            data["users"].pop(name, None)


def note(user: str, tracker: str, manga: str, ok: bool, message: str) -> None:
    """The last update's outcome, shown in Settings → Apps."""
    with STATE.edit() as data:
        found = data["users"].get(user, {}).get("connections", {}).get(tracker)
        if found:
            found["last"] = {"manga": manga, "ok": ok, "message": message[:300], "t": now_ms()}


def sent(user: str, tracker: str, manga: str) -> dict[str, Any] | None:
    with STATE.read() as data:
        found = data["users"].get(user, {}).get("sent", {}).get(tracker, {}).get(manga)
        return dict(found) if isinstance(found, dict) else None


def keep_sent(user: str, tracker: str, states: dict[str, dict[str, Any]]) -> None:
    """{manga: state} that the tracker now holds (sent from here, or read from its list)."""
    with STATE.edit() as data:
        if tracker in data["users"].get(user, {}).get("connections", {}):
            _user(data, user)["sent"].setdefault(tracker, {}).update(states)


def imported(user: str, tracker: str) -> None:
    with STATE.edit() as data:
        found = data["users"].get(user, {}).get("connections", {}).get(tracker)
        if found:
            found["imported"] = now_ms()


def binding(user: str, tracker: str, manga: str) -> str | None:
    with STATE.read() as data:
        found = data["users"].get(user, {}).get("bindings", {}).get(tracker, {}).get(manga)
        return found if isinstance(found, str) else None


def bind(user: str, tracker: str, manga: str, entry_id: str | None) -> None:
    """The user's own choice of the tracker's entry for a manga (None: back to the metadata match)."""
    with STATE.edit() as data:
        chosen = _user(data, user)["bindings"].setdefault(tracker, {})
        if entry_id:
            chosen[manga] = entry_id
        else:
            chosen.pop(manga, None)
        _user(data, user)["sent"].get(tracker, {}).pop(manga, None)


def overview(user: str) -> dict[str, Any]:
    """What Settings → Apps shows: the connections without their secrets, and the bindings."""
    with STATE.read() as data:
        found = data["users"].get(user, {})
        connections = {key: {k: v for k, v in c.items() if k not in SECRET}
                       for key, c in found.get("connections", {}).items()}
        bindings = {key: dict(b) for key, b in found.get("bindings", {}).items() if b}
    return {"connections": connections, "bindings": bindings}


def on_moved(moves: list[Move]) -> None:
    """events.library_moved: bindings and sent state follow a renamed manga."""
    renamed = {m.old: m.new for m in moves if m.old != m.new}
    if not renamed or not STATE.is_open():
        return
    with STATE.edit() as data:
        for found in data["users"].values():
            for section in ("bindings", "sent"):
                for per_manga in found.get(section, {}).values():
                    for old, new in renamed.items():
                        if old in per_manga:
                            per_manga.setdefault(new, per_manga.pop(old))
