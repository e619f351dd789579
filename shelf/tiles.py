"""The library page's tiles and "continue reading" items as HTML, each rendered once and reused
while what it shows is unchanged.

A tile is a pure function of the few fields it shows (title, links, cover, chapter count, read count,
following, the app root), so those fields are its cache key: a progress write changes the read
count, a scan the summary's title, cover or chapter count, and either makes a new key, so a tile can
never be stale and nothing has to be told to forget one. Users in the same state share a tile.
Rendering 400 tiles through the template took most of the library page's time (docs/performance.md).
The "Recently added" row and the facets are kept the same way, under the fields they show, and so
is a manga page's Related section, whose template loop cost ~12 µs a relation on every request.
Every key gains the active language (reader/language.py), so a Japanese reader never gets an English tile.
"""
import threading

from django.template.loader import get_template
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

TEMPLATE = "reader/_tile.html"
RESUME_TEMPLATE = "reader/_resume.html"
RECENT_TEMPLATE = "reader/_recent.html"
FACETS_TEMPLATE = "reader/_facets.html"
CATALOG_TEMPLATE = "reader/_catalog.html"
CHAPTER_TEMPLATE = "reader/_chapter.html"
MAX_TILES = 20_000  # a whole library for a few dozen read states; then the cache starts again

_lock = threading.Lock()
_cache = {}


def _key(card, root):
    return (card["name"], card["title"], card["url"], card["cover"], card["chapters"], card["read"],
            card["following"], root)


def _resume_key(item, root):
    target = item["target"]
    return (RESUME_TEMPLATE, item["title"], item["cover"], target["url"], target["action"], target["title"],
            target.get("page"), target.get("pages"), root)


def _cached(key, template, context):
    key = (get_language(), key)
    html = _cache.get(key)
    if html is None:
        html = get_template(template).render(context)
        with _lock:
            if len(_cache) >= MAX_TILES:
                _cache.clear()
            _cache[key] = html
    return html


def tile(card, root):
    return _cached(_key(card, root), TEMPLATE, {"m": card, "root": root})


def grid(cards, root):
    """The tiles of `cards` (shelf.library()'s "manga"), joined, safe to put in the page."""
    return mark_safe("".join(tile(card, root) for card in cards))


def resume_items(items, root):
    """The "continue reading" items (shelf.library()'s "continue"), joined, safe to put in the page."""
    return mark_safe("".join(_cached(_resume_key(item, root), RESUME_TEMPLATE, {"item": item, "root": root})
                             for item in items))


def recent_items(items, root):
    """The "Recently added" row's items (shelf.library()'s "recent"), safe to put in the page."""
    key = (RECENT_TEMPLATE, tuple((i["name"], i["title"], i["url"], i["cover"], i["added"], i["chapters"])
                                  for i in items), root)
    return mark_safe(_cached(key, RECENT_TEMPLATE, {"recent": items, "root": root}))


def _chapter_key(row, manga_name, book_key, root, downloads):
    p = row["progress"]
    return (CHAPTER_TEMPLATE, manga_name, book_key, row["id"], row["key"], row["label"], row["title"], row["url"],
            row["read"], p and (p.get("p"), p.get("n")), row.get("activeMs"), row["pages"], row["added"],
            tuple(row["tags"]), row["hasPrevious"], root, downloads,
            tuple((v["name"], v["source"], v["url"], v["pages"], v["mine"], v["score"]) for v in row["versions"]))


def chapter_list(book, manga_name, root, downloads):
    """A manga page's chapter rows of one book (manga_detail.detail()'s), joined, safe to put in the
    page: each row is kept under what it shows, so a progress write makes that one row again, not
    the 1,200 of a long series (rendering one took ~0.2 ms)."""
    context = {"m": {"name": manga_name}, "book": book, "root": root, "downloads": downloads}
    return mark_safe("".join(_cached(_chapter_key(row, manga_name, book["key"], root, downloads), CHAPTER_TEMPLATE,
                                     {**context, "c": row}) for row in book["chapters"]))


def facet_lists(facets):
    """The genre, tag and status facets (shelf.library()'s "facets"), safe to put in the page."""
    key = (FACETS_TEMPLATE, *(tuple((f["value"], f["count"], f["on"], f["add"]) for f in facets[kind])
                              for kind in ("libraries", "genres", "tags", "statuses")))
    return mark_safe(_cached(key, FACETS_TEMPLATE, {"facets": facets}))


def catalog_section(m, admin, root):
    """A manga page's relations, groups and (for an admin) the curator's links, from
    manga_detail.detail()'s `name`, `relations` and `groups`, safe to put in the page."""
    key = (CATALOG_TEMPLATE, m["name"], admin, root,
           tuple((r["label"], r["note"], r["title"], r["url"], r["missing"]) for r in m["relations"]),
           tuple((g["id"], g["name"], g["description"], g["ordered"],
                  tuple((x["title"], x["url"], x["missing"], x["current"]) for x in g["members"]))
                 for g in m["groups"]))
    context = {"m": m, "account": {"admin": admin}, "root": root}
    return mark_safe(_cached(key, CATALOG_TEMPLATE, context))


def clear():
    with _lock:
        _cache.clear()
