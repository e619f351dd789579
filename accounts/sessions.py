"""The `sessions` section of db.json: sessions[sha256(token)] = {u: name, t: created ms, s: scope, v?: via}.

A session has one scope, set when it is made (docs/apps.md, "What each credential reaches"):
`web`, made by the sign-in form or /api/login and sent as the `sid` cookie, reaches every route
with the user's role; `app`, handed to a reading app on /komga/ for its password or API key,
reaches only the apps' routes (/komga/, /opds/). A token is accepted only where its scope is
asked for, so an app's token copied into the `sid` cookie opens nothing of the web. A session
stored without a scope (made before scopes existed) counts as an app session. `v` is "oidc" for a
web session an OpenID provider signed in (its own second factor stands for the app's).

Only the SHA-256 of the random cookie token is stored, so a copy of db.json signs nobody in.
Starting and ending sessions are security changes (db.security_change()): on disk before they
return, or undone and Unavailable.
"""
from __future__ import annotations

import hashlib
import secrets
from typing import TYPE_CHECKING

from mangacircus import db
from mangacircus.clock import now_ms

from . import users

if TYPE_CHECKING:
    from .users import User

SESSION_DAYS = 365
WEB, APP = "web", "app"


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def end_all(name: str, keep: str | None = None) -> None:
    sessions = db.section("sessions")
    for d in [d for d, s in sessions.items() if s.get("u") == name and d != keep]:
        del sessions[d]




def create_session(name: str, key: str | None = None, scope: str = WEB, via: str | None = None) -> str:
    """A new session token of `scope` (WEB or APP). `key`: the id of the API key it was opened with
    (accounts/apikeys.py), so that revoking the key ends it too. `via`: "oidc" for an OpenID sign-in."""
    if scope not in (WEB, APP):
        raise ValueError(f"no session scope {scope!r}")
    token = secrets.token_hex(32)
    entry = {"u": name, "t": now_ms(), "s": scope}
    if key:
        entry["k"] = key
    if via:
        entry["v"] = via
    with db.security_change("sessions"):
        db.section("sessions")[digest(token)] = entry
    return token


def end_key_sessions(name: str, key: str) -> None:
    """End the sessions opened with the user's API key `key` (called when it is revoked)."""
    with db.security_change("sessions"):
        sessions = db.section("sessions")
        for d in [d for d, s in sessions.items() if s.get("u") == name and s.get("k") == key]:
            del sessions[d]


def end_password_app_sessions(name: str) -> None:
    """End the user's app sessions opened with their password rather than an API key (a second
    factor was turned on, and a password alone no longer signs an app in)."""
    with db.security_change("sessions"):
        sessions = db.section("sessions")
        for d in [d for d, s in sessions.items() if s.get("u") == name and s.get("s", APP) == APP and not s.get("k")]:
            del sessions[d]


def session_user(token: str | None, scope: str = WEB) -> User | None:
    """The user record of a session token of that scope, or None (also for a token of another scope)."""
    if not token or len(token) > 128 or not db.is_open():
        return None
    with db.lock():
        session = db.section("sessions").get(digest(token))
        if not session or session.get("s", APP) != scope:
            return None
        return users.get_user(session.get("u"))


def session_via(token: str | None) -> str | None:
    """How the session of `token` was signed in, when not with a password ("oidc"), else None."""
    if not token or len(token) > 128 or not db.is_open():
        return None
    with db.lock():
        session = db.section("sessions").get(digest(token))
        return session.get("v") if session else None


def end_session(token: str) -> None:
    with db.security_change("sessions"):
        db.section("sessions").pop(digest(token), None)


def end_other_sessions(name: str, keep_token: str | None = None) -> None:
    """End every session of the user except the one of `keep_token` (a password change)."""
    with db.security_change("sessions"):
        end_all(name, digest(keep_token) if keep_token else None)


def prune_sessions() -> int:
    """At start: drop sessions older than a year or of users that are gone."""
    cutoff = now_ms() - SESSION_DAYS * 86_400_000
    with db.lock():
        sessions = db.section("sessions")
        stale = [d for d, s in sessions.items()
                 if not isinstance(s, dict) or not users.exists(s.get("u")) or s.get("t", 0) < cutoff]
        for d in stale:
            del sessions[d]
        if stale:
            db.touch()
    return len(stale)
