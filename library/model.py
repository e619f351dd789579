"""The objects of the library index: Manga → Book → Chapter → Version → pages.

Built by the scan and never changed afterwards: treat every attribute (meta dicts included) as
read-only. Pages are stored packed per version, so a page costs ~20 bytes instead of the few
hundred of a dict: file names joined into one string, widths and heights in one array
(0 = unknown). `Version.pages()` unpacks them into `Page` tuples on demand; tags and rotation are
parsed from the file name then, as they are part of it.

Stamps: every folder object keeps `stamp`, its directory's inode and mtime in one integer, which
the shallow check compares with a fresh stat() (see scan.py).
"""
from __future__ import annotations

import sys
from array import array
from collections.abc import Iterable, Iterator
from itertools import zip_longest
from typing import TYPE_CHECKING, Any, NamedTuple

from .names import key_order, parse_page

if TYPE_CHECKING:
    import os

_JOIN = "\0"  # the one character no file name can hold
_MTIME_MASK = (1 << 64) - 1

Size = tuple[int | None, int | None]  # a page's (width, height), None when it could not be read
ScanWarning = tuple[str, str, str]  # (kind, path relative to LIBRARY, message), as the scan reports it


class Page(NamedTuple):
    file: str
    w: int | None
    h: int | None
    tags: tuple[str, ...]
    rotation: int  # 0, 90, 180 or 270, clockwise


def stamp_of(st: os.stat_result) -> int:
    """One integer for a directory's identity and mtime: (inode << 64) | mtime_ns."""
    return (st.st_ino << 64) | (st.st_mtime_ns & _MTIME_MASK)


def stamp_ms(stamp: int) -> int:
    return (stamp & _MTIME_MASK) // 1_000_000


def stamp_mtime_ns(stamp: int) -> int:
    return stamp & _MTIME_MASK


UNSETTLED = -1  # the stamp watched for a folder still being written: no folder has it (scan.py)


def pack_sizes(sizes: Iterable[Size]) -> array[int]:
    """[(w, h) or (None, None), …] → array of w0, h0, w1, h1 … (2 bytes each when they fit)."""
    flat = [v or 0 for pair in sizes for v in pair]
    return array("H" if max(flat, default=0) < 65536 else "I", flat)


class Version:
    """One chapter folder, or one CBZ/ZIP archive, or a chapter folder inside one. `path` is relative
    to LIBRARY; `meta` is chapter.json over ComicInfo.xml ({} when absent).

    `archive`: the archive's path when the pages are members of one, else None; a page's member
    name is then its path below the archive (`archive_member()`). `stamp` is the archive's then.
    `tags`: {file: extra tags} from ComicInfo.xml, or None."""

    __slots__ = ("name", "source", "title", "_meta", "priority", "direction", "_dir", "_files", "_sizes", "stamp",
                 "archive", "tags")

    def __init__(self, name: str, *, dir: str | None, files: Iterable[str], sizes: array[int] | Iterable[Size],
                 stamp: int, source: str | None = None, title: str | None = None, meta: dict[str, Any] | None = None,
                 priority: int = 0, direction: str = "rtl", archive: str | None = None,
                 tags: dict[str, tuple[str, ...]] | None = None) -> None:
        self.archive = archive
        self.tags = tags or None
        self.name = name
        self.source = sys.intern(source) if source else None
        self.title = title
        self._meta = meta or None
        self.priority = priority
        self.direction = sys.intern(direction)
        self._dir = dir  # the parent folder's path, shared by the versions of one book
        self._files = _JOIN.join(files)
        self._sizes = sizes if isinstance(sizes, array) else pack_sizes(sizes)
        self.stamp = stamp

    @property
    def meta(self) -> dict[str, Any]:
        return self._meta if self._meta is not None else {}

    @property
    def path(self) -> str:
        return f"{self._dir}/{self.name}" if self._dir else self.name

    @property
    def page_count(self) -> int:
        return len(self._sizes) // 2

    def files(self) -> list[str]:
        return self._files.split(_JOIN) if self._sizes else []

    def sizes(self) -> list[Size]:
        """[(w, h), …] with None for a size that could not be read."""
        s = self._sizes
        return [(s[i] or None, s[i + 1] or None) for i in range(0, len(s), 2)]

    def pages(self) -> list[Page]:
        pages = [Page(f, w, h, *parse_page(f)) for f, (w, h) in zip(self.files(), self.sizes())]
        if self.tags:
            pages = [p._replace(tags=p.tags + self.tags[p.file]) if p.file in self.tags else p for p in pages]
        return pages

    def fingerprint(self) -> tuple[int, str, bytes]:
        """What tells its pages apart whatever the folders above it are called (library/renames.py):
        its folder's (or archive's) mtime, which a rename keeps, and its pages' names and sizes."""
        return (self.stamp & _MTIME_MASK, self._files, self._sizes.tobytes())

    def archive_member(self, file: str) -> str:
        """The member name of one of its pages inside its archive."""
        assert self.archive is not None, "only a version inside an archive has members"
        inner = self.path[len(self.archive) + 1:]
        return f"{inner}/{file}" if inner else file

    def __repr__(self) -> str:
        return f"<Version {self.path!r} {self.page_count} pages>"


class Chapter:
    """Chapter `<book>/<key>`: its versions in folder order."""

    __slots__ = ("book", "key", "title", "versions")

    def __init__(self, book: str, key: str, versions: list[Version]) -> None:
        self.book = book
        self.key = key
        self.versions = versions
        # The title of the first-ranked version that has one (chapter.json's title wins in each).
        self.title = next((v.title for v in self.ranked() if v.title), None)

    @property
    def id(self) -> str:
        return f"{self.book}/{self.key}"

    def ranked(self) -> list[Version]:
        """Versions by chapter.json priority (higher first), then folder order; votes come on top elsewhere."""
        return sorted(self.versions, key=lambda v: -v.priority)

    def __repr__(self) -> str:
        return f"<Chapter {self.id} {len(self.versions)} versions>"


class Book:
    """Book "1", "2.5", "x1" (extras), or "0" for chapters standing directly in the manga folder."""

    __slots__ = ("key", "title", "folder", "extra", "chapters", "stamp")

    def __init__(self, key: str, chapters: Iterable[Chapter], *, title: str | None = None, folder: str | None = None,
                 stamp: int | None = None) -> None:
        self.key = key
        self.title = title
        self.folder = folder
        self.extra = key.startswith("x")
        self.chapters = sorted(chapters, key=lambda c: key_order(c.key))
        self.stamp = stamp

    def __repr__(self) -> str:
        return f"<Book {self.key} {len(self.chapters)} chapters>"


Run = tuple[Book, tuple[Chapter, ...]]  # consecutive chapters of one book in reading order


def _number(key: str) -> tuple[Any, ...]:
    return key_order(key)[:3]  # (extra, whole, fraction): equal for equal chapter numbers


def reading_runs(books: Iterable[Book]) -> list[Run]:
    """The reading order of a manga's books (docs/library.md, "Order"), as runs of one book each.

    1. Books by key: book "0" (chapters standing in the manga folder), the numbered books, the
       extras books (x…).
    2. Each numbered book's first chapter number: its smallest chapter key that is no extra.
    3. Each numbered chapter of book "0" goes right before the first numbered book whose first
       chapter number is greater than its own; after the last numbered book when none is (a tie,
       a whole-volume archive read as its chapter 1, numbering that restarts in each book). Its
       extra chapters (x…) go with its last numbered one.
    4. Extras books last. Book "0" can so come in several runs; a chapter's id never changes.
    """
    ordered = sorted(books, key=lambda b: key_order(b.key))
    loose = next((b for b in ordered if b.key == "0"), None)
    numbered = [b for b in ordered if b.key != "0" and not b.extra]
    extras = [b for b in ordered if b.extra]
    if loose is None or not numbered:
        return [(b, tuple(b.chapters)) for b in ordered]
    firsts = [next((_number(c.key) for c in b.chapters if not c.key.startswith("x")), None) for b in numbered]
    slots: list[list[Chapter]] = [[] for _ in range(len(numbered) + 1)]
    slot = len(numbered)  # where loose extras go when no numbered loose chapter precedes them
    for c in loose.chapters:  # numbered ones first, extras after (Book sorts them so)
        if not c.key.startswith("x"):
            n = _number(c.key)
            slot = next((i for i, first in enumerate(firsts) if first is not None and first > n), len(numbered))
        slots[slot].append(c)
    runs: list[Run] = []
    for i, book in enumerate(numbered):
        if slots[i]:
            runs.append((loose, tuple(slots[i])))
        runs.append((book, tuple(book.chapters)))
    if slots[-1]:
        runs.append((loose, tuple(slots[-1])))
    return runs + [(b, tuple(b.chapters)) for b in extras]


class Manga:
    """A manga folder. `cover` is a path relative to LIBRARY or None; `added`/`updated` are ms.
    `books` are in key order; the reading order is `runs()` and `chapters()`."""

    __slots__ = ("name", "title", "sort_title", "meta", "direction", "cover", "books", "added", "updated",
                 "stamp", "watch", "warnings", "_by_id", "_runs", "_chapters", "_counts", "_archives")

    def __init__(self, name: str, books: Iterable[Book], *, title: str, sort_title: str, meta: dict[str, Any],
                 direction: str, cover: str | None, added: int, updated: int, stamp: int,
                 watch: Iterable[tuple[str, int]] = (), warnings: Iterable[ScanWarning] = ()) -> None:
        self.name = name
        self.title = title
        self.sort_title = sort_title
        self.meta = meta
        self.direction = direction
        self.cover = cover
        self.books = sorted(books, key=lambda b: key_order(b.key))
        self.added = added
        self.updated = updated
        self.stamp = stamp
        self.watch = tuple(watch)  # (path, stamp) of folders skipped or empty, checked like the others
        self.warnings = tuple(warnings)  # (kind, path, message)
        self._by_id: dict[str, Chapter] | None = None
        self._runs: tuple[Run, ...] | None = None
        self._chapters: tuple[Chapter, ...] | None = None
        self._counts: tuple[int, int, int, int] | None = None
        self._archives: dict[str, list[Version]] | None = None

    @property
    def path(self) -> str:
        return self.name

    def holds_archive(self, archive: str) -> bool:
        """True when the archive at `archive` (relative to LIBRARY) holds pages of this manga."""
        return archive in self._archive_versions()

    def holds_member(self, archive: str, member: str) -> bool:
        """True when `member` of that archive is one of the index's pages (what /lib/ may serve)."""
        for v in self._archive_versions().get(archive, ()):
            inner = v.path[len(archive) + 1:]
            if inner:
                if not member.startswith(inner + "/"):
                    continue
                file = member[len(inner) + 1:]
            else:
                file = member
            if f"{_JOIN}{file}{_JOIN}" in f"{_JOIN}{v._files}{_JOIN}":
                return True
        return False

    def _archive_versions(self) -> dict[str, list[Version]]:
        if self._archives is None:
            found: dict[str, list[Version]] = {}
            for v in self.versions():
                if v.archive:
                    found.setdefault(v.archive, []).append(v)
            self._archives = found
        return self._archives

    def runs(self) -> list[Run]:
        """The reading order as [(book, its chapters in this run)] (reading_runs): what lists a
        manga's chapters under book headings. Book "0" may come in more than one run."""
        if self._runs is None:
            self._runs = tuple(reading_runs(self.books))
        return list(self._runs)

    def chapters(self) -> list[Chapter]:
        """Every chapter in reading order (reading_runs): the one order of the manga page,
        "Continue", the reader's next and previous, the Komga API and OPDS."""
        if self._chapters is None:
            self._chapters = tuple(c for _, chapters in self.runs() for c in chapters)
        return list(self._chapters)

    def chapter(self, cid: str) -> Chapter | None:
        """The chapter with id "<book>/<chapter>", or None."""
        if self._by_id is None:
            self._by_id = {c.id: c for b in self.books for c in b.chapters}
        return self._by_id.get(cid)

    def counts(self) -> tuple[int, int, int, int]:
        """(books, chapters, versions, pages), counted once: every scan report sums them over the index."""
        if self._counts is None:
            versions = self.versions()
            self._counts = (len(self.books), sum(len(b.chapters) for b in self.books), len(versions),
                            sum(v.page_count for v in versions))
        return self._counts

    def book(self, key: str) -> Book | None:
        return next((b for b in self.books if b.key == key), None)

    def versions(self) -> list[Version]:
        return [v for b in self.books for c in b.chapters for v in c.versions]

    def __repr__(self) -> str:
        return f"<Manga {self.name!r} {len(self.books)} books>"


def _content(m: Manga) -> Iterator[tuple[Any, ...]]:
    yield m.title, m.sort_title, m.meta, m.direction, m.cover
    for b in m.books:
        yield b.key, b.title, b.folder
        for c in b.chapters:
            yield c.key, c.title
            for v in c.versions:
                yield (v.name, v.source, v.title, v._meta, v.priority, v.direction, v._dir, v._files, v._sizes,
                       v.archive, v.tags)


def same_content(a: Manga, b: Manga) -> bool:
    """True when two builds of a manga show the same thing (stamps and times aside)."""
    return all(x == y for x, y in zip_longest(_content(a), _content(b)))


def _stamps(m: Manga) -> Iterator[Any]:
    yield m.stamp, m.watch, m.warnings, m.added, m.updated
    for b in m.books:
        yield b.stamp
        for c in b.chapters:
            for v in c.versions:
                yield v.stamp


def same_build(a: Manga, b: Manga) -> bool:
    """True when `a` can stand for `b`: the same content, stamps, times and warnings."""
    return same_content(a, b) and all(x == y for x, y in zip_longest(_stamps(a), _stamps(b)))
