"""The `passkeys` section of db.json: the WebAuthn credentials each user signs in with.

passkeys = {"users": {name: {"handle": str, "keys": [key, ...]}}}. `handle` is the random user id
the authenticators hold (base64url, never the name, as WebAuthn asks); a key is {id, publicKey,
count, name, since, used}: the credential id and its COSE public key (base64url), the last sign
counter seen, the name the user gave it, when it was added and last used (ms). Nothing in here is
secret: a public key opens nothing without the authenticator's private key.

Adding, removing and using a key are security changes (on disk before they return).
"""
from __future__ import annotations

import secrets
from typing import Any

from django.utils.translation import gettext as _

from mangacircus import db
from mangacircus.clock import now_ms
from mangacircus.errors import Invalid, WrongCredentials

MAX_KEYS = 20
MAX_NAME = 60


def validate(data: dict[str, Any]) -> None:
    section = data.get("passkeys", {})
    if not isinstance(section.get("users", {}), dict):
        raise ValueError('"passkeys.users" must be an object')
    for name, record in section.get("users", {}).items():
        if not isinstance(record, dict) or not isinstance(record.get("keys", []), list):
            raise ValueError(f'the passkeys of "{name}" are not an object with a list of keys')


def _records() -> dict[str, dict[str, Any]]:
    users: dict[str, dict[str, Any]] = db.section("passkeys").setdefault("users", {})
    return users


def _keys(name: str) -> list[dict[str, Any]]:
    return (_records().get(name) or {}).get("keys") or []


def enabled(name: str) -> bool:
    """Whether the account has a passkey (so one counts as its second factor)."""
    with db.lock():
        return bool(_keys(name))


def listed(name: str) -> list[dict[str, Any]]:
    """{id, name, since, used} of each of the user's passkeys, for Settings → Profile."""
    with db.lock():
        return [{k: key.get(k) for k in ("id", "name", "since", "used")} for key in _keys(name)]


def user_handle(name: str) -> str:
    """The user's handle (made on first use): what a new passkey stores as the user's id."""
    with db.lock():
        record = _records().setdefault(name, {"keys": []})
        if "handle" not in record:
            record["handle"] = secrets.token_urlsafe(16)
            db.touch()
        return str(record["handle"])


def credential_ids(name: str) -> list[str]:
    with db.lock():
        return [str(key["id"]) for key in _keys(name)]


def find(credential_id: str) -> tuple[str, dict[str, Any]] | None:
    """(owner, a copy of the key) of a credential id, or None."""
    with db.lock():
        for name, record in _records().items():
            for key in record.get("keys") or []:
                if key.get("id") == credential_id:
                    return name, dict(key)
    return None


def clean_name(label: Any) -> str:
    label = " ".join(label.split()) if isinstance(label, str) else ""
    if not label:
        raise Invalid(_("give the passkey a name, such as the device that holds it"))
    if len(label) > MAX_NAME:
        raise Invalid(_("the passkey's name is longer than %(max_name)s characters") % {"max_name": MAX_NAME})
    return label


def add(name: str, label: str, credential_id: str, public_key: str, count: int) -> None:
    """Keep a new passkey of `name` (under a security change the caller may widen)."""
    label = clean_name(label)
    with db.security_change("passkeys"):
        if any(key.get("id") == credential_id for record in _records().values() for key in record.get("keys") or []):
            raise Invalid(_("this passkey is registered already"))
        record = _records().setdefault(name, {"keys": []})
        if len(record.setdefault("keys", [])) >= MAX_KEYS:
            raise Invalid(_("you have %(max_keys)s passkeys already; remove one first") % {"max_keys": MAX_KEYS})
        record["keys"].append({"id": credential_id, "publicKey": public_key, "count": count, "name": label,
                               "since": now_ms(), "used": None})


def record_use(name: str, credential_id: str, count: int) -> None:
    """Keep the sign counter of a verified assertion. Checked again here, under the lock, so two
    sign-ins racing with one counter value cannot both pass (authenticators that keep no counter
    send 0 every time, which WebAuthn allows)."""
    with db.security_change("passkeys"):
        key = next((k for k in _keys(name) if k.get("id") == credential_id), None)
        if key is None:
            raise WrongCredentials(_("this passkey was removed; sign in another way"))
        if (count or key.get("count")) and count <= key.get("count", 0):
            raise WrongCredentials(_("this passkey's sign counter went back: it may have been copied; sign in "
                                     "another way and remove it in Settings → Profile"))
        key["count"], key["used"] = count, now_ms()


def remove(name: str, credential_id: str) -> str:
    """Remove one of the user's passkeys; its name."""
    with db.security_change("passkeys"):
        keys = _keys(name)
        key = next((k for k in keys if k.get("id") == credential_id), None)
        if key is None:
            raise Invalid(_("no such passkey"))
        keys.remove(key)
        return str(key.get("name"))


def remove_all(name: str) -> bool:
    """Remove every passkey of the user (a reset for a lost device); whether there was one."""
    with db.security_change("passkeys"):
        record = _records().pop(name, None)
        return bool(record and record.get("keys"))


def forget_user(name: str) -> None:
    """The account is deleted (events.user_deleted, under db.lock())."""
    _records().pop(name, None)
