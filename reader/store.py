"""db.json: accounts, sessions and per-user settings (docs/accounts.md).

Every access to user data goes through functions in this package (store, progress, social ...);
views never touch the dict. Callers hold no lock: each function takes `db.lock` itself.
Security-relevant changes are flushed before the function returns (`_flush_now`), and raise
HttpError 503 when that write fails.
"""
import hashlib
import re
import secrets
import time

from mangacircus.http import HttpError
from mangacircus.jsonfile import JsonFile

from .prefs import DEFAULT_SETTINGS, merged_settings

db = None  # the open JsonFile, set by open_db()

SECTIONS = ("users", "sessions", "progress", "reading", "follows", "notes", "votes", "known", "dismissed")
SESSION_DAYS = 365
NAME_RE = re.compile(r"^[^\W_][\w.-]{0,31}$")


def _validate(data):
    for key in SECTIONS:
        if key in data and not isinstance(data[key], dict):
            raise ValueError(f'"{key}" must be an object')
    for name, user in data.get("users", {}).items():
        if not isinstance(user, dict) or not isinstance(user.get("hash"), str):
            raise ValueError(f'user "{name}" has no password hash')


def open_db(path):
    global db
    db = JsonFile(path, validate=_validate)
    with db.lock:
        for key in SECTIONS:
            db.data.setdefault(key, {})
    return db


def close_db():
    global db
    if db is not None:
        db.close()
        db = None


def now_ms():
    return int(time.time() * 1000)


def _flush_now():
    if not db.flush():
        raise HttpError(503, "saving data is failing on the server; try again shortly", {"Retry-After": "5"})


# Users

def get_user(name):
    with db.lock:
        user = db.data["users"].get(name)
        return dict(user) if user else None


def user_count():
    with db.lock:
        return len(db.data["users"])


def list_users():
    with db.lock:
        return [
            {"name": u["name"], "admin": bool(u.get("admin")), "created": u.get("created")}
            for u in sorted(db.data["users"].values(), key=lambda u: u["name"].lower())
        ]


def admin_count():
    with db.lock:
        return sum(1 for u in db.data["users"].values() if u.get("admin"))


def check_new_name(name):
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise HttpError(400, "name must be 1-32 letters, digits, '.', '-' or '_', starting with a letter or digit")
    with db.lock:
        if any(existing.lower() == name.lower() for existing in db.data["users"]):
            raise HttpError(409, f"the name {name} is taken")


def create_user(name, password_hash, admin=False):
    with db.lock:
        db.data["users"][name] = {
            "name": name, "admin": bool(admin), "created": now_ms(),
            "hash": password_hash, "settings": dict(DEFAULT_SETTINGS),
        }
        db.touch()
    _flush_now()


def set_password_hash(name, password_hash, *, keep_session=None, end_sessions=True):
    """Replace the hash and end every session of the user except `keep_session` (a digest)."""
    with db.lock:
        db.data["users"][name]["hash"] = password_hash
        sessions = db.data["sessions"]
        doomed = [d for d, s in sessions.items() if s.get("u") == name and d != keep_session] if end_sessions else []
        for d in doomed:
            del sessions[d]
        db.touch()
    _flush_now()


def set_admin(name, admin):
    with db.lock:
        db.data["users"][name]["admin"] = bool(admin)
        db.touch()
    _flush_now()


def delete_user(name):
    """Remove the account and everything that is only theirs."""
    with db.lock:
        data = db.data
        data["users"].pop(name, None)
        for section in ("progress", "reading", "follows", "notes", "dismissed"):
            data[section].pop(name, None)
        for digest in [d for d, s in data["sessions"].items() if s.get("u") == name]:
            del data["sessions"][digest]
        for chapters in data["votes"].values():
            for versions in chapters.values():
                for voters in versions.values():
                    voters.pop(name, None)
        db.touch()
    _flush_now()


# Sessions: only the SHA-256 of the cookie token is stored.

def digest(token):
    return hashlib.sha256(token.encode()).hexdigest()


def create_session(name):
    token = secrets.token_hex(32)
    with db.lock:
        db.data["sessions"][digest(token)] = {"u": name, "t": now_ms()}
        db.touch()
    _flush_now()
    return token


def session_user(token):
    """The user record of a session token, or None."""
    if not token or len(token) > 128:
        return None
    with db.lock:
        session = db.data["sessions"].get(digest(token))
        if not session:
            return None
        user = db.data["users"].get(session.get("u"))
        return dict(user) if user else None


def end_session(token):
    with db.lock:
        db.data["sessions"].pop(digest(token), None)
        db.touch()
    _flush_now()


def prune_sessions():
    """At start: drop sessions older than a year or of users that are gone."""
    cutoff = now_ms() - SESSION_DAYS * 86_400_000
    with db.lock:
        sessions = db.data["sessions"]
        stale = [d for d, s in sessions.items()
                 if not isinstance(s, dict) or s.get("u") not in db.data["users"] or s.get("t", 0) < cutoff]
        for d in stale:
            del sessions[d]
        if stale:
            db.touch()
    return len(stale)


def unread_count(name):
    with db.lock:
        return sum(1 for note in db.data["notes"].get(name, []) if not note.get("read"))


# Settings

def get_settings(name):
    with db.lock:
        return merged_settings(db.data["users"][name].get("settings"))


def update_settings(name, changes):
    """Apply already validated changes; returns the full settings."""
    with db.lock:
        user = db.data["users"][name]
        current = user.setdefault("settings", {})
        for key, value in changes.items():
            if key == "zoom":
                current["zoom"] = {**current.get("zoom", {}), **value}
            else:
                current[key] = value
        db.touch()
        return merged_settings(current)
