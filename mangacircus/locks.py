"""One writer per state tree: an exclusive flock on a lock file that names its owner."""
import fcntl
import os
from pathlib import Path

_held = {}


class LockHeld(Exception):
    pass


def hold(path, what):
    """Take the lock at `path` for the life of this process, or raise LockHeld naming the owner."""
    path = Path(path)
    if str(path) in _held:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    f = open(path, "a+")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        f.seek(0)
        owner = f.read().strip() or "unknown"
        f.close()
        raise LockHeld(
            f"another {what} already runs on {path.parent} (pid {owner}, lock {path}); "
            "stop it first: two writers would overwrite each other's changes"
        ) from None
    f.seek(0)
    f.truncate()
    f.write(str(os.getpid()))
    f.flush()
    _held[str(path)] = f


def release_all():
    for f in _held.values():
        f.close()
    _held.clear()


def is_held(path):
    """Whether some process holds the lock at `path` now (this one included)."""
    path = Path(path)
    if str(path) in _held:
        return True
    try:
        f = open(path, "r")
    except FileNotFoundError:
        return False
    with f:
        try:
            fcntl.flock(f, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(f, fcntl.LOCK_UN)
        return False
