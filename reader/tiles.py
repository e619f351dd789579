"""The library grid's tiles as HTML, each rendered once and reused while what it shows is unchanged.

A tile is a pure function of the few fields it shows (title, links, cover, chapter count, read count,
following, the app root), so those fields are its cache key: a progress write changes the read
count, a scan the summary's title, cover or chapter count, and either makes a new key, so a tile can
never be stale and nothing has to be told to forget one. Users in the same state share a tile.
Rendering 400 tiles through the template took most of the library page's time (docs/performance.md).
"""
import threading

from django.template.loader import get_template
from django.utils.safestring import mark_safe

TEMPLATE = "reader/_tile.html"
MAX_TILES = 20_000  # a whole library for a few dozen read states; then the cache starts again

_lock = threading.Lock()
_cache = {}


def _key(card, root):
    return (card["name"], card["title"], card["url"], card["cover"], card["chapters"], card["read"],
            card["following"], root)


def tile(card, root):
    key = _key(card, root)
    html = _cache.get(key)
    if html is None:
        html = get_template(TEMPLATE).render({"m": card, "root": root})
        with _lock:
            if len(_cache) >= MAX_TILES:
                _cache.clear()
            _cache[key] = html
    return html


def grid(cards, root):
    """The tiles of `cards` (shelf.library()'s "manga"), joined, safe to put in the page."""
    return mark_safe("".join(tile(card, root) for card in cards))


def clear():
    with _lock:
        _cache.clear()
