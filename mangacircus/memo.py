"""Values made once per object of the library index.

The index never changes a Manga, Chapter or Version once made: a scan that finds a change makes a
new object. So what is derived from one alone (URLs, labels, the rows of a chapter list) can be
kept with it, and an entry is used only while it was made from that very object."""
import threading

from django.utils.translation import get_language


class PerObject:
    """make(obj) once per object, kept for at most `limit` objects (then all are dropped at once:
    a scan that changed everything makes new objects anyway). `per_language`: once per object and
    UI language, for values holding words of the UI ("Ch. 2", "第2話")."""

    def __init__(self, make, limit=2_000, per_language=False):
        self._make = make
        self._limit = limit
        self._per_language = per_language
        self._kept = {}  # id(obj) (and the language) → (obj, value); holding obj keeps its id from being reused
        self._lock = threading.Lock()

    def __call__(self, obj):
        key = (id(obj), get_language()) if self._per_language else id(obj)
        hit = self._kept.get(key)
        if hit is not None and hit[0] is obj:
            return hit[1]
        value = self._make(obj)
        with self._lock:
            if len(self._kept) >= self._limit:
                self._kept.clear()
            self._kept[key] = (obj, value)
        return value


def per_language(make):
    """@per_language: PerObject(make, per_language=True)."""
    return PerObject(make, per_language=True)
