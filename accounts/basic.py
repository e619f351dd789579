"""HTTP Basic for reading apps: the same accounts and the same rate limit as the sign-in form
(rules.verify), with successful checks remembered in memory.

Some apps send Basic with every page image; a password hash costs ~0.6 s and 128 MiB, so a check
that succeeded is remembered for an hour, keyed by an HMAC of name and password under a key made
at start (the memory never holds a password). A remembered check counts only while the account
still has the same password hash: a password change or a deleted account ends it at once. Only
checks that are not remembered count towards the limit.
"""
import base64
import binascii
import hashlib
import hmac
import secrets
import threading
import time

from . import rules, users

TTL = 3600
MAX_ENTRIES = 4096
_key = secrets.token_bytes(32)
_cache = {}  # hmac → (name, password hash, expires monotonic)
_lock = threading.Lock()


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
    return hmac.new(_key, f"{name}\0{password}".encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()


def remembered(name, password):
    """The user record when this name and password were checked lately and still hold, else None."""
    key = cache_key(name, password)
    with _lock:
        entry = _cache.get(key)
    if entry is None:
        return None
    user = users.get_user(entry[0])
    if entry[2] > time.monotonic() and user and hmac.compare_digest(user["hash"], entry[1]):
        return user
    with _lock:
        _cache.pop(key, None)
    return None


def authenticate(name, password, address):
    """The user record for Basic credentials; WrongCredentials, RateLimited or Unavailable as
    rules.verify raises them (only for checks that are not remembered)."""
    user = remembered(name, password)
    if user is not None:
        return user
    user = rules.verify(name, password, address)
    with _lock:
        if len(_cache) >= MAX_ENTRIES:
            now = time.monotonic()
            for k in [k for k, e in _cache.items() if e[2] <= now] or list(_cache)[: MAX_ENTRIES // 4]:
                del _cache[k]
        _cache[cache_key(name, password)] = (user["name"], user["hash"], time.monotonic() + TTL)
    return user


def forget_all():
    with _lock:
        _cache.clear()
