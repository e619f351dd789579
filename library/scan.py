"""The scan: the folder tree → a new Index and a report (docs/architecture-library.md, "Scans").

1. stat LIBRARY. Missing, unreadable or (when the last index had manga) empty: the scan fails with
   an error and the previous index stays; a lost mount never reads as "everything was deleted".
2. For each manga folder, a shallow scan first compares stamps: one stat per known folder (manga,
   book, chapter, and skipped or empty ones). All equal → the Manga object is reused as it is.
3. Otherwise the manga is built again from its folders (build.py). A shallow rebuild reuses every
   chapter folder whose stamp is unchanged and the sizes of file names it knew; a full scan lists
   every folder, stats every page, and reads a header only when the scan cache has no entry with
   the same size and mtime. A build equal to the previous one in content, stamps and warnings
   (model.same_build) is dropped for the previous Manga object.
4. The new Index is compared with the previous one: manga added, changed (same_content) or removed.

Settling (SCAN_SETTLE, `settle` seconds; 0 turns it off): a chapter folder that is read (new or
changed) and is still being written is left out for now, with a "settling" warning, so a chapter
copied in by hand is never indexed (or announced) half-copied. It is still being written when its
newest mtime (its own or a page's) is less than `settle` seconds old, or when it changed between
two looks: within this read (its stamp before the listing and after the pages' stats), or since
the last scan saw it. An mtime in the future settles once the folder stayed the same for `settle`
seconds as seen by this clock. A chapter already in the index keeps its indexed version meanwhile.
Deferred folders are remembered in `Index.settling` and watched with a stamp no folder has, so the
next shallow check reads them again; the service schedules that check (service.py).

The tree is read at most three folders deep (manga / book / chapter), so link loops cannot make a
scan run forever, and no symlink leading out of LIBRARY is followed (folders.py).
"""
import logging
import os
import time
from concurrent.futures import ThreadPoolExecutor

from . import archives, imagesize, zipread
from .build import MangaBuilder
from .folders import list_folder
from .index import Index
from .model import same_build, same_content, stamp_of
from .names import is_archive, is_page, unread_format

log = logging.getLogger(__name__)

MAX_REPORTED_WARNINGS = 200


def make_report(kind, start, seconds, shown, changed, *, error=None, work=None, transient=(), unavailable=False):
    """A scan report (see docs/architecture-library.md); `shown` is the index the counts describe.
    `unavailable`: the error is that LIBRARY itself cannot be read (ScanError)."""
    warnings = list(transient) + shown.all_warnings()
    return {
        "kind": kind, "start": start, "duration": int(seconds * 1000), "error": error,
        "unavailable": unavailable, "counts": shown.counts(),
        "changed": changed,
        "warnings": [{"kind": k, "path": p, "message": m} for k, p, m in warnings[:MAX_REPORTED_WARNINGS]],
        "warningCount": len(warnings),
        "work": dict(work or {"stats": 0, "listings": 0, "headers": 0, "archives": 0}),
        "settling": len(shown.settling),
    }


class Aborted(Exception):
    """The scan was asked to stop; nothing of it is used."""


def now_ms():
    return int(time.time() * 1000)


class Scan:
    """One scan. `kind` is "full" or "shallow"; `cache` is the loaded scan cache (full scans), or a
    function that loads it when an archive first needs it (shallow scans). `new_cache` collects
    what this scan read: every folder and archive in a full scan, the archives it read otherwise."""

    def __init__(self, root, previous, kind="shallow", *, cache=None, default_direction="rtl",
                 concurrency=1, should_stop=None, allow_empty=False, settle=0, clock=time.time, taken=None):
        self.taken = taken or {}  # manga name → the earlier library holding it (libraries.py)
        self.root = os.fspath(root)
        self.root_real = os.path.realpath(self.root)
        self.previous = previous or Index()
        self.kind = kind
        self.full = kind == "full"
        self._cache = cache if cache is not None else {}
        self.new_cache = {}
        self.default_direction = default_direction
        self.concurrency = concurrency
        self.should_stop = should_stop or (lambda: False)
        self.allow_empty = allow_empty
        self.work = {"stats": 0, "listings": 0, "headers": 0, "archives": 0}
        self.now = now_ms()
        self.transient = []  # warnings about this scan only (a manga folder unreadable right now)
        self.first = not self.previous.manga and not self.previous.hidden
        self._pool = None
        self.settle = settle
        self.settle_ns = int(settle * 1e9)
        self.clock = clock
        self.settling = {}  # the new Index.settling

    # Helpers used by build.py

    def stamp(self, path):
        self.work["stats"] += 1
        try:
            return stamp_of(os.stat(path))
        except OSError:
            return None

    def listing(self, path, rel, warn):
        self.work["listings"] += 1
        return list_folder(path, rel, self.root_real, warn)

    def stat(self, path):
        self.work["stats"] += 1
        try:
            return os.stat(path)
        except OSError:
            return None

    def settled(self, rel, seen, newest, changed):
        """Whether a chapter folder may be indexed now (see Settling above); when not, it is
        remembered in self.settling. `seen`: what was read of it (compared with the last look),
        `newest`: its newest mtime in ns, `changed`: it changed while it was read.
        -> None when settled, else why not (for the warning)."""
        now = int(self.clock() * 1e9)
        last = self.previous.settling.get(rel)
        same = not changed and last is not None and last[0] == seen
        first = last[1] if same else now
        if not changed:
            if newest <= now - self.settle_ns or (same and now - first >= self.settle_ns):
                return None
        due = (first if changed or newest > now else newest) + self.settle_ns
        self.settling[rel] = (seen, first, due)
        if changed:
            return "it changed while it was read"
        if newest > now:
            return "its newest file is dated in the future"
        return f"it changed {(now - newest) / 1e9:.1f} s ago"

    @property
    def cache(self):
        if callable(self._cache):
            self._cache = self._cache() or {}
        return self._cache

    def cached_archive(self, rel, st):
        """The Listing of an archive this scan or the cache already knows at this size, mtime and inode."""
        entry = self.new_cache.get(rel) or self.cache.get(rel)
        listing = archives.from_cache(entry, st) if isinstance(entry, dict) and "a" in entry else None
        if listing is not None and self.full:
            self.new_cache[rel] = entry  # a full scan writes the whole cache anew
        return listing

    def read_archive(self, path, rel):
        """Open the archive and read its Listing; whatever is wrong with it becomes its refusal."""
        self.work["archives"] += 1
        try:
            listing = archives.read(path, rel)
        except zipread.Refused as e:
            return archives.refusal(str(e))
        except OSError as e:
            return archives.refusal(f"it cannot be read ({e.strerror or e})")
        except Exception as e:  # a hostile archive must never stop a scan
            log.warning("library: the archive %s could not be read", rel, exc_info=True)
            return archives.refusal(f"it could not be read ({type(e).__name__})")
        self.work["headers"] += len(listing.pages)
        return listing

    def keep_archive(self, rel, listing, st):
        self.new_cache[rel] = archives.to_cache(listing, st)

    def read_sizes(self, paths):
        self.work["headers"] += len(paths)
        if self.concurrency > 1 and len(paths) > 1:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.concurrency, thread_name_prefix="scan-read")
            return list(self._pool.map(imagesize.size, paths))
        return [imagesize.size(p) for p in paths]

    # The scan

    def run(self):
        """(new Index or None when it failed, report). The previous index is never modified."""
        start = time.monotonic()
        try:
            index, changed = self._run()
            error = None
        except ScanError as e:
            index, changed, error = None, {"added": [], "changed": [], "removed": []}, str(e)
        finally:
            if self._pool:
                self._pool.shutdown()
        # `is None`, not falsiness: an empty Index is falsy, and its warnings are what an empty library needs.
        report = make_report(self.kind, self.now, time.monotonic() - start, self.previous if index is None else index,
                             changed, error=error, work=self.work, transient=self.transient,
                             unavailable=error is not None)
        return index, report

    def _run(self):
        prev = self.previous
        try:
            st = os.stat(self.root)
        except OSError as e:
            raise ScanError(f"the library at {self.root} cannot be read ({e.strerror or e}): is it mounted?") from None
        if not os.path.isdir(self.root):
            raise ScanError(f"the library at {self.root} is not a folder")
        root_stamp = stamp_of(st)
        root_warnings = []
        warn = lambda kind, path, message: root_warnings.append((kind, path, message))  # noqa: E731
        if not self.full and root_stamp == prev.root_stamp and self._same_names_taken():
            names = sorted([*prev.manga, *prev.hidden])
            root_warnings = list(prev.warnings)
        else:
            try:
                entries = self.listing(self.root, "", warn)
            except OSError as e:
                why = e.strerror or e
                raise ScanError(f"the library at {self.root} cannot be read ({why}): is it mounted?") from None
            names = [e.name for e in entries if e.is_dir]
            for name in [n for n in names if n in self.taken]:
                warn("duplicate-name", name, f"the library {self.taken[name]} has a manga folder of this name, "
                                             "and a manga's name is its id: rename one of them to read both")
            names = [n for n in names if n not in self.taken]
            for e in entries:
                if not e.is_dir and is_page(e.name):
                    warn("skipped-file", e.name, "pages at the top level are not read: put them in a manga folder")
                elif not e.is_dir and is_archive(e.name):
                    warn("skipped-file", e.name, "archives at the top level are not read: put each series' "
                                                 "archives in a folder named after it")
                elif not e.is_dir and unread_format(e.name):
                    warn("skipped-file", e.name, f"{unread_format(e.name)} files are not read, and files at the "
                                                 "top level neither: only folders and CBZ/ZIP archives inside them are")
        if not names and prev.manga and not self.allow_empty:
            raise ScanError(
                f"the library at {self.root} is empty, though the last scan found {len(prev.manga)} manga: "
                "is it mounted? The previous index is kept; an admin's full scan accepts an empty library."
            )
        manga, hidden = {}, {}
        for name in names:
            if self.should_stop():
                raise Aborted()
            old = prev.manga.get(name) or prev.hidden.get(name)
            m = self._manga(name, old)
            if m is not None:
                (manga if m.books else hidden)[name] = m
        index = Index(manga, hidden=hidden, root_stamp=root_stamp, warnings=root_warnings, settling=self.settling)
        return index, self._changes(manga)

    def _same_names_taken(self):
        """Whether the names earlier libraries hold leave this one's list of manga as the last scan had it."""
        skipped = {path for kind, path, _ in self.previous.warnings if kind == "duplicate-name"}
        return skipped == {n for n in self.taken if n in skipped} and not any(
            n in self.taken for n in (*self.previous.manga, *self.previous.hidden))

    def _manga(self, name, old):
        if old is not None and not self.full and self._unchanged(old):
            return old
        try:
            new = MangaBuilder(self, name, old).build()
            # A full scan reads everything again; what it found unchanged keeps its object, so the
            # caches keyed by it (summaries, tiles, the library page) stay valid.
            return old if old is not None and new is not None and same_build(new, old) else new
        except FileNotFoundError:
            return None
        except OSError as e:
            self.transient.append(("unreadable", name, f"the manga folder cannot be read ({e.strerror or e})"))
            return old  # a folder that cannot be read right now is not a deleted one

    def _unchanged(self, m):
        """One stat per folder the last build looked at; any difference means a rebuild."""
        root, stamp = self.root + os.sep, self.stamp  # concatenation: os.path.join was 13 % of the check
        if stamp(root + m.name) != m.stamp:
            return False
        for b in m.books:
            if b.folder and stamp(f"{root}{m.name}/{b.folder}") != b.stamp:
                return False
            for c in b.chapters:
                for v in c.versions:
                    if stamp(root + (v.archive or v.path)) != v.stamp:
                        return False
        return all(stamp(root + rel) == s for rel, s in m.watch)

    def _changes(self, manga):
        return changes(self.previous.manga, manga)


def changes(prev, manga):
    """{"added", "changed", "removed"}: the names of manga added, changed in content and removed."""
    return {"added": sorted(n for n in manga if n not in prev),
            "changed": sorted(n for n, m in manga.items()
                              if n in prev and m is not prev[n] and not same_content(m, prev[n])),
            "removed": sorted(n for n in prev if n not in manga)}


class ScanError(Exception):
    """LIBRARY cannot be scanned at all; the previous index stays."""


def differs(old, new):
    """True when `new` must replace `old` (content, stamps or warnings changed)."""
    if new is None:
        return False
    if new.root_stamp != old.root_stamp or new.warnings != old.warnings or new.settling != old.settling:
        return True
    if new.unavailable != old.unavailable:
        return True
    for mine, theirs in ((new.manga, old.manga), (new.hidden, old.hidden)):
        if mine.keys() != theirs.keys() or any(m is not theirs[n] for n, m in mine.items()):
            return True
    return False
