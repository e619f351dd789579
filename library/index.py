"""The current library index: one complete Index, replaced whole after each scan that changed something.

Readers call `current()` and keep the reference for the length of their request; they never see
a half-built index and need no lock (replacing a module global is atomic).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .names import natural_key

if TYPE_CHECKING:
    from .model import Manga, ScanWarning


class Index:
    """`manga`: name → Manga for every manga with at least one chapter.

    The rest is the scan's memory: `root_stamp` of LIBRARY, `hidden` (manga folders without any
    chapter, kept so their stamps are watched), `warnings` about LIBRARY's top level, and
    `settling`: chapter folders left out because they are still being written (SCAN_SETTLE),
    relative path → (what the scan saw, when it first saw that, when it may settle), the last two
    in wall-clock ns. It is not kept in the snapshot: after a restart they are looked at afresh.

    `unavailable`: why LIBRARY could not be read at the last scan (an unmounted disk), or None. The
    index is then the last one read, kept as it was (`marked_unavailable()`).

    `library_of`: manga name → the library holding it, with several libraries (`merged()`); empty
    with one, whose name every manga then has (library/libraries.py).
    """

    __slots__ = ("manga", "hidden", "root_stamp", "warnings", "settling", "unavailable", "library_of", "_sorted")

    def __init__(self, manga: dict[str, Manga] | None = None, *, hidden: dict[str, Manga] | None = None,
                 root_stamp: int | None = None, warnings: Iterable[ScanWarning] = (),
                 settling: dict[str, tuple[Any, int, int]] | None = None, unavailable: str | None = None,
                 library_of: dict[str, str] | None = None) -> None:
        self.library_of = library_of or {}
        self.manga = manga or {}
        self.hidden = hidden or {}
        self.root_stamp = root_stamp
        self.warnings = tuple(warnings)
        self.settling = settling or {}
        self.unavailable = unavailable
        self._sorted: tuple[Manga, ...] | None = None

    def marked_unavailable(self, why: str) -> Index:
        """The same manga (the very objects, so the caches keyed by them stay valid), marked with `why`.
        A new object: the page cache and the summaries key on the index's identity."""
        marked = Index(self.manga, hidden=self.hidden, root_stamp=self.root_stamp, warnings=self.warnings,
                       settling=self.settling, unavailable=why, library_of=self.library_of)
        marked._sorted = self._sorted
        return marked

    def get(self, name: object) -> Manga | None:
        return self.manga.get(name) if isinstance(name, str) else None

    def sorted(self) -> list[Manga]:
        """Manga by sort title (natural, case-insensitive), then folder name."""
        if self._sorted is None:
            self._sorted = tuple(sorted(self.manga.values(), key=lambda m: (natural_key(m.sort_title), m.name)))
        return list(self._sorted)

    def all_warnings(self) -> list[ScanWarning]:
        """(kind, path, message) of the top level, then of every manga folder."""
        found = list(self.warnings)
        for group in (self.manga, self.hidden):
            for m in group.values():
                found.extend(m.warnings)
        return found

    def counts(self) -> dict[str, int]:
        books = chapters = versions = pages = 0
        for m in self.manga.values():
            b, c, v, p = m.counts()
            books, chapters, versions, pages = books + b, chapters + c, versions + v, pages + p
        return {"manga": len(self.manga), "books": books, "chapters": chapters, "versions": versions,
                "pages": pages}

    def __len__(self) -> int:
        return len(self.manga)


def merged(parts: dict[str, Index]) -> Index:
    """One Index of several libraries' (name → its Index, in LIBRARIES' order; their manga names are
    distinct, scan.py sees to that). With one library it is that library's Index itself."""
    if len(parts) == 1:
        return next(iter(parts.values()))
    manga: dict[str, Manga] = {}
    hidden: dict[str, Manga] = {}
    library_of: dict[str, str] = {}
    warnings: list[ScanWarning] = []
    settling: dict[str, tuple[Any, int, int]] = {}
    for name, part in parts.items():
        manga.update(part.manga)
        hidden.update(part.hidden)
        library_of.update(dict.fromkeys([*part.manga, *part.hidden], name))
        warnings.extend(part.warnings)
        settling.update(part.settling)
    down = [f"{name}: {part.unavailable}" for name, part in parts.items() if part.unavailable]
    return Index(manga, hidden=hidden, warnings=warnings, settling=settling, unavailable="; ".join(down) or None,
                 library_of=library_of)


_current = Index()


def current() -> Index:
    """The current Index (an empty one before the first scan). Never None."""
    return _current


def replace(index: Index) -> None:
    global _current
    _current = index
