"""Archives in a manga: the part of building a Manga (build.py) that reads CBZ/ZIP files.

1. An archive in the manga folder or a book folder is named (names.parse_archive); a name that
   says nothing takes ComicInfo.xml's Number and Volume, else it is read as a chapter with the
   next free number (a warning, as for a folder).
2. Its Listing comes from the scan cache when its size, mtime and inode are unchanged, else it is
   read (scan.py `read_archive`); an archive still being written, or changed while it was read,
   is left out with a "settling" warning and its indexed versions are kept.
3. It becomes one version, or one per chapter folder inside it (archives.layout).
"""
import os
from typing import NamedTuple

from . import archives, comicinfo
from . import meta as metadata
from .folders import join
from .model import UNSETTLED, Version, stamp_of
from .names import ArchiveName, ChapterName, loose_chapter, parse_archive, source_of


class ArchiveSlot(NamedTuple):
    rel: str
    dir: str
    name: str
    named: ArchiveName | None
    listing: archives.Listing | None
    stamp: int
    parts: list  # [archives.Part]
    kept: list = ()  # [(chapter key, old Version)] while it settles


class BookInfo(NamedTuple):
    title: str | None
    folder: str | None
    stamp: int | None


def _from_comic_info(info, name, in_book, named=None):
    """ArchiveName from ComicInfo.xml's Number and Volume for a name that gives no number, or only a
    position (`named.leading`; pass `named` to keep its title and source), or None (comicinfo.numbered)."""
    return comicinfo.numbered(info, named, in_book, source_of(name))


class ArchiveBuilding:
    """Mixed into build.MangaBuilder: self.scan, self.name, self.meta, self.warn, self.watch, self._slot."""

    def _old_archives(self):
        found = {}
        for b in (self.old.books if self.old else ()):
            for c in b.chapters:
                for v in c.versions:
                    if v.archive:
                        found.setdefault(v.archive, []).append((b.key, c.key, v))
        return found

    def _archive_file(self, e, dir, book_key=None, chapter=None):
        """Slot the archive `e` (an Entry) found in the folder `dir`; book_key when that is a book folder.
        `chapter`: the ChapterName of a chapter folder holding the archive (book_key is then its book's
        key, "0" too): the folder names it."""
        s, rel = self.scan, join(dir, e.name)
        in_book = book_key is not None and book_key != "0"
        st = e.st or s.stat(e.path)
        if st is None:
            return self.warn("unreadable", rel, "cannot be read (it vanished or its permissions forbid it)")
        stamp = stamp_of(st)
        listing = s.cached_archive(rel, st)
        if listing is None:
            why = s.settled(rel, (stamp, st.st_size), st.st_mtime_ns, False) if s.settle_ns else None
            if why is None:
                listing = s.read_archive(e.path, rel)
                after = s.stat(e.path)
                if after is None or (stamp_of(after), after.st_size) != (stamp, st.st_size):
                    why = s.settled(rel, (stamp, st.st_size), st.st_mtime_ns, True)
            if why is not None:
                return self._archive_settling(rel, dir, why)
            s.keep_archive(rel, listing, st)
        if listing.refused:
            self.warn("unreadable-archive", rel, f"not read: {listing.refused}")
            return self.watch.append((rel, stamp))
        self.warnings.extend(listing.warnings)
        named = parse_archive(e.name, (self.name, metadata.text(self.meta, "title")), in_book,
                              in_book and book_key.startswith("x"))
        if chapter is not None:
            named = ArchiveName(None, chapter)
        elif named is None or named.leading:  # no number, or only a leading one that may be a position
            named = _from_comic_info(listing.info, e.name, in_book, named) or named
        key = book_key or (named.book.key if named and named.book else "0")
        if named and named.book and not in_book:
            self.book_info.setdefault(key, BookInfo(named.book.title if named.chapter is None else None, None, None))
        whole = named is None or named.chapter is None or named.span
        parts = archives.layout(listing, e.name, whole)
        if not parts:
            self.warn("empty-chapter", rel, "this archive holds no pages")
            return self.watch.append((rel, stamp))
        self._slot(key, ArchiveSlot(rel, dir, e.name, named, listing, stamp, parts))

    def _archive_settling(self, rel, dir, why):
        s = self.scan
        self.settling += 1
        self.warn("settling", rel, f"still being written ({why}): indexed once it has not changed for {s.settle:g} s")
        self.watch.append((rel, UNSETTLED))
        for book, ckey, v in self.old_archives.get(rel, ()):
            self._slot(book, ArchiveSlot(rel, dir, v.name, None, None, v.stamp, [], [(ckey, v)]))

    def _archive_versions(self, slot):
        """[(ChapterName or None, Version)] of one archive slot."""
        if slot.kept:
            return [(ChapterName(ckey, v.title, v.source), v) for ckey, v in slot.kept]
        info, named, listing = slot.listing.info, slot.named, slot.listing
        ci = comicinfo.manga_fields(info)
        ci_direction = {"direction": ci["direction"]} if "direction" in ci else None
        fields = comicinfo.chapter_fields(info)
        if named and named.chapter is None and fields.get("title"):
            fields["bookTitle"] = fields["title"]  # a whole volume's Title names its book (meta.with_comic_info)
        found = []
        single = len(slot.parts) == 1 and not slot.parts[0].prefix
        for part in slot.parts:
            if single:
                if named and named.chapter:
                    parsed = named.chapter
                elif named:  # a whole volume: its chapter 1, like pages lying in a book folder
                    parsed = ChapterName("1", None, None)
                else:
                    parsed = None
                meta = fields
                name_part = parsed or loose_chapter(os.path.splitext(slot.name)[0], self._series())
                dir, title = slot.dir, metadata.text(meta, "title") or name_part.title
                source = name_part.source
            else:
                # one of its chapters: the archive's Title and Number are not this chapter's, its tags are
                parsed, meta = part.parsed, {k: v for k, v in fields.items()
                                             if k in ("comicInfoSeries", "tags", "bookTitle")}
                parent = part.prefix.rpartition("/")[0]
                dir = f"{slot.rel}/{parent}" if parent else slot.rel
                title, source = parsed.title, parsed.source
            member = part.prefix + "/" if part.prefix else ""
            tags = {f: listing.tags[member + f] for f in part.files if member + f in listing.tags}
            version = Version(
                part.name, dir=dir, files=part.files, sizes=part.sizes, stamp=slot.stamp, source=source, title=title,
                meta=meta or None, archive=slot.rel, tags=tags,
                direction=metadata.resolve_direction(None, self.meta, part.sizes, self.scan.default_direction,
                                                     ci_direction),
            )
            found.append((parsed, version))
        return found
