"""At most 10 password checks per account per client address per 15 minutes."""
import threading
import time
from collections import deque

LIMIT = 10
WINDOW = 15 * 60

_hits = {}
_lock = threading.Lock()


def take(account, address, now=None):
    """Count one password check. Returns 0 when allowed, else the seconds until the next one is."""
    now = time.monotonic() if now is None else now
    key = (account.lower(), address)
    with _lock:
        hits = _hits.setdefault(key, deque())
        while hits and hits[0] <= now - WINDOW:
            hits.popleft()
        if len(hits) >= LIMIT:
            return max(1, int(hits[0] + WINDOW - now) + 1)
        hits.append(now)
        if len(_hits) > 100_000:  # bound memory under a spray of invented names
            for stale in [k for k, v in _hits.items() if not v or v[-1] <= now - WINDOW]:
                del _hits[stale]
        return 0


def reset():
    with _lock:
        _hits.clear()
