"""Per-manga summaries for the library page, cached between requests.

A summary holds what the library page needs of a manga and is the same for every user: title, cover,
chapter ids in reading order, times and a lower-case search text. Building one walks the manga's
chapters, so they are cached by name and dropped for the manga in each scan's changed set
(mangacircus.events.scan_finished). As a second guard a cached summary is only used while the index still
holds the very Manga object it was built from (the scan reuses unchanged Manga objects), so a
missed invalidation can never show stale data. The title-ordered list is cached per index.
"""
import threading
from dataclasses import dataclass, field

from catalog import overrides, provided
from library import libraries
from library import meta as library_meta
from reader import lookup


@dataclass(frozen=True)
class Summary:
    name: str
    title: str
    url: str
    chapter_ids: tuple  # reading order
    chapter_set: frozenset
    added: int
    updated: int
    search: str  # lower-case title, folder name, alt titles, authors and artists
    tags: tuple = ()  # manga.json's and the catalog's tags, then the chapters' (ComicInfo Tags), as written
    tag_keys: frozenset = frozenset()  # casefolded
    genres: tuple = ()  # manga.json's genres or ComicInfo's Genre, kept apart from the tags
    genre_keys: frozenset = frozenset()  # casefolded
    people: tuple = ()  # casefolded authors and artists
    status: str | None = None  # casefolded
    library: str | None = None  # the library holding it, with several (library/libraries.py)
    manga: object = field(default=None, repr=False, compare=False)  # the Manga it was made from
    _cover: object = field(default=None, init=False, repr=False, compare=False)

    @property
    def cover(self):
        """The cover thumbnail's URL, made the first time it is asked for: it stats the cover's file
        through the library's path checks, which for 10,000 manga kept the first library page
        waiting some 0.3 s, while a page shows 120 covers."""
        if self._cover is None:
            object.__setattr__(self, "_cover", (lookup.cover_url(self.manga),))
        return self._cover[0]


_lock = threading.Lock()
_cache = {}  # name → (Manga object, Summary)
_ordered = (None, (), {})  # (Index object, summaries in title order, {name: summary})


def _strings(value):
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def build(manga):
    meta = manga.meta if isinstance(manga.meta, dict) else {}
    words = [manga.title, manga.name, manga.sort_title or ""]
    for key in ("altTitles", "authors", "artists", "tags", "genres"):
        words.extend(_strings(meta.get(key)))
    words.extend(overrides.search_words(manga.name))  # a curator's title, alternative titles, tags
    words.extend(provided.search_words(manga.name))  # a provider's alternative titles, genres, tags
    ids = tuple(c.id for c in manga.chapters())
    # a curator's extra and hidden tags apply to the chapters' tags too: they say what the manga is tagged
    folder_tags = _strings(meta.get("tags")) + library_meta.chapter_tags(meta)
    curated = overrides.merge({"tags": folder_tags}, overrides.get(manga.name))
    seen = {}
    for tag in curated["tags"]:
        if tag.strip():
            seen.setdefault(tag.strip().casefold(), tag.strip())
    tags = tuple(seen.values())
    genres = tuple(library_meta.genres(meta))
    status = meta.get("status").strip().casefold() if isinstance(meta.get("status"), str) else None
    return Summary(
        name=manga.name, title=overrides.title(manga), url=lookup.manga_url(manga.name), manga=manga,
        chapter_ids=ids, chapter_set=frozenset(ids), added=manga.added or 0, updated=manga.updated or 0,
        search="\n".join(words).casefold(), tags=tags, tag_keys=frozenset(t.casefold() for t in tags),
        genres=genres, genre_keys=frozenset(g.casefold() for g in genres),
        people=tuple(p.casefold() for key in ("authors", "artists") for p in _strings(meta.get(key))),
        status=status or None,
        library=libraries.of(manga.name).name if libraries.several() else None,
    )


def ordered(index=None):
    """Every manga's summary in title order."""
    return _for(index)[1]


def by_name(index=None):
    """{name: Summary} of the index (do not change it)."""
    return _for(index)[2]


def _for(index):
    global _ordered
    index = index if index is not None else lookup.current()
    cached = _ordered
    if cached[0] is index:
        return cached
    with _lock:
        if _ordered[0] is index:
            return _ordered
        result = []
        for manga in index.sorted():
            hit = _cache.get(manga.name)
            if hit is None or hit[0] is not manga:
                hit = (manga, build(manga))
                _cache[manga.name] = hit
            result.append(hit[1])
        for name in [n for n in _cache if n not in index.manga]:
            del _cache[name]
        _ordered = (index, tuple(result), {s.name: s for s in result})
        return _ordered


def on_scan(index, report):
    """Drop the summaries of the manga a scan added, changed or removed, then warm the cache."""
    changed = (report or {}).get("changed") or {}
    with _lock:
        for group in ("added", "changed", "removed"):
            for name in changed.get(group, ()):
                _cache.pop(name, None)
    if index is not None:
        ordered(index)


def forget(names):
    """Drop the summaries of `names` (a curator changed their catalog overrides)."""
    global _ordered
    if not names:
        return
    with _lock:
        for name in names:
            _cache.pop(name, None)
        _ordered = (None, (), {})


def clear():
    global _ordered
    with _lock:
        _cache.clear()
        _ordered = (None, (), {})
