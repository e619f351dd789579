"""The `apikeys` section of db.json: apikeys[sha256(key)] = {u, label, t (created ms), used, device}.

Per-user keys for reading apps (Settings → User → Apps). A key is shown once, when made; only its
SHA-256 is stored, so a copy of db.json holds none. Creating and revoking are security changes
(on disk before they return); a revoked key stops working at once, as every request looks it up.
`used`/`device` (the last use, at most once a minute per key) are plain changes.
"""
from __future__ import annotations

import hashlib
import secrets
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from mangacircus import db
from mangacircus.clock import now_ms
from mangacircus.errors import Invalid, NotFound

from . import sessions, users

if TYPE_CHECKING:
    from .users import User

PREFIX = "mc_"
MAX_KEYS = 20
MAX_LABEL = 60
USED_EVERY_MS = 60_000


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def forget_user(name: str) -> None:
    keys = db.section("apikeys")
    for d in [d for d, k in keys.items() if k.get("u") == name]:
        del keys[d]




def key_id(key_digest: str) -> str:
    """The short public id of a key (the start of its digest), used to revoke it."""
    return key_digest[:12]


def create(name: str, label: str | None) -> str:
    """A new key for the user: returns the key itself, which is never stored and never shown again."""
    label = (label or "").strip()
    if not label or len(label) > MAX_LABEL:
        raise Invalid(_("name the key (the app or device it is for), 1 to %(max_label)s characters")
                      % {"max_label": MAX_LABEL})
    with db.lock():
        if sum(1 for k in db.section("apikeys").values() if k.get("u") == name) >= MAX_KEYS:
            raise Invalid(_("you have %(max_keys)s keys already; revoke one first") % {"max_keys": MAX_KEYS})
    key = PREFIX + secrets.token_urlsafe(32)
    with db.security_change("apikeys"):
        db.section("apikeys")[digest(key)] = {"u": name, "label": label, "t": now_ms(), "used": None, "device": None}
    return key


def revoke(name: str, kid: str) -> None:
    """Remove the key and end every session an app opened with it, as one change on disk."""
    with db.security_change("apikeys", "sessions"):
        keys = db.section("apikeys")
        found = [d for d, k in keys.items() if k.get("u") == name and key_id(d) == kid]
        if not found:
            raise NotFound(_("no such key"))
        for d in found:
            del keys[d]
        sessions.end_key_sessions(name, kid)


def list_keys(name: str) -> list[dict[str, Any]]:
    """The user's keys, newest first: {id, label, created, used, device}."""
    with db.lock():
        items = [{"id": key_id(d), "label": k.get("label"), "created": k.get("t"), "used": k.get("used"),
                  "device": k.get("device")} for d, k in db.section("apikeys").items() if k.get("u") == name]
    return sorted(items, key=lambda k: -(k["created"] or 0))


def key_user(key: str | None, device: str = "") -> User | None:
    """The user record of an API key, or None; notes when and from which device it was used."""
    if not key or not key.startswith(PREFIX) or len(key) > 128 or not db.is_open():
        return None
    d = digest(key)
    with db.lock():
        entry = db.section("apikeys").get(d)
        if entry is None:
            return None
        now = now_ms()
        if (entry.get("used") or 0) < now - USED_EVERY_MS or entry.get("device") != device[:120]:
            entry["used"], entry["device"] = now, device[:120]
            db.touch()
        name = entry.get("u")
    return users.get_user(name)
