"""manga.json and chapter.json (docs/library.md, "manga.json and chapter.json"), and reading-direction resolution.

Both files are optional JSON objects; unknown fields are kept. An unreadable or invalid file is
treated as absent and reported; it never hides the folder's content.
"""
import orjson

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


def resolve_direction(chapter_meta, manga_meta, sizes, default, comic_info=None):
    """chapter.json, else manga.json, else ComicInfo.xml's `Manga` (rtl), else ttb for mostly tall
    pages, else the default setting."""
    return (direction(chapter_meta) or direction(manga_meta) or direction(comic_info)
            or ("ttb" if mostly_tall(sizes) else default))
