"""scrypt password hashes with their cost stored in the hash, and a fair, bounded queue for hashing.

Format: scrypt$<log2 N>$<r>$<p>$<salt hex>$<key hex>. At the default N = 2^17 a hash needs
128 MiB and ~0.6 s, so at most two are computed at once (SLOTS). A check that finds both busy
waits its turn, first come first served, for at most MAX_WAIT seconds, and at most WAITING checks
wait at once: past either it gets Unavailable (503, Retry-After). The cap on waiters keeps request
threads free for everybody else during a flood of sign-ins (waiting ones once held every thread:
2.5 s for a signed-in GET /api/me); the wait lets 50 apps signing in at once get through in turn
instead of 48 of them being refused at once.
"""
import hashlib
import hmac
import secrets
import threading
import time
from collections import deque

from django.conf import settings
from django.utils.translation import gettext as _

from mangacircus.errors import Unavailable

SLOTS = 2
WAITING = 2  # checks waiting for a slot at once
MAX_WAIT = 5.0  # seconds a check waits for its turn at most
_dummy = {}
R, P, KEY_BYTES = 8, 1, 32


class HashQueue:
    """SLOTS hashes at once; the others in line, in order of arrival, each for at most MAX_WAIT."""

    def __init__(self, slots=SLOTS, waiting=WAITING, max_wait=MAX_WAIT):
        self.slots, self.waiting, self.max_wait = slots, waiting, max_wait
        self.busy = 0
        self.line = deque()
        self.cond = threading.Condition()

    def acquire(self):
        with self.cond:
            if self.busy < self.slots and not self.line:
                self.busy += 1
                return
            if len(self.line) >= self.waiting:
                raise Unavailable(_("the server is busy checking passwords; try again in a moment"), retry_after=1)
            ticket = object()
            self.line.append(ticket)
            deadline = time.monotonic() + self.max_wait
            try:
                while self.line[0] is not ticket or self.busy >= self.slots:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise Unavailable(_("the server is busy checking passwords; try again in a moment"),
                                          retry_after=1)
                    self.cond.wait(left)
                self.busy += 1
            finally:
                self.line.remove(ticket)
                self.cond.notify_all()

    def release(self):
        with self.cond:
            self.busy -= 1
            self.cond.notify_all()


_queue = HashQueue()


def _scrypt(password, salt, log_n, r, p):
    n = 1 << log_n
    _queue.acquire()
    try:
        return hashlib.scrypt(password.encode(), salt=salt, n=n, r=r, p=p,
                              maxmem=128 * r * n * 2 + (1 << 20), dklen=KEY_BYTES)
    finally:
        _queue.release()


def make_hash(password, log_n=None):
    log_n = log_n or settings.SCRYPT_LOG_N
    salt = secrets.token_bytes(16)
    key = _scrypt(password, salt, log_n, R, P)
    return f"scrypt${log_n}${R}${P}${salt.hex()}${key.hex()}"


def unusable_hash():
    """The hash of an account that has no password (made by a trusted proxy's sign-in): no password
    matches it, and checking one costs a hash all the same."""
    return "!" + secrets.token_hex(16)


def check(password, stored):
    """True when the password matches. Unknown users pass stored=None and still pay for a hash,
    as do accounts without a password (unusable_hash). Unavailable when no hash slot is free."""
    known = stored is not None and not stored.startswith("!")
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
