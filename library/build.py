"""Building one Manga from its folder (docs/library.md); scan.py decides when.

1. List the manga folder: manga.json, cover.*, pages lying directly in it, and sub-folders.
2. Sort each sub-folder into a slot of a book: a chapter name → book "0"; "Vol.2 Ch.5" → book 2;
   a book name → its own listing, whose sub-folders are the book's chapters (and whose pages, if
   it holds them directly, are its chapter 1); anything else → an unrecognised slot in book "0".
3. Fill the slots in folder order. A slot becomes a Version when its folder holds pages. An
   unrecognised folder with pages gets the next free key after the preceding chapter, with a
   warning; one without pages is skipped, with a warning, and watched for later changes.
4. Versions with the same key are one chapter; books and chapters are sorted by key.

A chapter folder that is read while it is still being written (SCAN_SETTLE, scan.py) is left out
with a "settling" warning and watched so the next check reads it again; an indexed version of it
stays meanwhile.
"""
import os
from typing import NamedTuple

from . import comicinfo
from . import meta as metadata
from .build_archive import ArchiveBuilding, ArchiveSlot, BookInfo
from .folders import join
from .model import UNSETTLED, Book, Chapter, Manga, Version, reading_runs, stamp_ms, stamp_mtime_ns, stamp_of
from .names import (
    IMAGE_EXTENSIONS,
    ChapterName,
    extension,
    is_archive,
    is_page,
    loose_chapter,
    natural_key,
    next_free_key,
    number_key,
    parse_entry,
    unread_format,
)


class Slot(NamedTuple):
    path: str  # absolute folder path
    dir: str  # relative path of its parent folder
    name: str  # folder name: the version name
    parsed: ChapterName | None  # None: unrecognised, read as a chapter only when it holds pages
    pages: list | None = None  # pre-listed page entries (pages lying in a manga or book folder)
    stamp: int | None = None
    note: str = "matches no chapter name"


def warn_unread(warn, rel, name):
    """A file of a book format that is not read (CBR, PDF …): reported, never silently dropped."""
    what = unread_format(name)
    if what:
        warn("skipped-file", join(rel, name),
             f"{what} files are not read: only archives (CBZ, CBR, CB7, CBT, PDF, EPUB) and image folders are")


class MangaBuilder(ArchiveBuilding):
    def __init__(self, scan, name, old):
        self.scan = scan
        self.name = name
        self.old = old
        self.old_versions = {v.path: v for v in old.versions()} if old else {}
        self.old_archives = self._old_archives()
        self.warnings = []
        self.watch = []
        self.slots = {}  # book key → [Slot]
        self.archive_folders = []  # (entry, rel, listing) of unnamed folders of archives (_archives_folder)
        self.book_info = {}  # book key → BookInfo
        self.meta = None
        self.settling = 0  # chapter folders left out until they settle

    def warn(self, kind, path, message):
        self.warnings.append((kind, path, message))

    def _read_meta(self, path, rel):
        data, problem = metadata.read(path)
        if problem:
            self.warn("invalid-json", rel, f"{os.path.basename(rel)} {problem}; it is ignored")
        elif data and metadata.problems(data):
            self.warn("invalid-metadata", rel, "; ".join(metadata.problems(data)) + " (those fields are ignored)")
        return data

    def build(self):
        s, name = self.scan, self.name
        path = os.path.join(s.root, name)
        s.work["stats"] += 1
        stamp = stamp_of(os.stat(path))
        entries = s.listing(path, name, self.warn)
        files = [e for e in entries if not e.is_dir]
        if any(e.name == "manga.json" for e in files):
            self.meta = self._read_meta(os.path.join(path, "manga.json"), join(name, "manga.json"))
        if any(e.name == "series.json" for e in files):  # Mylar's, under manga.json
            mylar = metadata.mylar(self._read_meta(os.path.join(path, "series.json"), join(name, "series.json")))
            self.meta = {**mylar, **(self.meta or {})} if mylar else self.meta
        cover = next((e for e in files if is_page(e.name) and e.name.rpartition(".")[0].casefold() == "cover"), None)
        loose = [e for e in files if is_page(e.name) and e is not cover]
        old = self.old
        # A changed manga.json direction changes every chapter's direction: no chapter is reused then.
        self.reuse = old is not None and metadata.direction(self.meta) == metadata.direction(old.meta)
        if loose:
            self._slot("0", Slot(path, "", name, None, loose, stamp, "pages lie directly in the manga folder"))
        for e in entries:
            if e.is_dir:
                self._classify(e)
            elif is_archive(e.name):
                self._archive_file(e, name)
            else:
                warn_unread(self.warn, name, e.name)
        self._read_archive_folders()
        books = self._books()
        versions = [v for b in books for c in b.chapters for v in c.versions]
        if not books:
            manga = self._manga_inside()
            if manga:
                inside = tuple(join(name, m) + "/" for m in manga)  # said by the one warning below
                self.warnings = [w for w in self.warnings if w[0] != "skipped-folder" and not w[1].startswith(inside)]
                self.warn("manga-folders", name, f"holds manga folders ({', '.join(manga[:3])}), not chapters: "
                          "this looks like a downloader's folder of one source (<source>/<manga>/<chapter>). "
                          "LIBRARY must be the folder whose sub-folders are manga: point it at this folder, "
                          "or move these manga folders up one level")
            elif not self.settling:
                self.warn("skipped-folder", name, "no chapters found in this manga folder")
            self.watch.append((name, stamp))
        # ComicInfo.xml fills in what manga.json does not say: each field from the first chapter, in
        # reading order, that has it; a whole-volume archive's Title names its book (meta.with_comic_info).
        books, self.meta, series = metadata.with_comic_info(books, self.meta)
        title = metadata.text(self.meta, "title") or metadata.folder_title(name)
        sizes = (size for v in versions for size in v.sizes())
        updated = max((stamp_ms(v.stamp) for v in versions), default=stamp_ms(stamp))
        return Manga(
            name, books, title=title, sort_title=metadata.text(self.meta, "sortTitle") or title,
            meta=self.meta or {},
            direction=metadata.resolve_direction(None, self.meta, sizes, s.default_direction, series),
            cover=join(name, cover.name) if cover else _first_page(books),
            added=old.added if old else (updated if s.first else s.now), updated=updated, stamp=stamp,
            watch=self.watch, warnings=self.warnings,
        )

    def _manga_inside(self):
        """Names of the folders of this one that hold chapters (named folders or archives) themselves."""
        found = []
        for slot in self.slots.get("0", ()):
            if isinstance(slot, Slot) and slot.parsed is None and slot.pages is None:
                try:
                    names = [e.name for e in self.scan.listing(slot.path, join(self.name, slot.name), lambda *w: None)]
                except OSError:
                    continue
                if any(parse_entry(n.rpartition(".")[0] if is_archive(n) else n, (slot.name,)) for n in names):
                    found.append(slot.name)
        return found

    def _slot(self, key, slot):
        self.slots.setdefault(key, []).append(slot)

    def _series(self):
        return self.name, metadata.text(self.meta, "title")

    def _classify(self, e):
        """A folder in the manga folder: a chapter (of a book when it names one), a book folder, or
        unrecognised. The same rules as an archive's name (names.parse_entry)."""
        named = parse_entry(e.name, self._series())
        if named and named.chapter:
            key = named.book.key if named.book else "0"
            if named.book:
                self.book_info.setdefault(key, BookInfo(None, None, None))
            return self._slot(key, Slot(e.path, self.name, e.name, named.chapter))
        if named and named.book:
            return self._book_folder(e, named.book)
        if not self._archives_folder(e):
            self._slot("0", Slot(e.path, self.name, e.name, None))

    def _archives_folder(self, e):
        """A folder of the manga folder whose name says nothing and that holds archives but neither
        pages nor chapter folders (`Series - Bonus/…zip`): True when it is one, kept for
        _read_archive_folders(), which decides whether it is part of this manga or a manga itself."""
        rel = join(self.name, e.name)
        try:
            entries = self.scan.listing(e.path, rel, self.warn)
        except OSError:
            return False
        if not any(not x.is_dir and is_archive(x.name) for x in entries):
            return False
        if any(not x.is_dir and is_page(x.name) for x in entries) \
                or any(x.is_dir and parse_entry(x.name, (e.name,)) for x in entries):
            return False
        self.archive_folders.append((e, rel, entries))
        return True

    def _own_chapters(self):
        return any(not (isinstance(slot, Slot) and slot.parsed is None and slot.pages is None)
                   for slots in self.slots.values() for slot in slots)

    def _read_archive_folders(self):
        """Folders of archives are this manga's (a bonus folder) when it has chapters of its own;
        with nothing else they are manga folders (a downloader's source folder, a publisher folder),
        left for the `manga-folders` warning (_manga_inside)."""
        if not self._own_chapters():
            for e, _, _ in self.archive_folders:
                self._slot("0", Slot(e.path, self.name, e.name, None))
            return
        for e, rel, entries in self.archive_folders:
            self.scan.work["stats"] += 1
            self.watch.append((rel, stamp_of(e.st or os.stat(e.path))))
            for x in entries:
                if is_archive(x.name) and not x.is_dir:
                    self._archive_file(x, rel)
                elif x.is_dir:
                    self.warn("skipped-folder", join(rel, x.name), "folders inside a folder of archives are not read")
                else:
                    warn_unread(self.warn, rel, x.name)

    def _book_folder(self, e, book):
        s = self.scan
        rel = join(self.name, e.name)
        s.work["stats"] += 1
        stamp = stamp_of(e.st or os.stat(e.path))
        first = self.book_info.get(book.key)
        if first and first.folder:
            self.warn("duplicate-book", rel, f"a second folder for book {book.key}: read together with {first.folder}")
            self.watch.append((rel, stamp))
        else:
            self.book_info[book.key] = BookInfo(book.title, e.name, stamp)
        entries = s.listing(e.path, rel, self.warn)
        pages = [x for x in entries if not x.is_dir and is_page(x.name)]
        if pages:
            self._slot(book.key, Slot(e.path, self.name, e.name, ChapterName("1", None, None), pages, stamp))
        extras = book.key.startswith("x")
        for x in entries:
            if x.is_dir:
                named = parse_entry(x.name, self._series(), in_book=True, in_extras=extras)
                self._slot(book.key, Slot(x.path, rel, x.name, named.chapter if named else None))
            elif is_archive(x.name):
                self._archive_file(x, rel, book.key)
            else:
                warn_unread(self.warn, rel, x.name)

    def _books(self):
        books = []
        for key, slots in self.slots.items():
            found = []  # (ChapterName or None, Version or None, note)
            for slot in slots:
                if isinstance(slot, ArchiveSlot):
                    note = "the archive's name gives no chapter number"
                    found += [(p, v, note) for p, v in self._archive_versions(slot)]
                else:
                    found.append((*self._version(slot, key), slot.note))
            used = {parsed.key for parsed, _v, _n in found if parsed}
            after, chapters = None, {}
            for parsed, version, note in found:
                if parsed:
                    after = parsed.key
                if version is None:
                    continue
                ckey = parsed.key if parsed else None
                if ckey is None:
                    ckey = after = next_free_key(used, after)
                    used.add(ckey)
                    kind = "unrecognised-archive" if version.archive else "unrecognised-folder"
                    self.warn(kind, version.path, f"{note}: read as chapter {key}/{ckey}")
                chapters.setdefault(ckey, []).append(version)
            info = self.book_info.get(key) or BookInfo(None, None, None)
            if chapters:
                books.append(Book(key, [Chapter(key, ckey, sorted(vs, key=lambda v: natural_key(v.name)))
                                        for ckey, vs in chapters.items()],
                                  title=info.title, folder=info.folder, stamp=info.stamp))
            elif info.folder:
                rel = join(self.name, info.folder)
                if not self.settling:
                    self.warn("skipped-folder", rel, "this book folder holds no chapters")
                self.watch.append((rel, info.stamp))
        return books

    def _version(self, slot, key):
        """(ChapterName or None, the Version of one chapter folder or None with a warning when it holds
        no pages). The name is the slot's, or ComicInfo.xml's Number when the folder name has none."""
        s = self.scan
        rel = join(slot.dir, slot.name)
        stamp = slot.stamp
        if stamp is None:
            s.work["stats"] += 1
            try:
                stamp = stamp_of(os.stat(slot.path))
            except OSError as e:
                self.warn("unreadable", rel, f"cannot be read ({e.strerror or e})")
                return slot.parsed, None
        old = self.old_versions.get(rel)
        if old is not None and not s.full and self.reuse and old.stamp == stamp and slot.pages is None:
            self.warnings.extend(w for w in self.old.warnings if w[1] == rel or w[1].startswith(rel + "/"))
            return self._named(slot, old.meta), old
        chapter_meta, info, pages = None, None, slot.pages
        if pages is None:
            try:
                entries = s.listing(slot.path, rel, self.warn)
            except OSError as e:
                self.warn("unreadable", rel, f"cannot be listed ({e.strerror or e})")
                self.watch.append((rel, stamp))
                return slot.parsed, None
            pages, others = [], []
            for e in entries:  # listed, so never an ignored name: the extension alone makes a page
                (pages if not e.is_dir and extension(e.name) in IMAGE_EXTENSIONS else others).append(e)
            archived = [e for e in others if not e.is_dir and is_archive(e.name)]
            # Series/Chapter 1/01.cbz: a named chapter folder's archives are its versions
            if archived and not pages and slot.parsed is not None:
                for e in archived:
                    self._archive_file(e, rel, key, slot.parsed)
                self.watch.append((rel, stamp))
                return slot.parsed, None
            for e in others:
                if e.is_dir:
                    self.warn("skipped-folder", join(rel, e.name), "folders inside a chapter folder are not read")
                elif e.name == "chapter.json":
                    chapter_meta = self._read_meta(e.path, join(rel, e.name))
                elif e.name.casefold() == "comicinfo.xml":
                    info = self._read_comicinfo(e.path, join(rel, e.name))
                elif is_archive(e.name):
                    self.warn("skipped-file", join(rel, e.name), "archives inside a chapter folder are not read")
                else:
                    warn_unread(self.warn, rel, e.name)
        if not pages:
            if slot.parsed:
                self.warn("empty-chapter", rel, "this chapter folder holds no pages")
            else:
                self.warn("skipped-folder", rel, f"{slot.note} and holds no pages")
            self.watch.append((rel, stamp))
            return slot.parsed, None
        if s.settle_ns:
            pages = self._settled(slot, rel, stamp, pages)
            if pages is None:
                return (self._named(slot, old.meta) if old else slot.parsed), old
        extra, hidden = comicinfo.page_types(info, len(pages))
        if hidden or extra:
            tags = {pages[i].name: extra[i] for i in extra if i not in hidden}
            pages = [e for i, e in enumerate(pages) if i not in hidden]
        else:
            tags = None
        sizes = self._sizes(rel, pages, old, stamp)
        meta = {**comicinfo.chapter_fields(info), **(chapter_meta or {})} or None
        loose = loose_chapter(slot.name, self._series()) if slot.pages is None else ChapterName(None, None, None)
        parsed = slot.parsed or loose
        return self._named(slot, meta), Version(
            slot.name, dir=slot.dir, files=[e.name for e in pages], sizes=sizes, stamp=stamp,
            source=metadata.text(chapter_meta, "source") or parsed.source,
            title=metadata.text(meta, "title") or parsed.title,
            meta=meta, priority=metadata.priority(chapter_meta), tags=tags,
            direction=metadata.resolve_direction(chapter_meta, self.meta, sizes, s.default_direction,
                                                 comicinfo.manga_fields(info)),
        )

    def _named(self, slot, meta):
        """The slot's ChapterName, or one from ComicInfo.xml's Number (kept in the meta) when it has none."""
        number = (meta or {}).get("number") if slot.parsed is None and slot.pages is None else None
        if isinstance(number, str) and comicinfo.number(number):
            return ChapterName(number_key(number), None, None)
        return slot.parsed

    def _read_comicinfo(self, path, rel):
        try:
            with open(path, "rb") as f:
                raw = f.read(comicinfo.MAX_BYTES + 1)
        except OSError as e:
            self.warn("invalid-comicinfo", rel, f"cannot be read ({e.strerror or e}); it is ignored")
            return None
        info, problem = comicinfo.parse(raw)
        if problem:
            self.warn("invalid-comicinfo", rel, f"{problem}; it is ignored")
        return info

    def _settled(self, slot, rel, stamp, pages):
        """The pages (with their stats, for _sizes) when the folder has settled; else None, with a
        warning and a watch that makes the next check read it again."""
        s = self.scan
        # Pages lying in a manga or book folder: that folder's mtime moves with its other entries.
        newest = stamp_mtime_ns(stamp) if slot.pages is None else 0
        changed = False
        stated = []
        for e in pages:
            st = e.st or s.stat(e.path)
            if st is None:  # gone since the listing
                changed = True
                continue
            newest = max(newest, st.st_mtime_ns)
            stated.append(e._replace(st=st))
        after = s.stamp(slot.path)
        seen = (after, tuple((e.name, e.st.st_size, e.st.st_mtime_ns) for e in stated))
        why = s.settled(rel, seen, newest, changed or after != stamp)
        if why is None:
            return stated
        self.settling += 1
        self.warn("settling", rel, f"still being written ({why}): indexed once nothing in it has changed "
                                   f"for {s.settle:g} s")
        self.watch.append((rel, UNSETTLED))
        return None

    def _sizes(self, rel, pages, old, stamp):
        """Sizes of the pages: from the scan cache (full: same size and mtime) or the old version
        (shallow: same name), else read from the header. Unreadable ones are reported."""
        s = self.scan
        sizes, missing, stats = [None] * len(pages), [], []
        if s.full:
            known = _cached(s.cache.get(rel))
            for i, e in enumerate(pages):
                try:
                    s.work["stats"] += 1
                    st = e.st or os.stat(e.path)
                    stat_key = (st.st_size, st.st_mtime_ns)
                except OSError:
                    stat_key = (0, 0)
                stats.append(stat_key)
                hit = known.get(e.name)
                if hit and hit[0] and hit[2:] == stat_key:
                    sizes[i] = hit[:2]
                else:
                    missing.append(i)
        else:
            known = dict(zip(old.files(), old.sizes())) if old else {}
            for i, e in enumerate(pages):
                hit = known.get(e.name)
                if hit and hit[0]:
                    sizes[i] = hit
                else:
                    missing.append(i)
        for i, size in zip(missing, s.read_sizes([pages[i].path for i in missing])):
            sizes[i] = size or (None, None)
            if size is None:
                self.warn("unreadable-image", join(rel, pages[i].name),
                          "the image header cannot be read: the page is shown without a known size")
        if s.full:
            flat = []
            for (w, h), (size, mtime) in zip(sizes, stats):
                flat += (w or 0, h or 0, size, mtime)
            s.new_cache[rel] = {"m": stamp, "n": "\0".join(e.name for e in pages), "s": flat}
        return sizes


def _cached(entry):
    """name → (w, h, size, mtime) from one scan-cache entry; {} when absent or malformed."""
    try:
        names, flat = entry["n"].split("\0"), entry["s"]
        return {n: tuple(flat[4 * i:4 * i + 4]) for i, n in enumerate(names)} if len(flat) == 4 * len(names) else {}
    except (TypeError, KeyError, AttributeError):
        return {}


def _first_page(books):
    """The cover when the manga folder has none: the first page of the first chapter in reading order."""
    for _, chapters in reading_runs(books):
        for c in chapters:
            v = c.ranked()[0]
            return f"{v.path}/{v.files()[0]}"
    return None
