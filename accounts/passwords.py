"""scrypt password hashes with their cost stored in the hash, and a cap on concurrent hashing.

Format: scrypt$<log2 N>$<r>$<p>$<salt hex>$<key hex>. At the default N = 2^17 a hash needs
128 MiB and ~0.6 s, so at most two are computed at once. A request never waits for a slot: when
both are taken it gets Unavailable (503, Retry-After) at once. Waiting ones held request threads,
and a flood of sign-ins left none for anybody else (2.5 s for a signed-in GET /api/me).
"""
import hashlib
import hmac
import secrets
import threading

from django.conf import settings

from mangacircus.errors import Unavailable

_slots = threading.BoundedSemaphore(2)
_dummy = {}
R, P, KEY_BYTES = 8, 1, 32


def _scrypt(password, salt, log_n, r, p):
    n = 1 << log_n
    if not _slots.acquire(blocking=False):
        raise Unavailable("the server is busy checking passwords; try again in a moment", retry_after=1)
    try:
        return hashlib.scrypt(password.encode(), salt=salt, n=n, r=r, p=p,
                              maxmem=128 * r * n * 2 + (1 << 20), dklen=KEY_BYTES)
    finally:
        _slots.release()


def make_hash(password, log_n=None):
    log_n = log_n or settings.SCRYPT_LOG_N
    salt = secrets.token_bytes(16)
    key = _scrypt(password, salt, log_n, R, P)
    return f"scrypt${log_n}${R}${P}${salt.hex()}${key.hex()}"


def check(password, stored):
    """True when the password matches. Unknown users pass stored=None and still pay for a hash.
    Unavailable when no hash slot is free."""
    known = stored is not None
    try:
        scheme, log_n, r, p, salt, key = (stored if known else _dummy_hash()).split("$")
        if scheme != "scrypt":
            return False
        computed = _scrypt(password, bytes.fromhex(salt), int(log_n), int(r), int(p))
        return hmac.compare_digest(computed, bytes.fromhex(key)) and known
    except ValueError:
        return False


def needs_rehash(stored):
    return not stored.startswith(f"scrypt${settings.SCRYPT_LOG_N}${R}${P}$")


def _dummy_hash():
    if _dummy.get("cost") != settings.SCRYPT_LOG_N:
        _dummy.update(cost=settings.SCRYPT_LOG_N, hash=make_hash(secrets.token_hex(16)))
    return _dummy["hash"]
