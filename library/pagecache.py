"""The page cache: pages of solid archives (solid RAR, 7z), unpacked once, and rendered PDF pages
(pdfread.py), in DATA/page-cache/ (docs/library.md, "Archives").

A solid archive's member can be reached only by decompressing every member before it, so the
first page asked of such an archive unpacks all its pages in one pass (libarch.extract), into a
folder named by the archive's real path, inode, size and mtime (a changed archive gets a new one);
every later page is a plain file. The unpacking also measures each page (sizes.json in the folder):
the scan reads only a solid archive's directory, and the reader learns its pages' sizes here at
the first open (files.pages_with_sizes). The folder is written under a temporary name and renamed into
place, so a half-written folder is never used, and two processes unpacking at once both end with
one folder. The cache is bounded by PAGE_CACHE_MB: after each unpacking the folders used least
recently (their mtime, touched on each use) go until the rest fits. It survives restarts; LIBRARY
is never written.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import threading
import time
from pathlib import Path

from django.conf import settings

from . import imagesize, libarch
from .names import is_page

log = logging.getLogger(__name__)

SIZES = "sizes.json"  # {member: [w, h]} of an unpacked archive's pages
TOUCH_EVERY = 60  # seconds between two marks of a folder as used
_locks: dict[str, threading.Lock] = {}
_touched: dict[str, float] = {}
KEPT_SIZES = 256  # archives whose page sizes are kept in memory
_sizes: dict[str, dict[str, tuple[int, int]]] = {}
_locks_guard = threading.Lock()


def root() -> Path:
    return settings.DATA / "page-cache"


def _folder_name(real: str, st: os.stat_result) -> str:
    return hashlib.sha256(f"{real}\0{st.st_ino}\0{st.st_size}\0{st.st_mtime_ns}".encode()).hexdigest()[:32]


def file_name(member: str) -> str:
    return hashlib.sha256(member.encode("utf-8", "surrogateescape")).hexdigest()[:32]


def _lock(key: str) -> threading.Lock:
    with _locks_guard:
        return _locks.setdefault(key, threading.Lock())


def page(real: str, st: os.stat_result, member: str) -> str | None:
    """The path of the cached copy of page `member` of the archive at `real` (unpacked now when
    the archive is not in the cache yet), or None when the archive does not hold it."""
    found = cached(real, st, member)
    if found is None:
        unpack(real, st)
        found = cached(real, st, member)
    return found


def unpack(real: str, st: os.stat_result) -> Path:
    """The folder of the solid archive at `real`, unpacked now unless it is in the cache already."""
    key = _folder_name(real, st)
    with _lock(key):
        if not (root() / key).is_dir():
            _unpack(real, root() / key)
    return root() / key


def sizes(real: str, st: os.stat_result) -> dict[str, tuple[int, int]]:
    """{member: (w, h)} of the pages of the solid archive at `real`, as measured when it was unpacked
    (now, when it is not in the cache); {} when not known. Kept in memory for the archive as it is
    (each open of one of its chapters asks)."""
    key = _folder_name(real, st)
    known = _sizes.get(key)  # the archive's identity is in the key: the sizes hold even once trimmed
    if known is not None:
        return known
    folder = unpack(real, st)
    try:
        found = json.loads((folder / SIZES).read_text())
        known = {k: (v[0], v[1]) for k, v in found.items() if isinstance(v, list) and len(v) == 2}
    except (OSError, ValueError, AttributeError, TypeError):
        return {}
    if len(_sizes) >= KEPT_SIZES:
        _sizes.clear()
    _sizes[key] = known
    return known


def cached(real: str, st: os.stat_result, member: str) -> str | None:
    """The path of a page kept for `member` of the book at `real` (unpacked or rendered), or None."""
    key = _folder_name(real, st)
    folder = root() / key
    path = folder / file_name(member)
    if not path.is_file():
        return None
    now = time.monotonic()
    if now - _touched.get(key, -TOUCH_EVERY) >= TOUCH_EVERY:  # the LRU's clock, not one write a page
        if len(_touched) >= 4096:
            _touched.clear()
        _touched[key] = now
        try:
            os.utime(folder)
        except OSError:
            pass
    return str(path)


def keep(real: str, st: os.stat_result, member: str, data: bytes) -> str:
    """Keep `data` as the page `member` of the book at `real` (written whole, then renamed)."""
    folder = root() / _folder_name(real, st)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file_name(member)
    tmp = folder / f".{path.name}.{os.getpid()}.{threading.get_ident()}"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    trim(keep=folder.name)
    return str(path)


def _unpack(real: str, folder: Path) -> None:
    base = root()
    base.mkdir(parents=True, exist_ok=True)
    tmp = base / f".{folder.name}.{os.getpid()}.{threading.get_ident()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    names, measured = [], {}

    def write(name: str, data: bytes) -> None:
        names.append(name)
        with open(tmp / file_name(name), "wb") as f:
            f.write(data)
        size = imagesize.size_in(imagesize.Bytes(data))
        if size:
            measured[name] = size

    try:
        written = libarch.extract(real, lambda name: is_page(name.rpartition("/")[2]), write)
        (tmp / SIZES).write_text(json.dumps(measured))
        try:
            os.rename(tmp, folder)
        except OSError:  # another process unpacked it first
            shutil.rmtree(tmp, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    log.info("page cache: unpacked %d pages (%d KB) of %s", len(names), written >> 10, real)
    trim(keep=folder.name)


def trim(keep: str | None = None) -> None:
    """Remove the folders used least recently until the cache fits PAGE_CACHE_MB."""
    limit = settings.PAGE_CACHE_MB << 20
    folders = []
    try:
        entries = list(os.scandir(root()))
    except OSError:
        return
    for entry in entries:
        if entry.name.startswith(".") or not entry.is_dir(follow_symlinks=False):
            continue
        try:
            size = sum(f.stat().st_size for f in os.scandir(entry.path))
            folders.append((entry.stat().st_mtime_ns, entry.name, size))
        except OSError:
            continue
    total = sum(size for _, _, size in folders)
    for _, name, size in sorted(folders):
        if total <= limit:
            break
        if name == keep:
            continue
        shutil.rmtree(root() / name, ignore_errors=True)
        total -= size
