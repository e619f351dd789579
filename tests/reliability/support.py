"""Shared helpers of the reliability battery (docs/reliability.md): the profile's counts, the
figures each case reports, scratch mounts, a progress burst with its acknowledgements, db.json
snapshots and small statistics.

REL_PROFILE=ci (the default) runs the CI-sized counts, REL_PROFILE=full the larger ones.
"""
import contextlib
import errno
import hashlib
import http.client
import os
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import orjson
import pytest

PROFILE = os.environ.get("REL_PROFILE", "ci").strip().lower() or "ci"
if PROFILE not in ("ci", "full"):
    raise pytest.UsageError(f"REL_PROFILE={PROFILE!r}: expected ci or full")
FULL = PROFILE == "full"


def sized(ci, full):
    """The count (or duration) of the running profile."""
    return full if FULL else ci


# Chapters of the tiny tree of tests/conftest.py, for progress writes.
SEEDS = ("Moon Garden", "1/1")
SCROLL = ("Long Scroll", "0/1")


@dataclass
class Figure:
    case: str
    what: str
    count: str
    criterion: str
    measured: str
    result: str


class Figures:
    """What each case measured, printed as a table at the end of the run (conftest.py)."""

    def __init__(self):
        self.rows = []
        self.started = time.monotonic()
        self.durations = {}  # nodeid → seconds (setup + call + teardown)

    def check(self, case, what, count, criterion, measured, ok):
        """Record the case's figure, then assert its pass criterion."""
        result = "pass" if ok else "FAIL"
        self.rows.append(Figure(case, what, str(count), criterion, measured, result))
        assert ok, f"{case} {what}: measured {measured}; criterion: {criterion}"

    def skip(self, case, what, reason):
        """Record the case as skipped with its reason, and skip the test with the same reason."""
        self.rows.append(Figure(case, what, "-", "-", "-", f"skipped: {reason}"))
        pytest.skip(reason)


# Scratch mounts (tmpfs, a loop-mounted ext4 image, a read-only bind), root only.

class CannotMount(Exception):
    """The machine does not allow the mount a case needs (not root, no loop devices...)."""


def _run(*args):
    done = subprocess.run(args, capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise CannotMount(f"`{' '.join(map(str, args))}` failed: {(done.stderr or done.stdout).strip()}")


def unmount(where):
    for args in (("umount", where), ("umount", "-l", where)):
        if subprocess.run(args, capture_output=True, timeout=60).returncode == 0:
            return


@contextlib.contextmanager
def mounted(kind, where, size=None):
    """`where` with a file system mounted on it for the block: "tmpfs" or "ext4" (a loop-mounted
    image of `size`), or "ro-bind" (`where` itself again, read-only, over what is there).
    CannotMount says why when this machine does not allow it."""
    where = Path(where)
    if os.geteuid() != 0:
        raise CannotMount("not root: mounting needs CAP_SYS_ADMIN")
    where.mkdir(parents=True, exist_ok=True)
    image = where.with_name(where.name + ".img")
    try:
        if kind == "tmpfs":
            _run("mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", where)
        elif kind == "ext4":
            _run("truncate", "-s", size, image)
            _run("mkfs.ext4", "-q", "-F", image)
            _run("mount", "-o", "loop", image, where)
        elif kind == "ro-bind":
            _run("mount", "--bind", where, where)
            try:
                _run("mount", "-o", "remount,bind,ro", where)
            except CannotMount:
                unmount(where)
                raise
        else:
            raise ValueError(kind)
    except (OSError, subprocess.SubprocessError) as e:
        raise CannotMount(f"mount -t {kind}: {e}") from None
    try:
        yield where
    finally:
        unmount(where)
        image.unlink(missing_ok=True)


def fill(directory, name="filler"):
    """Write a file in `directory` until the file system is full; returns its path."""
    path = Path(directory) / name
    block = b"\0" * 65536
    with open(path, "wb", buffering=0) as f:
        for size in (65536, 4096, 512, 1):
            try:
                while True:
                    f.write(block[:size])
            except OSError as e:
                if e.errno != errno.ENOSPC:
                    raise
    return path


# The state of db.json.

def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def read_db(data):
    return orjson.loads((Path(data) / "db.json").read_bytes())


def saved_progress(data, user, chapter):
    manga, cid = chapter
    return read_db(data)["progress"].get(user, {}).get(manga, {}).get(cid)


# A progress burst: POST /api/progress as fast as answers come, remembering each acknowledgement.

@dataclass
class Ack:
    at: float  # time.monotonic() when the 200 arrived
    t: int  # the entry's "t" as the server stored it (ms): increases with every save
    chapter: tuple


def chapter_version(client, chapter):
    """(version name, page count) of a chapter's first version."""
    manga, cid = chapter
    status, _, data = client.get(f"/api/chapter?m={quote(manga)}&c={quote(cid)}")
    assert status == 200, data
    version = data["versions"][0]
    return version["name"], version["pages"]


def progress_body(chapter, version, page):
    name, pages = version
    return {"m": chapter[0], "c": chapter[1], "v": name, "p": page % pages, "n": pages, "done": False, "shift": []}


def post_progress(client, chapter, version, page):
    """One POST /api/progress: (status, the saved entry's t or None)."""
    status, _, data = client.post("/api/progress", progress_body(chapter, version, page))
    return status, (data["progress"]["t"] if status == 200 else None)


def burst(client, chapter, version, stop, acks, errors=None):
    """Save progress until `stop` is set or the connection fails; every 200 goes into `acks`."""
    i = 0
    while not stop.is_set():
        i += 1
        try:
            status, t = post_progress(client, chapter, version, i)
        except (OSError, http.client.HTTPException):
            return
        if status == 200:
            acks.append(Ack(time.monotonic(), t, chapter))
        elif errors is not None:
            errors.append(status)


def loss_window(acks, saved_t, killed_at):
    """Seconds between the kill and the oldest acknowledgement that is not on disk (0: none lost)."""
    lost = [a.at for a in acks if a.t > saved_t and a.at <= killed_at]
    return killed_at - min(lost) if lost else 0.0


# Processes and numbers.

def worker_pid(server):
    """The gunicorn worker of a bench.server.Server (the master's only child)."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            children = Path(f"/proc/{server.proc.pid}/task/{server.proc.pid}/children").read_text().split()
        except OSError:
            children = []
        if children:
            return int(children[0])
        time.sleep(0.05)
    raise AssertionError("serve has no worker process")


def rss_mb(pid):
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def percentile(values, q):
    """The q-th percentile (0-100) by nearest rank; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


def ms(seconds):
    return f"{seconds * 1000:.0f} ms"


def raw_exchange(port, data, timeout=5, read_all=True):
    """Send bytes on a fresh loopback connection; the bytes answered until close or `timeout`."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        received = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                chunk = s.recv(65536)
            except (TimeoutError, ConnectionResetError):
                break
            if not chunk:
                break
            received += chunk
            if not read_all and b"\r\n\r\n" in received:
                break
        return received


def status_of(answer):
    """The status code of a raw HTTP answer, or None when nothing came back."""
    try:
        return int(answer.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return None
