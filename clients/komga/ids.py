"""Stable ids for the apps, made from each manga's origin (library/ids.py: the name it was first
seen with), so they survive restarts, rescans and renames the scan recognises, and a library never
renamed keeps the ids it always had. Series `s` + 20 base32 characters of
SHA-256("series\\0" + origin), book `b` + 20 of SHA-256("book\\0" + origin + "\\0" + origin chapter
id): fixed length, [a-z2-7] only, so they never clash with words in the paths (list, new, ondeck …)."""
import base64
import functools
import hashlib
import threading

from library import ids as library_ids
from library import index as library_index
from library import libraries

LIBRARY_ID = "mangacircus"  # the first library's; the others add their slug (library/libraries.py)


def library_id(library):
    return LIBRARY_ID if not library.slug else f"{LIBRARY_ID}-{library.slug}"


def library_of(manga_name):
    """The Komga library id of the library holding the manga."""
    library = libraries.of(manga_name)
    return library_id(library) if library is not None else LIBRARY_ID


def library_by_id(lid):
    return next((lib for lib in libraries.all() if library_id(lib) == lid), None)


def _short(text):
    # 15 bytes are 24 base32 characters: the first 20 are those of the whole digest.
    return base64.b32encode(hashlib.sha256(text.encode("utf-8", "surrogateescape")).digest()[:15]).decode()[:20].lower()


@functools.lru_cache(maxsize=200_000)
def series_id(manga_name):
    return "s" + _short(f"series\0{library_ids.origin(manga_name)}")


@functools.lru_cache(maxsize=200_000)
def book_id(manga_name, chapter_id):
    origin = library_ids.origin(manga_name)
    return "b" + _short(f"book\0{origin}\0{library_ids.chapter_origin(manga_name, chapter_id)}")


def forget(moves=None):
    """events.library_moved: the ids of the names involved are made again from their origins."""
    global _maps
    series_id.cache_clear()
    book_id.cache_clear()
    _maps = (None, {}, {})


# (Index, series id → manga, book id → (manga, chapter)) for the latest index: the index is
# replaced whole after a scan, so the maps are built once per index object.
_maps = (None, {}, {})
_lock = threading.Lock()


def _maps_of(index):
    global _maps
    found = _maps
    if found[0] is not index:
        series, books = {}, {}
        for m in index.manga.values():
            series[series_id(m.name)] = m
            for c in m.chapters():
                books[book_id(m.name, c.id)] = (m, c)
        with _lock:
            found = _maps = (index, series, books)
    return found[1:]


def current():
    return library_index.current()


def manga_by_id(sid, index=None):
    return _maps_of(index or current())[0].get(sid)


def chapter_by_id(bid, index=None):
    """(manga, chapter) or None."""
    return _maps_of(index or current())[1].get(bid)
