"""numberSort: the number apps sort, dedupe and track chapters by (Mihon copies it into its
chapter number, which the tracker and AniList/MAL progress use).

Natural mode when the numbered chapters' keys, read as decimals, strictly increase along the
reading order: a chapter's number is its key, and a run of k extras between numbers P and N gets
P + (N − P)·j/(k+1). Otherwise (numbering restarting per book, duplicates, keys that are no
numbers) the 1-based reading position. Values collide after float32 rounding → reading position.
"""
import struct

_cache = {}  # id(Manga) → (the Manga, {chapter id: numberSort}); the Manga kept so its id is not reused
MAX_CACHED = 20_000


def f32(x):
    return struct.unpack("f", struct.pack("f", float(x)))[0]


def _extra(chapter):
    return chapter.key.startswith("x") or chapter.book.startswith("x")


def _natural(chapters):
    values, last = [], None
    for c in chapters:
        if _extra(c):
            values.append(None)
            continue
        try:
            v = float(c.key)
        except ValueError:
            return None
        if v < 0 or (last is not None and v <= last):
            return None
        values.append(v)
        last = v
    if last is None:
        return None
    i = 0
    while i < len(values):
        if values[i] is not None:
            i += 1
            continue
        j = i
        while j < len(values) and values[j] is None:
            j += 1
        before = values[i - 1] if i > 0 else 0.0
        after = values[j] if j < len(values) else before + 1
        k = j - i
        for n in range(k):
            values[i + n] = before + (after - before) * (n + 1) / (k + 1)
        i = j
    rounded = [f32(v) for v in values]
    if len(set(rounded)) != len(rounded):
        return None
    return [round(v, 6) for v in values]


def number_sorts(manga):
    """{chapter id: numberSort} for the manga's chapters."""
    cached = _cache.get(id(manga))
    if cached is not None and cached[0] is manga:
        return cached[1]
    chapters = manga.chapters()
    values = _natural(chapters) or [float(i) for i in range(1, len(chapters) + 1)]
    found = {c.id: v for c, v in zip(chapters, values)}
    if len(_cache) >= MAX_CACHED:
        _cache.clear()
    _cache[id(manga)] = (manga, found)
    return found


def number(value):
    """An integral value as an int (2 rather than 2.0), so apps that print it show "2"."""
    return int(value) if float(value).is_integer() else value
