"""The disposable files of the index (docs/architecture-library.md, "Scans"), both written atomically:

- DATA/library-index.json: a versioned snapshot of the whole Index with its stamps and the time of
  the last full scan. Restored at start so browsing works before any walk. Missing, unreadable,
  of another version, of another LIBRARY or DEFAULT_DIRECTION → None, and the caller runs a full scan.
- DATA/scan-cache.json: per chapter folder, each page's name, width, height, byte size and mtime;
  per archive, what it holds (archives.to_cache) under its size, mtime and inode,
  so a full scan reads a header only for files that changed. Deleting it only costs time.

Stamps are 128-bit integers (inode, mtime) and are stored as hex strings.
"""
import logging
import os
import time
from array import array

import orjson

from mangacircus.jsonfile import write_atomic

from .index import Index
from .model import Book, Chapter, Manga, Version

log = logging.getLogger(__name__)

VERSION = 3  # 2: versions read from archives (archive, tags); 3: genres, chapter tags and book titles from ComicInfo
CACHE_VERSION = 1  # archives were added as entries of their own ("a"); old caches stay usable
MAX_BYTES = 1 << 30


def _hex(stamp):
    return None if stamp is None else format(stamp, "x")


def _int(text):
    return None if text is None else int(text, 16)


def _version(v):
    return {"name": v.name, "dir": v._dir, "source": v.source, "title": v.title, "meta": v._meta,
            "priority": v.priority, "direction": v.direction, "stamp": _hex(v.stamp), "files": v._files,
            "sizes": v._sizes.tolist(), "archive": v.archive, "tags": v.tags}


def _manga(m):
    return {
        "name": m.name, "title": m.title, "sortTitle": m.sort_title, "meta": m.meta, "direction": m.direction,
        "cover": m.cover, "added": m.added, "updated": m.updated, "stamp": _hex(m.stamp),
        "watch": [[rel, _hex(s)] for rel, s in m.watch], "warnings": [list(w) for w in m.warnings],
        "books": [{"key": b.key, "title": b.title, "folder": b.folder, "stamp": _hex(b.stamp),
                   "chapters": [{"key": c.key, "versions": [_version(v) for v in c.versions]} for c in b.chapters]}
                  for b in m.books],
    }


def dumps(index, root, last_full, default_direction="rtl"):
    return orjson.dumps({
        "version": VERSION, "library": str(root), "defaultDirection": default_direction,
        "saved": int(time.time() * 1000), "lastFull": last_full,
        "root": _hex(index.root_stamp), "warnings": [list(w) for w in index.warnings],
        "manga": [_manga(m) for m in index.manga.values()], "hidden": [_manga(m) for m in index.hidden.values()],
    })


def _load_version(d, one):
    flat = d["sizes"]
    files = d["files"]
    if len(flat) != 2 * (files.count("\0") + 1 if flat else 0):
        raise ValueError("page names and sizes disagree")
    sizes = array("H" if max(flat, default=0) < 65536 else "I", flat)
    return Version(d["name"], dir=one(d["dir"]), files=files.split("\0") if flat else [], sizes=sizes,
                   stamp=_int(d["stamp"]), source=d["source"], title=one(d["title"]), meta=d["meta"],
                   priority=d["priority"], direction=d["direction"], archive=one(d["archive"]),
                   tags={k: tuple(t) for k, t in d["tags"].items()} if d["tags"] else None)


def _load_manga(d, one):
    """`one(text)`: the one string object kept for equal keys, titles and folders across the snapshot,
    as a scan shares them (bench: index memory)."""
    books = [Book(one(b["key"]), [Chapter(one(b["key"]), one(c["key"]),
                                          [_load_version(v, one) for v in c["versions"]])
                                  for c in b["chapters"]],
                  title=one(b["title"]), folder=one(b["folder"]), stamp=_int(b["stamp"]))
             for b in d["books"]]
    return Manga(d["name"], books, title=one(d["title"]), sort_title=one(d["sortTitle"]), meta=d["meta"],
                 direction=d["direction"], cover=d["cover"], added=d["added"], updated=d["updated"],
                 stamp=_int(d["stamp"]), watch=[(rel, _int(s)) for rel, s in d["watch"]],
                 warnings=[tuple(w) for w in d["warnings"]])


def _read(path):
    with open(path, "rb") as f:
        raw = f.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        raise ValueError("larger than 1 GB")
    data = orjson.loads(raw)
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    return data


def load(path, root, default_direction="rtl"):
    """(Index, last full scan ms or None, None) from the snapshot, or (None, None, why it is unusable)."""
    try:
        data = _read(path)
    except FileNotFoundError:
        return None, None, "there is no snapshot yet"
    except (OSError, ValueError) as e:
        return None, None, f"the snapshot cannot be read ({e})"
    if data.get("version") != VERSION:
        return None, None, f"the snapshot has version {data.get('version')!r}, not {VERSION}"
    if data.get("library") != str(root):
        return None, None, "the snapshot is of another LIBRARY"
    if data.get("defaultDirection") != default_direction:
        return None, None, "the snapshot was made with another DEFAULT_DIRECTION"
    try:
        shared = {}
        one = lambda text: shared.setdefault(text, text)  # noqa: E731
        manga, hidden = _consumed(data["manga"], one), _consumed(data["hidden"], one)
        index = Index(manga, hidden=hidden, root_stamp=_int(data["root"]),
                      warnings=[tuple(w) for w in data["warnings"]])
        last_full = data["lastFull"]
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as e:
        return None, None, f"the snapshot is malformed ({type(e).__name__}: {e})"
    return index, (last_full if isinstance(last_full, int) else None), None


def _consumed(entries, one):
    """{name: Manga} of the snapshot's entries, each entry dropped once made: the memory of the
    decoded JSON (about four times the index's at a million pages) is reused for the index as it
    grows instead of staying beside it."""
    entries.reverse()
    made = {}
    while entries:
        entry = entries.pop()
        made[entry["name"]] = _load_manga(entry, one)
    return made


def save(path, index, root, last_full, default_direction="rtl"):
    """Write the snapshot; False (logged) when that fails: it is disposable, the scan stands."""
    try:
        write_atomic(path, dumps(index, root, last_full, default_direction))
        return True
    except OSError as e:
        log.warning("the library snapshot %s cannot be written: %s", path, e.strerror or e)
        return False


def load_cache(path, root):
    """The scan cache's folders (relative path → entry), {} when missing or unusable."""
    try:
        data = _read(path)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as e:
        log.warning("the scan cache %s is ignored: %s", path, e)
        return {}
    if data.get("version") != CACHE_VERSION or data.get("library") != str(root):
        return {}
    folders = data.get("folders")
    return folders if isinstance(folders, dict) else {}


def save_cache(path, folders, root, saved=None):
    """Write the scan cache, unless it is `saved` (the folders load_cache() returned) already."""
    entries = {rel: {**entry, "m": _hex(entry["m"])} if "m" in entry else entry for rel, entry in folders.items()}
    if entries == saved:
        return True
    try:
        write_atomic(path, orjson.dumps({"version": CACHE_VERSION, "library": str(root), "folders": entries}))
        return True
    except OSError as e:
        log.warning("the scan cache %s cannot be written: %s", path, e.strerror or e)
        return False


def remove(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
