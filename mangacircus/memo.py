"""Values made once per object of the library index.

The index never changes a Manga, Chapter or Version once made: a scan that finds a change makes a
new object. So what is derived from one alone (URLs, labels, the rows of a chapter list) can be
kept with it, and an entry is used only while it was made from that very object."""
import threading


class PerObject:
    """make(obj) once per object, kept for at most `limit` objects (then all are dropped at once:
    a scan that changed everything makes new objects anyway)."""

    def __init__(self, make, limit=2_000):
        self._make = make
        self._limit = limit
        self._kept = {}  # id(obj) → (obj, value); holding obj keeps its id from being reused
        self._lock = threading.Lock()

    def __call__(self, obj):
        hit = self._kept.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
        value = self._make(obj)
        with self._lock:
            if len(self._kept) >= self._limit:
                self._kept.clear()
            self._kept[id(obj)] = (obj, value)
        return value
