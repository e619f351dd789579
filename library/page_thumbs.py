"""Page thumbnails for the reader's page overview: small WebP files in DATA/page-thumbs/, made on the
first request for them (never ahead), kept like cover thumbnails and just as disposable.

A file's name is a hash of the page's path and files.page_stamp (inode, size, mtime, member), so a
changed page gets a new thumbnail (and ETag). Pillow runs under the same guards as for covers (thumbs.render: the five
formats only, no decompression bombs). At most RENDERERS thumbnails are made at once, so a chapter's
worth of overview requests leaves the server's other threads, and so page turns, alone; the browser
side asks for a few at a time as well (static/js/read-overview.js). Beyond MAX_FILES the oldest
files are removed, checked every PRUNE_EVERY new thumbnails.
"""
import hashlib
import logging
import os
import threading

from django.conf import settings

from mangacircus.jsonfile import write_atomic

from . import files, thumbs
from .names import parse_page

log = logging.getLogger(__name__)

BOX = (180, 270)  # twice the overview's cell
SCHEME = "1"  # bump to remake every page thumbnail after changing BOX or the method
RENDERERS = 1
MAX_FILES = 50_000
PRUNE_EVERY = 500

_renderers = threading.BoundedSemaphore(RENDERERS)
_failed = set()
_made = 0
_count_lock = threading.Lock()


def folder():
    return settings.DATA / "page-thumbs"


def key(rel):
    stamp = files.page_stamp(rel)  # a folder's file or an archive's member, as it is now
    if stamp is None:
        return None
    raw = "\0".join((SCHEME, rel, stamp))
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def make(rel):
    """The thumbnail file of the page at `rel` (as in a /lib/ URL), made now if missing; None when
    there is no such page or it cannot be made into one."""
    name = key(rel)
    if name is None or name in _failed:
        return None
    target = folder() / name[:2] / f"{name}.webp"
    if target.exists():
        return target
    with _renderers:
        if target.exists():
            return target
        try:
            page = files.open_page(rel)
            if page is None:
                raise OSError("the page cannot be opened")
            with page:
                data = thumbs.render(page.stream(), parse_page(os.path.basename(rel)).rotation, box=BOX, quality=70)
        except Exception as e:  # Pillow raises many kinds for broken files; none may break a request
            _failed.add(name)
            log.warning("no page thumbnail for %s: %s", rel, e)
            return None
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, data)
    _count_made()
    return target


def _count_made():
    global _made
    with _count_lock:
        _made += 1
        due = _made % PRUNE_EVERY == 0
    if due:
        prune()


def prune(limit=None):
    """Remove the oldest thumbnails beyond `limit` (MAX_FILES); returns how many went."""
    limit = MAX_FILES if limit is None else limit
    found = []
    try:
        for sub in os.scandir(folder()):
            if sub.is_dir(follow_symlinks=False):
                for entry in os.scandir(sub.path):
                    try:
                        found.append((entry.stat(follow_symlinks=False).st_mtime_ns, entry.path))
                    except OSError:
                        pass
    except FileNotFoundError:
        return 0
    found.sort()
    removed = 0
    for _, path in found[:max(0, len(found) - limit)]:
        try:
            os.unlink(path)
            removed += 1
        except OSError:
            pass
    return removed
