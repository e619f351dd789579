"""manga.json and chapter.json (docs/library.md, "manga.json and chapter.json"), what ComicInfo.xml
adds to a manga, and reading-direction resolution.

Both files are optional JSON objects; unknown fields are kept. An unreadable or invalid file is
treated as absent and reported; it never hides the folder's content.

A Manga's `meta` is manga.json over the ComicInfo fields (`with_comic_info()`), plus two keys the
scan derives: `comicInfoDirection` (the direction ComicInfo's `Manga` gives the manga) and
`chapterTags` (the chapters' tags, for the library filter and restrictions).
"""
import orjson
from django.utils.translation import gettext_lazy

from . import comicinfo
from .model import Book, reading_runs

DIRECTIONS = ("rtl", "ltr", "ttb")
MAX_BYTES = 1024 * 1024
TALL_RATIO = 2.5  # a page taller than 2.5× its width is a webtoon strip


def read(path):
    """(meta dict or None, problem text or None). A missing file is (None, None)."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        return None, None
    except OSError as e:
        return None, f"cannot be read ({e.strerror or e})"
    if len(raw) > MAX_BYTES:
        return None, "is larger than 1 MB"
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as e:
        return None, f"is not valid JSON ({e})"
    if not isinstance(data, dict):
        return None, "is not a JSON object"
    return data, None


def mylar(data):
    """The manga fields of a Mylar `series.json` (`{"metadata": {"name", "description_text", "year",
    "publisher", "status"}}`, as mangal and Mylar write it and Komga reads it), or {}."""
    found = (data or {}).get("metadata")
    if not isinstance(found, dict):
        return {}
    out = {"title": found.get("name"), "description": found.get("description_text") or found.get("description"),
           "publisher": found.get("publisher"), "status": found.get("status")}
    out = {k: v.strip() for k, v in out.items() if isinstance(v, str) and v.strip()}
    year = found.get("year")
    if isinstance(year, int) and not isinstance(year, bool) and year > 0:
        out["year"] = year
    return out


def folder_title(name):
    """A manga's title when nothing names it: its folder name, with `_` read as spaces in a name
    that has none (`Star_Ferry`, as mangal and other tools write it)."""
    return name.replace("_", " ").strip() or name if "_" in name and " " not in name else name


def problems(meta):
    """Known fields with a value of the wrong kind: they are ignored, and reported."""
    found = []
    for key in ("title", "sortTitle", "description", "source", "language", "url", "published"):
        if key in meta and not isinstance(meta[key], str):
            found.append(f'"{key}" must be a string')
    if "direction" in meta and meta["direction"] not in DIRECTIONS:
        found.append(f'"direction" must be one of {", ".join(DIRECTIONS)}')
    if "priority" in meta and (isinstance(meta["priority"], bool) or not isinstance(meta["priority"], int)):
        found.append('"priority" must be a whole number')
    return found


def text(meta, key):
    value = (meta or {}).get(key)
    if isinstance(value, str) and value.strip():
        return value.strip()
    return None


def direction(meta):
    value = (meta or {}).get("direction")
    return value if value in DIRECTIONS else None


def priority(meta):
    value = (meta or {}).get("priority")
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def mostly_tall(sizes):
    """True when most pages whose size is known are taller than 2.5× their width.

    `sizes` yields (w, h) pairs with None for unknown sizes.
    """
    known = tall = 0
    for w, h in sizes:
        if w and h:
            known += 1
            tall += h > TALL_RATIO * w
    return known > 0 and tall * 2 > known


def strings(meta, key):
    """The non-empty strings of a list field (a lone string counts as a list of one), stripped, each once."""
    value = (meta or {}).get(key)
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return []
    return list(dict.fromkeys(v.strip() for v in value if isinstance(v, str) and v.strip()))


def genres(meta):
    """A manga's genres: manga.json's `genres`, else ComicInfo's Genre (kept apart from its tags)."""
    return strings(meta, "genres")


def chapter_tags(meta):
    """The tags of all of a manga's chapters (ComicInfo Tags, or chapter.json `tags`), from its meta."""
    return strings(meta, "chapterTags")


def version_tags(version):
    """One version's tags: chapter.json `tags`, else ComicInfo's Tags."""
    return strings(version.meta, "tags")


def reading_order(books):
    """[(book, chapter)] in the manga's reading order (model.reading_runs), extras (extra books and
    extra chapters) moved after all the others. Used for what a manga takes from its chapters' files,
    so a bonus chapter never gives the manga its fields."""
    pairs = [(b, c) for b, chapters in reading_runs(books) for c in chapters]
    extra = [(b, c) for b, c in pairs if b.extra or c.key.startswith("x")]
    return [(b, c) for b, c in pairs if not (b.extra or c.key.startswith("x"))] + extra


def with_comic_info(books, manga_meta):
    """(books, meta, series) once the chapters' ComicInfo.xml has been read (docs/library.md, "ComicInfo.xml").

    1. Walk the versions in reading order (each chapter's versions in rank order).
    2. series: each manga field from the first version whose ComicInfo has it (comicinfo.series_fields).
    3. meta: manga.json over series (its `direction` left to resolve_direction), with
       `comicInfoDirection` and `chapterTags` added; None when there is nothing at all.
    4. books: a book whose whole-volume archive has a ComicInfo Title (meta `bookTitle`) takes it
       as its title, over the name's.
    """
    found, tags, titles = [], {}, {}
    for book, chapter in reading_order(books):
        for v in chapter.ranked():
            meta = v.meta
            if "comicInfoSeries" in meta:
                found.append(meta["comicInfoSeries"])
            for tag in version_tags(v):
                tags.setdefault(tag.casefold(), tag)
            if isinstance(meta.get("bookTitle"), str):
                titles.setdefault(book.key, meta["bookTitle"])
    series = comicinfo.series_fields(found)
    merged = {**{k: v for k, v in series.items() if k != "direction"}, **(manga_meta or {})}
    if "direction" in series:
        merged["comicInfoDirection"] = series["direction"]
    if tags:
        merged["chapterTags"] = list(tags.values())
    if titles:
        books = [Book(b.key, b.chapters, title=titles[b.key], folder=b.folder, stamp=b.stamp)
                 if titles.get(b.key, b.title) != b.title else b for b in books]
    return books, (merged if series or tags else manga_meta), series


DIRECTION_NAMES = {"rtl": gettext_lazy("Right to left"), "ltr": gettext_lazy("Left to right"),
                   "ttb": gettext_lazy("Top to bottom")}
DIRECTION_SOURCES = {  # where a manga's direction comes from (a chapter's own chapter.json wins over all of them)
    "catalog": gettext_lazy("set in the catalog"), "manga.json": gettext_lazy("set in manga.json"),
    "ComicInfo.xml": gettext_lazy("from ComicInfo.xml (Manga)"), "pages": gettext_lazy("its pages are tall strips"),
    "default": gettext_lazy("the library's default (DEFAULT_DIRECTION)"),
}


def manga_direction(manga, override, default):
    """(direction, where it comes from: a DIRECTION_SOURCES key) of a manga as a whole.

    The catalog's override, then manga.json, then ComicInfo's Manga, then ttb for mostly tall
    pages, then DEFAULT_DIRECTION (docs/library.md, "Reading direction")."""
    if override in DIRECTIONS:
        return override, "catalog"
    meta = manga.meta if isinstance(manga.meta, dict) else {}
    if direction(meta):
        return manga.direction, "manga.json"
    if meta.get("comicInfoDirection") in DIRECTIONS:
        return manga.direction, "ComicInfo.xml"
    return manga.direction, ("pages" if manga.direction == "ttb" and default != "ttb" else "default")


def version_direction(version, manga, override):
    """The direction one version is read in: its chapter.json, then the catalog's override for the
    manga, then manga.json, then the version's own ComicInfo Manga, then the manga's ComicInfo Manga
    (so a bonus archive without the field reads like the rest), then ttb for mostly tall pages,
    then DEFAULT_DIRECTION. The scan resolved all but the override and the manga's ComicInfo into
    `version.direction`."""
    if direction(version.meta):
        return version.direction
    if override in DIRECTIONS:
        return override
    meta = manga.meta if isinstance(manga.meta, dict) else {}
    if direction(meta) or direction(version.meta.get("comicInfoSeries")):
        return version.direction
    inherited = meta.get("comicInfoDirection")
    return inherited if inherited in DIRECTIONS else version.direction


def resolve_direction(chapter_meta, manga_meta, sizes, default, comic_info=None):
    """chapter.json, else manga.json, else ComicInfo.xml's `Manga` (rtl or ltr), else ttb for mostly
    tall pages, else the default setting."""
    return (direction(chapter_meta) or direction(manga_meta) or direction(comic_info)
            or ("ttb" if mostly_tall(sizes) else default))
