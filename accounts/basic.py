"""HTTP Basic for reading apps: the same accounts and the same rate limit as the sign-in form
(rules.verify), with successful checks remembered.

Some apps send Basic with every page image; a password hash costs ~0.6 s and 128 MiB, so a check
that succeeded is remembered for an hour in db.json's `basic` section, which this module owns:
basic[HMAC(key, name, password)] = {u: name, h: a digest of the account's password hash, x:
expires ms}. The key is derived from the server's secret key (DATA/secret_key, never in a backup),
so the section says nothing about a password without it, and a restart keeps the checks: 50 apps
coming back after a restart need no hash at all. A remembered check counts only while the account
still has the same password hash: a password change or a deleted account ends it at once. Only
checks that are not remembered count towards the limit.

While one request checks a name and password, others with the same credentials (an app fetching
several pages at once) wait for that check instead of hashing again.

The trade-off: whoever holds all of DATA, secret key included, can test guesses of a password
checked within the hour at HMAC speed instead of scrypt's. API keys (accounts/apikeys.py) need no
password hash at all; docs/apps.md recommends them for apps.
"""
import base64
import binascii
import functools
import hashlib
import hmac
import threading

from django.conf import settings

from mangacircus import db
from mangacircus.clock import now_ms
from mangacircus.errors import WrongCredentials

from . import rules, users

TTL = 3600
MAX_ENTRIES = 4096
_checking = {}  # cache key → Event, set when the check under way ends
_lock = threading.Lock()


def _key():
    return _derived_key(settings.SECRET_KEY)


@functools.lru_cache(maxsize=4)
def _derived_key(secret):
    """Derived once per secret key, not on every request that carries Basic."""
    return hmac.new(secret.encode(), b"mangacircus basic checks", hashlib.sha256).digest()


def parse(header):
    """(name, password) from an `Authorization: Basic …` header, or None. UTF-8, else ISO-8859-1
    (OkHttp's encoding); split at the first colon."""
    scheme, _, value = (header or "").partition(" ")
    if scheme.lower() != "basic" or not value or len(value) > 4096:
        return None
    try:
        raw = base64.b64decode(value.strip(), validate=True)
    except (binascii.Error, ValueError):
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    name, colon, password = text.partition(":")
    return (name, password) if colon else None


def cache_key(name, password):
    return hmac.new(_key(), f"{name}\0{password}".encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()


def _hash_digest(password_hash):
    return hashlib.sha256(password_hash.encode()).hexdigest()[:32]


def remembered(name, password):
    """The user record when this name and password were checked lately and still hold, else None."""
    key = cache_key(name, password)
    with db.lock():
        entry = db.section("basic").get(key)
        if entry is None:
            return None
        user = users.get_user(entry.get("u"))
        if (entry.get("x", 0) > now_ms() and user
                and hmac.compare_digest(_hash_digest(user["hash"]), entry.get("h", ""))):
            return user
        del db.section("basic")[key]
        db.touch()
    return None


def _remember(key, user):
    with db.lock():
        checks = db.section("basic")
        if len(checks) >= MAX_ENTRIES:
            now = now_ms()
            for k in [k for k, e in checks.items() if e.get("x", 0) <= now] or list(checks)[: MAX_ENTRIES // 4]:
                del checks[k]
        checks[key] = {"u": user["name"], "h": _hash_digest(user["hash"]), "x": now_ms() + TTL * 1000}
        db.touch()


def authenticate(name, password, address):
    """The user record for Basic credentials; WrongCredentials, RateLimited or Unavailable as
    rules.verify raises them (only for checks that are not remembered). WrongCredentials for an
    account with a second factor, which Basic cannot carry: after the password check, so the answer
    tells nothing to whoever does not know the password, and remembered, so an app that keeps trying
    costs no hash."""
    return _without_second_factor(_authenticate(name, password, address))


def _without_second_factor(user):
    if rules.has_second_factor(user["name"]):  # a code app or a passkey
        raise WrongCredentials("this account signs in with a second factor, which apps cannot send with a password: "
                               "use an API key (Settings → User → Apps)")
    return user


def _authenticate(name, password, address):
    key = cache_key(name, password)
    for _round in range(3):
        user = remembered(name, password)
        if user is not None:
            return user
        with _lock:
            running = _checking.get(key)
            if running is None:
                running = _checking[key] = threading.Event()
                break
        running.wait(30)  # the same credentials are being checked: take that check's result
    else:
        running = threading.Event()  # still no result: check these credentials alone
    try:
        user = rules.verify(name, password, address)
        _remember(key, user)
        return user
    finally:
        with _lock:
            if _checking.get(key) is running:
                del _checking[key]
        running.set()


def forget_user(name):
    """The account is deleted (events.user_deleted, under db.lock())."""
    checks = db.section("basic")
    for k in [k for k, e in checks.items() if e.get("u") == name]:
        del checks[k]


def forget_all():
    """Forget every remembered check (they are written with db.json's next flush)."""
    with db.lock():
        db.section("basic").clear()
        db.touch()


def prune():
    """At start: drop the remembered checks that have expired."""
    now = now_ms()
    with db.lock():
        checks = db.section("basic")
        stale = [k for k, e in checks.items() if not isinstance(e, dict) or e.get("x", 0) <= now]
        for k in stale:
            del checks[k]
        if stale:
            db.touch()
