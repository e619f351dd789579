"""The `twofactor` section of db.json: time-based codes (TOTP, RFC 6238) and recovery codes.

twofactor = {"users": {name: record}, "requireForAdmins": bool}. A record is
{pending, pendingAt} while an enrolment waits for its first code, then {secret, since, last, salt,
recovery}: `secret` is the base32 key the authenticator app holds (it has to be readable to compute
codes, so db.json must be kept as private as the password hashes it also holds); `last` is the
time step of the last code accepted, so a code works once, and no code older than it works at all;
`recovery` holds one HMAC-SHA256 (keyed by `salt`) per unused recovery code. A recovery code is 12
random characters (~59 bits), so a fast hash is as good as a slow one for it.

Turning a second factor on or off, using a code and the admins' rule are security changes (on disk
before they return). Nothing here ever logs a secret or a code.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from typing import Any

import pyotp
from django.utils.translation import gettext as _

from mangacircus import db
from mangacircus.clock import now_ms
from mangacircus.errors import Invalid

ISSUER = "MangaCircus"
RECOVERY_CODES = 10
RECOVERY_ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789"  # no 0, O, 1, I, L or U to misread
RECOVERY_LENGTH = 12
WINDOW = 1  # time steps of 30 s accepted before and after the current one, for clocks that drift
PENDING_MS = 3_600_000  # an enrolment not confirmed within an hour starts over with a new secret
clock: Callable[[], float] = time.time  # the codes' time, in seconds; a test replaces it to move time without sleeping


def validate(data: dict[str, Any]) -> None:
    section = data.get("twofactor", {})
    if not isinstance(section.get("users", {}), dict):
        raise ValueError('"twofactor.users" must be an object')
    for name, record in section.get("users", {}).items():
        if not isinstance(record, dict):
            raise ValueError(f'the second factor of "{name}" is not an object')


def _records() -> dict[str, dict[str, Any]]:
    users: dict[str, dict[str, Any]] = db.section("twofactor").setdefault("users", {})
    return users


def _enabled(record: dict[str, Any] | None) -> bool:
    return bool(record and isinstance(record.get("secret"), str))


def enabled(name: str) -> bool:
    """Whether the account signs in with a second factor."""
    with db.lock():
        return _enabled(_records().get(name))


def status(name: str) -> dict[str, Any]:
    """{enabled, since, recoveryLeft, pending}: what Settings → Profile shows (no secret)."""
    with db.lock():
        record = _records().get(name) or {}
        return {"enabled": _enabled(record), "since": record.get("since"),
                "recoveryLeft": len(record.get("recovery") or []), "pending": "pending" in record}


def start_enrolment(name: str) -> str:
    """A new secret for the user's app, kept until a first code confirms it; the same one while the
    enrolment is under way (a reload shows the same QR code)."""
    with db.lock():
        record = _records().get(name) or {}
        if _enabled(record):
            raise Invalid(_("two-factor sign-in is on already; turn it off first to set up another device"))
        if record.get("pending") and record.get("pendingAt", 0) > now_ms() - PENDING_MS:
            return str(record["pending"])
        secret = pyotp.random_base32()
        _records()[name] = {"pending": secret, "pendingAt": now_ms()}
        db.touch()
        return secret


def cancel_enrolment(name: str) -> None:
    """Forget a set-up under way (a second factor that is on stays on)."""
    with db.lock():
        if not _enabled(_records().get(name)) and _records().pop(name, None) is not None:
            db.touch()


def pending_secret(name: str) -> str | None:
    with db.lock():
        record = _records().get(name) or {}
        fresh = record.get("pending") and record.get("pendingAt", 0) > now_ms() - PENDING_MS
        return str(record["pending"]) if fresh and not _enabled(record) else None


def provisioning_uri(name: str, secret: str) -> str:
    """The otpauth:// address the QR code holds (issuer and account name shown by the app)."""
    return pyotp.TOTP(secret).provisioning_uri(name=name, issuer_name=ISSUER)


def _plain(code: str) -> str:
    return "".join(code.split()).replace("-", "").upper()


def _digest(salt: str, code: str) -> str:
    return hmac.new(bytes.fromhex(salt), _plain(code).encode(), hashlib.sha256).hexdigest()


def _new_recovery(record: dict[str, Any]) -> list[str]:
    """Fresh recovery codes into `record` (replacing any left); returns them, shown once."""
    codes = ["".join(secrets.choice(RECOVERY_ALPHABET) for _ in range(RECOVERY_LENGTH)) for _ in range(RECOVERY_CODES)]
    codes = ["-".join(c[i:i + 4] for i in range(0, RECOVERY_LENGTH, 4)) for c in codes]
    record["salt"] = secrets.token_hex(16)
    record["recovery"] = [_digest(record["salt"], c) for c in codes]
    return codes


def _time_step(secret: str, code: str, at: float) -> int | None:
    """The time step within WINDOW of `at` whose code `code` is, or None."""
    totp = pyotp.TOTP(secret)
    now = totp.timecode(at)
    for step in range(now - WINDOW, now + WINDOW + 1):
        if hmac.compare_digest(totp.generate_otp(step), code):
            return step
    return None


def confirm(name: str, code: str) -> list[str]:
    """Turn the second factor on with the first code from the app; returns the recovery codes."""
    code = _plain(code or "")
    with db.security_change("twofactor"):
        record = _records().get(name) or {}
        secret = record.get("pending") if not _enabled(record) else None
        if not secret or record.get("pendingAt", 0) <= now_ms() - PENDING_MS:
            raise Invalid(_("start the set-up again: it was not finished within an hour"))
        step = _time_step(secret, code, clock()) if code.isdigit() else None
        if step is None:
            raise Invalid(_("that code is not the app's current one; check the phone's clock and try the next code"))
        record = {"secret": secret, "since": now_ms(), "last": step}
        codes = _new_recovery(record)
        _records()[name] = record
    return codes


def use_code(name: str, code: str) -> bool:
    """Whether `code` is a current code of the user's app or one of their unused recovery codes;
    either is used up by this (a code's time step and all before it, a recovery code for good)."""
    code = _plain(code or "") if isinstance(code, str) else ""
    if not code or len(code) > 64:
        return False
    with db.security_change("twofactor"):
        record = _records().get(name)
        if not record or not _enabled(record):
            return False
        if code.isdigit():
            step = _time_step(record["secret"], code, clock())
            if step is None or step <= record.get("last", -1):
                return False
            record["last"] = step
            return True
        digest = _digest(record["salt"], code)
        left = [d for d in record.get("recovery") or [] if not hmac.compare_digest(d, digest)]
        if len(left) == len(record.get("recovery") or []):
            return False
        record["recovery"] = left
        return True


def new_recovery_codes(name: str) -> list[str]:
    """Replace the user's recovery codes with ten new ones (the old ones stop working)."""
    with db.security_change("twofactor"):
        record = _records().get(name)
        if not _enabled(record):
            raise Invalid(_("two-factor sign-in is off"))
        assert record is not None
        return _new_recovery(record)


def turn_off(name: str) -> bool:
    """Remove the user's second factor (their own choice, or a reset for a lost device);
    whether there was one."""
    with db.security_change("twofactor"):
        return _enabled(_records().pop(name, None))


def required_for_admins() -> bool:
    with db.lock():
        return bool(db.section("twofactor").get("requireForAdmins"))


def require_for_admins(on: bool) -> None:
    with db.security_change("twofactor"):
        db.section("twofactor")["requireForAdmins"] = bool(on)


def forget_user(name: str) -> None:
    """The account is deleted (events.user_deleted, under db.lock())."""
    _records().pop(name, None)
