"""The library as the rest of the reader sees it: the background scanner and its hooks.

- `start()` restores the index snapshot (browsing works at once) and starts the scanner thread;
  the thread runs the hooks for the restored index, then a shallow check, or a full scan when
  there was no usable snapshot or the last full scan is FULL_SCAN_INTERVAL old. After that a
  shallow check every SCAN_INTERVAL minutes and a full one every FULL_SCAN_INTERVAL minutes
  (0 turns either off). While a chapter folder is settling (SCAN_SETTLE, scan.py), a shallow check
  comes back when the first of them may have settled, at most SCAN_SETTLE seconds later, whatever
  SCAN_INTERVAL says.
- `request_scan(full, wait)`: one scan runs at a time; requests made meanwhile merge into the next.
- after each scan it sends `mangacircus.events.scan_finished(index, report)`, in the scanner thread, with the
  changed set in report["changed"] ({"added", "changed", "removed"}: manga names). A restore
  reports every manga as changed, so hooks catch up with what happened while the reader was off.
- `admin_summary()`: {"scans": the last reports, newest first, "scanning": bool}.
- a scan that cannot read LIBRARY at all (missing, unreadable, suddenly empty: an unmounted disk)
  keeps the last index, marked with why (`Index.unavailable`), and records a `library-unavailable`
  incident once; the next scan that reads it replaces the mark. `unavailable()` answers why.
- `start(clock)`: the schedule is measured on `clock` (seconds, time.monotonic by default); a test
  passes its own, moves it, and calls `wake()` so the scanner looks at it again.

Requests never wait for any of it: they read `index.current()`.
"""
import logging
import threading
import time
from collections import ChainMap, Counter, deque

from django.conf import settings
from django.utils.translation import gettext

from mangacircus import events, incidents, memory, pauses
from mangacircus.errors import Unavailable

from . import faults, index, libraries, meta, renames, snapshot
from .scan import Aborted, Scan, changes, differs, make_report, now_ms

log = logging.getLogger(__name__)

KEPT_REPORTS = 10
SNAPSHOT_REFRESH = 600_000  # ms
RETRY = 60
SETTLE_MARGIN = 0.05  # seconds past a settling folder's due time: its mtime must be old enough by then
SHOWN_NAMES = 100

_scanner = None


def _trimmed(report):
    """The report as kept for the admin screens: long name lists shortened, with their counts."""
    changed = {k: names[:SHOWN_NAMES] for k, names in report["changed"].items()}
    counts = {k: len(names) for k, names in report["changed"].items()}
    return {**report, "changed": changed, "changedCounts": counts}


class Part:
    """One library's share of the scanner: its Index, snapshot and scan cache (libraries.py)."""

    def __init__(self, library, data):
        self.library = library
        self.root = library.root
        self.snapshot_path = data / library.data_file("library-index")
        self.cache_path = data / library.data_file("scan-cache")
        self.index = index.Index()
        self.recent = {}  # archives read by shallow scans since the last full scan wrote the cache

    def cache(self):
        """The scan cache and the archives read since it was written. A shallow scan loads it only
        when a changed manga holds an archive; it is not kept in memory between scans."""
        return ChainMap(self.recent, snapshot.load_cache(self.cache_path, self.root))


class Scanner:
    def __init__(self, libraries, data, clock=time.monotonic):
        self.parts = [Part(lib, data) for lib in libraries]
        self.clock = clock
        self.cond = threading.Condition()
        self.pending = None  # {"full": bool, "explicit": bool}, merged until the thread takes it
        self.requested = self.done = 0
        self.running = self.stopping = False
        self.reports = deque(maxlen=KEPT_REPORTS)
        self.last_full = None
        self.saved_full = None  # the last full scan's time as written in the snapshots
        self.last_end = clock()
        self.failed = False  # the last scan failed: scheduled scans wait at least RETRY seconds
        self.restored = None
        self.last_report = None
        self.thread = None

    # Start and stop

    def start(self):
        with pauses.building():  # millions of objects at a million pages: no collector walking them meanwhile
            self._restore()
        memory.give_back()  # the decoded snapshots' pages
        self.thread = threading.Thread(target=self._loop, name="library scanner", daemon=True)
        self.thread.start()

    def _restore(self):
        """Each library's index from its snapshot; a full scan is pending for any without one."""
        started = time.monotonic()
        restored, fulls = {}, []
        for part in self.parts:
            found, last_full, why = snapshot.load(part.snapshot_path, part.root, part.library.direction)
            if found is None:
                log.info("library %s: %s; a full scan follows", part.library.name, why)
                fulls.append(None)
            else:
                part.index = restored[part.library.name] = found
                fulls.append(last_full)
        if not restored:
            self.pending = {"full": True, "explicit": False}
            return
        index.replace(self._merged())
        self.last_full = self.saved_full = None if None in fulls else min(fulls)
        self.pending = {"full": self._full_due(), "explicit": False}
        current = index.current()
        changed = {"added": [], "changed": sorted(current.manga), "removed": []}
        self.restored = make_report("restore", now_ms(), time.monotonic() - started, current, changed)
        self.reports.append(_trimmed(self.restored))

    def _merged(self):
        return index.merged({part.library.name: part.index for part in self.parts})

    def stop(self):
        with self.cond:
            self.stopping = True
            self.cond.notify_all()
        if self.thread:
            self.thread.join(30)

    # Requests

    def request(self, full=False, wait=False, explicit=False, timeout=None):
        with self.cond:
            job = self.pending or {"full": False, "explicit": False}
            self.pending = {"full": job["full"] or full, "explicit": job["explicit"] or explicit}
            self.requested += 1
            mine = self.requested
            self.cond.notify_all()
            if not wait:
                return None
            deadline = None if timeout is None else time.monotonic() + timeout
            while self.done < mine and not self.stopping:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return None
                self.cond.wait(left)
            return self.last_report if self.done >= mine else None

    def wake(self):
        with self.cond:
            self.cond.notify_all()

    def summary(self):
        with self.cond:
            return {"scans": list(reversed(self.reports)), "scanning": self.running}

    # The thread

    def _full_due(self):
        interval = settings.FULL_SCAN_INTERVAL * 60_000
        return bool(interval) and (self.last_full is None or now_ms() - self.last_full >= interval)

    def _next_wait(self):
        """Seconds until the next scheduled scan (None: none scheduled), and whether it is full."""
        waits = []
        if settings.SCAN_INTERVAL:
            waits.append((self.last_end + settings.SCAN_INTERVAL * 60 - self.clock(), False))
        if settings.FULL_SCAN_INTERVAL:
            since = now_ms() - (self.last_full or 0)
            waits.append(((settings.FULL_SCAN_INTERVAL * 60_000 - since) / 1000, True))
        settling = index.current().settling
        if settling and settings.SCAN_SETTLE:
            due = (min(due for _seen, _first, due in settling.values()) - time.time_ns()) / 1e9 + SETTLE_MARGIN
            latest = self.last_end + settings.SCAN_SETTLE - time.monotonic()
            waits.append((min(due, latest), False))
        if self.failed:
            floor = self.last_end + RETRY - self.clock()
            waits = [(max(wait, floor), full) for wait, full in waits]
        return min(waits) if waits else (None, False)

    def _loop(self):
        pauses.background()
        if self.restored:
            self._notify(index.current(), self.restored)
        while True:
            with self.cond:
                while not self.stopping and self.pending is None:
                    wait, full = self._next_wait()
                    if wait is not None and wait <= 0:
                        self.pending = {"full": full, "explicit": False}
                        break
                    self.cond.wait(wait)
                if self.stopping:
                    return
                job, self.pending = self.pending, None
                taken = self.requested
                self.running = True
            started = time.monotonic()
            try:
                report = self._scan(job)
            except Exception as e:
                log.exception("library scan failed")
                report = make_report("full" if job["full"] else "shallow", now_ms(), time.monotonic() - started,
                                     index.current(), {"added": [], "changed": [], "removed": []},
                                     error=f"the scan failed: {e!r}; the log has the details")
            if job["full"] or (report and any(report["changed"].values())):
                # The scan's garbage, gone with _scan's locals: a full scan's cache and the index it
                # built (at a million pages some 130 MB beside the current one). The old index goes
                # as its last readers finish.
                memory.give_back()
            with self.cond:
                self.running = False
                self.last_end = self.clock()
                was_failing = self.failed
                self.failed = report is None or bool(report["error"])
                if report is not None and report["error"] and not report["unavailable"] and not was_failing:
                    incidents.record("scan-failed", "reader", report["error"])
                self.last_report = report and _trimmed(report)
                if report is not None:
                    self.reports.append(self.last_report)
                self.done = taken
                self.cond.notify_all()
            pauses.settle()

    def _scan(self, job):
        """Scan each library in turn, then take in what they found as one change (a manga moved from
        one library to another is a rename). A library that cannot be read keeps its last Index,
        marked unavailable; the others go on."""
        kind = "full" if job["full"] else "shallow"
        previous = index.current()
        if len(self.parts) == 1:
            self.parts[0].index = previous  # one library's Index is the current one (whoever replaced it)
        scans, taken = [], {}
        for part in self.parts:
            saved_cache = snapshot.load_cache(part.cache_path, part.root) if job["full"] else None
            cache = ChainMap(part.recent, saved_cache) if job["full"] else part.cache
            scan = Scan(part.root, part.index, kind, cache=cache, default_direction=part.library.direction,
                        concurrency=settings.SCAN_CONCURRENCY, should_stop=lambda: self.stopping,
                        allow_empty=job["explicit"], settle=settings.SCAN_SETTLE, taken=taken)
            try:
                new, report = scan.run()
            except Aborted:
                return None
            if report["error"]:
                log.error("library scan: %s", self._named(part, report["error"]))
                new = self._unavailable(part, report["error"]) if report["unavailable"] else part.index
            elif part.index.unavailable:
                log.warning("library: %s can be read again", part.root)
            taken.update(dict.fromkeys([*new.manga, *new.hidden], part.library.name))
            scans.append((part, scan, new, saved_cache, report))
        failed = [s for s in scans if s[4]["error"]]
        if len(failed) == len(scans):
            self._replace(scans, previous)
            return self._combined(kind, scans, index.current(), previous)
        merged = index.merged({part.library.name: new for part, _, new, _, _ in scans})
        report = self._combined(kind, scans, merged, previous)
        # Before the new index is seen: a renamed manga shows its users' data at once, and is no new one
        renames.apply(previous, merged, report)
        replaced = self._replace(scans, previous)
        self._notify(index.current(), report)
        if job["full"]:
            self.last_full = report["start"]
            for part, scan, _, saved_cache, one in scans:
                if not one["error"] and snapshot.save_cache(part.cache_path, scan.new_cache, part.root,
                                                            saved=saved_cache):
                    part.recent = {}
        else:
            for part, scan, *_ in scans:
                part.recent.update(scan.new_cache)
        # A full scan that changed nothing rewrites the snapshot only for its time, at most every
        # SNAPSHOT_REFRESH: writing 20,000 pages' index holds the GIL for 25-50 ms.
        stale = self.saved_full is None or self.last_full - self.saved_full >= SNAPSHOT_REFRESH
        if replaced or (job["full"] and stale):
            for part in self.parts:
                if part in replaced or (job["full"] and stale):
                    snapshot.save(part.snapshot_path, part.index, part.root, self.last_full, part.library.direction)
            self.saved_full = self.last_full
        changed = report["changed"]
        if any(changed.values()):
            log.info("library %s scan: %d added, %d changed, %d removed (%d ms)", kind, len(changed["added"]),
                     len(changed["changed"]), len(changed["removed"]), report["duration"])
        return report

    def _replace(self, scans, previous):
        """Each library's new Index in place, and the merged one when anything differs: the parts replaced."""
        replaced = [part for part, _, new, _, _ in scans if differs(part.index, new)]
        for part, _, new, _, _ in scans:
            part.index = new
        if replaced:
            index.replace(self._merged())
        return replaced

    def _named(self, part, text):
        return f"{part.library.name}: {text}" if len(self.parts) > 1 else text

    def _combined(self, kind, scans, shown, previous):
        """One report for the libraries' scans (with one library, its own)."""
        if len(scans) == 1:
            return scans[0][4]
        errors = [self._named(part, one["error"]) for part, _, _, _, one in scans if one["error"]]
        work = {key: sum(scan.work[key] for _, scan, *_ in scans) for key in scans[0][1].work}
        transient = [w for _, scan, *_ in scans for w in scan.transient]
        seconds = sum(one["duration"] for *_, one in scans) / 1000
        report = make_report(kind, scans[0][4]["start"], seconds, shown, changes(previous.manga, shown.manga),
                             error="; ".join(errors) or None, work=work, transient=transient,
                             unavailable=all(one["unavailable"] for *_, one in scans if one["error"]))
        report["libraries"] = [{"name": part.library.name, "error": one["error"], "duration": one["duration"],
                                "counts": one["counts"]} for part, *_, one in scans]
        return report

    def _unavailable(self, part, why):
        """The library's last Index, marked with why; the incident only when it was readable until now."""
        if part.index.unavailable == why:
            return part.index
        if part.index.unavailable is None:
            incidents.record("library-unavailable", "reader",
                             f"{self._named(part, why)} The last index is kept until it is back.")
        return part.index.marked_unavailable(why)

    def _notify(self, current, report):
        events.scan_finished.send(current, report)


def offline_index():
    """The index as a command run without a reader sees it: the reader's snapshots, else a full scan
    (of nothing when LIBRARY is not set)."""
    parts, taken = {}, {}
    for lib in libraries.all():
        part, _, _ = snapshot.load(settings.DATA / lib.data_file("library-index"), lib.root, lib.direction)
        if part is None:
            part = Scan(lib.root, index.Index(), "full", default_direction=lib.direction,
                        concurrency=settings.SCAN_CONCURRENCY, allow_empty=True, settle=settings.SCAN_SETTLE,
                        taken=taken).run()[0] or index.Index()
        taken.update(dict.fromkeys([*part.manga, *part.hidden], lib.name))
        parts[lib.name] = part
    return index.merged(parts) if parts else index.Index()


def start(clock=time.monotonic):
    """Called from LibraryConfig.start_runtime: restore, then scan in the background."""
    global _scanner
    if _scanner is not None:
        return
    if settings.LIBRARY is None:
        log.warning("LIBRARY is not set: the library stays empty")
        return
    settings.DATA.mkdir(parents=True, exist_ok=True)
    _scanner = Scanner(libraries.all(), settings.DATA, clock)
    _scanner.start()


def stop():
    global _scanner
    if _scanner is not None:
        _scanner.stop()
        _scanner = None


def request_scan(full=False, wait=False, explicit=False, timeout=None):
    """Ask for a scan. With wait, return its report (None on timeout or when not running).

    explicit: an admin asked for it, so an empty LIBRARY is taken as emptied on purpose.
    """
    if _scanner is None:
        return None
    return _scanner.request(full=full, wait=wait, explicit=explicit, timeout=timeout)


def wake():
    """Have the scanner look at its clock again now (after a test moved the clock it was given)."""
    if _scanner is not None:
        _scanner.wake()


def admin_summary():
    if _scanner is None:
        if settings.LIBRARY is None:
            error = gettext("LIBRARY is not set")
        else:
            error = gettext("the library scanner is not running")
        return {"scans": [], "scanning": False, "error": error}
    return _scanner.summary()


def library_list():
    """[{name, folder, direction, manga, unavailable}] of each library, in LIBRARIES' order."""
    current = index.current()
    parts = {part.library.name: part.index for part in _scanner.parts} if _scanner is not None else {}
    first = next(iter(libraries.all()), None)
    counts = Counter(current.library_of.get(name, first and first.name) for name in current.manga)
    out = []
    for lib in libraries.all():
        count = counts[lib.name]
        part = parts.get(lib.name)
        out.append({"name": lib.name, "folder": str(lib.root), "direction": lib.direction,
                    "directionName": meta.DIRECTION_NAMES[lib.direction], "manga": count,
                    "unavailable": part.unavailable if part is not None else None})
    return out


def unavailable():
    """Why LIBRARY could not be read at the last scan (the index shown is the one before), or None."""
    return index.current().unavailable


def health():
    """The library's part of GET /api/admin/health: the last scan, whether one runs, whether
    LIBRARY can be read, and the files of the index that could not be read, by kind."""
    summary = admin_summary()
    last = summary["scans"][0] if summary["scans"] else None
    keys = ("kind", "start", "duration", "error", "counts")
    unread = faults.unread_counts(index.current())
    return {"scanning": summary["scanning"], "error": summary.get("error"), "unavailable": unavailable(),
            "unreadFiles": {"count": sum(unread.values()), "kinds": unread},
            "lastScan": {k: last.get(k) for k in keys} if last else None}


def scan_now(full=False, timeout=600):
    """A scan an admin asked for (the JSON API and the admin screen): its report, or None when it
    is still running after `timeout` seconds. Unavailable when the scanner is not running."""
    report = request_scan(full=full, wait=True, explicit=True, timeout=timeout)
    if report is None and "error" in admin_summary():
        raise Unavailable(admin_summary()["error"])
    return report
