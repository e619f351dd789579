"""The `users` section of db.json: accounts, their roles and their stored settings.

users[name] = {name, admin, created, hash, settings, email?, oidc?}. Role, password and account changes are
security changes (db.security_change()): on disk before they return, or undone and Unavailable.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Any, NotRequired, TypedDict, TypeVar, cast

from django.utils.translation import gettext as _

from mangacircus import db
from mangacircus.clock import now_ms
from mangacircus.errors import Conflict, Invalid

NAME_RE = re.compile(r"^[^\W_][\w.-]{0,31}$")
T = TypeVar("T")


class User(TypedDict):
    """users[name] in db.json. get_user() answers a copy, and so do the session and API-key lookups."""
    name: str                   # as spelt when the account was made
    admin: bool
    created: int                # ms
    hash: str                   # the password's hash (accounts/passwords.py)
    settings: dict[str, Any]    # only what the user changed; the defaults are the reader's (reader/prefs.py)
    email: NotRequired[str]     # set by an admin: an OpenID sign-in with this address, verified, links to it
    oidc: NotRequired[str]      # the OpenID subject signed in as this account: "<issuer> <sub>"


def validate(data: dict[str, Any]) -> None:
    for name, user in data.get("users", {}).items():
        if not isinstance(user, dict) or not isinstance(user.get("hash"), str):
            raise ValueError(f'user "{name}" has no password hash')




def normalise(name: str) -> str:
    """The NFKC form of a name: full-width "ａｌｉｃｅ" and "ﬁ" ligatures become "alice" and "fi",
    so that names that look alike are one name (docs/accounts.md)."""
    return unicodedata.normalize("NFKC", name)


def fold(name: str) -> str:
    """What two names must differ in to be two accounts: NFKC, then case (NFKC again after
    casefold, which can undo it: Unicode's NFKC_Casefold)."""
    return unicodedata.normalize("NFKC", normalise(name).casefold())


def _stored_name(users: dict[str, User], name: str | None) -> str | None:
    """The name as stored for `name` as typed: the exact spelling first, then its NFKC form, else
    the one account whose name differs only by case or width. Files from before names were unique
    that way may hold two such accounts; then only the exact spelling finds either (docs/accounts.md)."""
    if not isinstance(name, str):
        return None
    for spelling in (name, normalise(name)):
        if spelling in users:
            return spelling
    folded = fold(name)
    matches = [stored for stored in users if fold(stored) == folded]
    return matches[0] if len(matches) == 1 else None


def look_alikes() -> list[list[str]]:
    """Groups of accounts whose names differ only by case or width, from files written before
    the rule: each signs in only with its exact spelling. Health lists them for an admin."""
    with db.lock():
        groups: dict[str, list[str]] = {}
        for stored in db.section("users"):
            groups.setdefault(fold(stored), []).append(stored)
    return sorted(sorted(group) for group in groups.values() if len(group) > 1)


def stored_name(name: str) -> str | None:
    """The spelling chosen at creation of the account `name` (any case), or None."""
    with db.lock():
        return _stored_name(db.section("users"), name)


def get_user(name: str) -> User | None:
    """The account named `name` in any case (its record keeps the spelling chosen at creation)."""
    with db.lock():
        users = db.section("users")
        user = users.get(_stored_name(users, name))  # type: ignore[arg-type]  # None: no such account
        return cast(User, dict(user)) if user else None


def exists(name: str | None) -> bool:
    with db.lock():
        return _stored_name(db.section("users"), name) is not None


def user_count() -> int:
    with db.lock():
        return len(db.section("users"))


# Registered by the apps that restrict what a user sees (reader/access.py).
_restricted_checks: list[Callable[[str], bool]] = []


def on_restricted_check(check: Callable[[str], bool]) -> None:
    _restricted_checks.append(check)


def is_restricted(name: str) -> bool:
    return any(check(name) for check in _restricted_checks)


def list_users() -> list[dict[str, Any]]:
    with db.lock():
        return [
            {"name": u["name"], "admin": bool(u.get("admin")), "created": u.get("created"),
             "email": u.get("email", ""), "oidc": bool(u.get("oidc"))}
            for u in sorted(db.section("users").values(), key=lambda u: u["name"].lower())
        ]


def check_new_name(name: object) -> str:
    """The name to store for a new account (its NFKC form); Invalid or Conflict when it cannot be."""
    if not isinstance(name, str) or not NAME_RE.match(normalise(name)):
        raise Invalid(_("name must be 1-32 letters, digits, '.', '-' or '_', starting with a letter or digit"))
    name = normalise(name)
    with db.lock():
        if any(fold(existing) == fold(name) for existing in db.section("users")):
            raise Conflict(_("the name %(name)s is taken") % {"name": name})
    return name


def create_user(name: str, password_hash: str, admin: bool = False) -> None:
    with db.security_change("users"):
        db.section("users")[name] = {
            "name": name, "admin": bool(admin), "created": now_ms(), "hash": password_hash, "settings": {},
        }


def set_password_hash(name: str, password_hash: str) -> None:
    with db.security_change("users"):
        db.section("users")[name]["hash"] = password_hash


def set_admin(name: str, admin: bool) -> None:
    with db.security_change("users"):
        db.section("users")[name]["admin"] = bool(admin)


def delete_user(name: str) -> None:
    """Remove the account and, through the owners' hooks (db.on_user_deleted), all that is only
    theirs: one change, undone in every section when it cannot be written."""
    with db.security_change():
        db.section("users").pop(name, None)
        db.forget_user(name)


def set_email(name: str, email: str) -> None:
    """The account's e-mail address ("" removes it); Conflict when another account has it."""
    with db.security_change("users"):
        users = db.section("users")
        if email and any(u.get("email", "").casefold() == email.casefold() for n, u in users.items() if n != name):
            raise Conflict(_("another account has the e-mail address %(email)s") % {"email": email})
        if email:
            users[name]["email"] = email
        else:
            users[name].pop("email", None)


def by_email(email: str) -> User | None:
    """The one account whose e-mail address is `email` (in any case), or None."""
    with db.lock():
        found = [u for u in db.section("users").values() if email and u.get("email", "").casefold() == email.casefold()]
        return cast(User, dict(found[0])) if len(found) == 1 else None


def set_oidc_subject(name: str, subject: str | None) -> None:
    """Link the account to an OpenID subject ("<issuer> <sub>"), or unlink it (None)."""
    with db.security_change("users"):
        user = db.section("users")[name]
        if subject:
            user["oidc"] = subject
        else:
            user.pop("oidc", None)


def by_oidc_subject(subject: str) -> User | None:
    with db.lock():
        found = next((u for u in db.section("users").values() if u.get("oidc") == subject), None)
        return cast(User, dict(found)) if found else None


def stored_settings(name: str) -> dict[str, Any]:
    """A copy of the user's stored settings (only what they changed; defaults are the reader's)."""
    with db.lock():
        return dict(db.section("users")[name].get("settings") or {})


def change_settings(name: str, change: Callable[[dict[str, Any]], T]) -> T:
    """Apply `change(settings_dict)` under the lock and return its result."""
    with db.lock():
        current = db.section("users")[name].setdefault("settings", {})
        result = change(current)
        db.touch()
        return result
