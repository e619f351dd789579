"""GET /api/library's body, from per-manga JSON pieces made once per summary and read state.

shelf.library() hands each manga's (summary, state, following) to `_piece`, which returns the card's
JSON (orjson) from a cache. The cache entry is reused only while the index holds the very summary
object it was made from (summaries.py makes a new one when a scan changes the manga) and the user's
read count, last-read time and follow are the same, so a progress write, a scan or a follow shows
at once. Users in the same state share pieces.
"""
import threading

import orjson

from . import library as shelf

MAX_PIECES = 20_000

_lock = threading.Lock()
_cache = {}  # (name, state, following) → (Summary, bytes)


def _piece(summary, state, following):
    key = (summary.name, state, following)
    hit = _cache.get(key)
    if hit is not None and hit[0] is summary:
        return hit[1]
    piece = orjson.dumps(shelf._card(summary, state, following))
    with _lock:
        if len(_cache) >= MAX_PIECES:
            _cache.clear()
        _cache[key] = (summary, piece)
    return piece


def library_body(user, extra=None, **query):
    """The JSON bytes of shelf.library(user, **query) with the fields of `extra`, its cards from
    the cache."""
    data = shelf.library(user, card=_piece, **query)
    data.update(extra or {})
    pieces = data.pop("manga")
    head = orjson.dumps(data)
    return head[:-1] + b',"manga":[' + b",".join(pieces) + b"]}"


def clear():
    with _lock:
        _cache.clear()
