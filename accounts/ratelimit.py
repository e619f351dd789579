"""Failed password checks, limited three ways so that neither invented names nor many addresses
get around the limit:

- 10 per account name per client address per 15 minutes,
- 30 per client address, whatever the names, per 15 minutes,
- 100 per account name, from whatever addresses, per day.

A check is counted before its hash, so parallel requests cannot overshoot, and given back when the
password was right or no hash was computed. Names count whether or not such an account exists.
"""
import threading
from collections import deque

from . import users

LIMITS = {"pair": (10, 15 * 60), "address": (30, 15 * 60), "account": (100, 86_400)}

_hits = {}  # (kind, ...) -> deque of monotonic times
_lock = threading.Lock()


def _keys(account, address):
    name = users.fold(account)  # one name whatever its case or width
    return ("pair", name, address), ("address", address), ("account", name)


def take(account, address, now):
    """Count one password check at `now`. Returns 0 when allowed, else the seconds until it is."""
    keys = _keys(account, address)
    with _lock:
        wait = 0
        for key in keys:
            limit, window = LIMITS[key[0]]
            hits = _hits.get(key)
            while hits and hits[0] <= now - window:
                hits.popleft()
            if hits and len(hits) >= limit:
                wait = max(wait, int(hits[0] + window - now) + 1)
        if wait:
            return wait
        for key in keys:
            _hits.setdefault(key, deque()).append(now)
        if len(_hits) > 100_000:  # bound memory under a spray of invented names and addresses
            _drop_stale(now)
        return 0


def give_back(account, address, now):
    """Undo take(account, address, now): the password was right, or it was never checked."""
    with _lock:
        for key in _keys(account, address):
            hits = _hits.get(key)
            if hits and now in hits:
                hits.remove(now)


def _drop_stale(now):
    for key in [k for k, hits in _hits.items() if not hits or hits[-1] <= now - LIMITS[k[0]][1]]:
        del _hits[key]


def reset():
    with _lock:
        _hits.clear()
