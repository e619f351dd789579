"""One backup run, retention, and the schedule thread (docs/backup.md).

A run:
1. Ask every registered pauser to pause (the scraper finishes its page and saves its checkpoint;
   its pause is a lease, backup.json's `pauseLeaseSeconds`, that ends by itself if this process
   dies). Not running is fine.
2. Collect DATA: the state files held in memory from their snapshots (as of now or of their next
   flush), everything else from disk, caches and secrets left out (archive.collect).
3. Write BACKUP/mangacircus-YYYYMMDD-HHMMSS.tar.gz.part (mode 0600), fsync it.
4. Resume the pausers.
5. Verify it: read every member back against the manifest.
6. Rename it to the final name and fsync BACKUP, so a final name is always a whole, verified archive.
7. Apply retention, record the run in backup.json.
A failure at any step removes the .part, leaves earlier archives alone, records the run as failed
and a `backup-failed` incident.
"""
import datetime
import logging
import os
import re
import shutil
import threading
import time

from django.conf import settings
from django.utils.translation import gettext

from mangacircus import incidents
from mangacircus.backups import pausers, snapshots
from mangacircus.errors import Conflict, Invalid, NotFound
from mangacircus.jsonfile import fsync_dir

from . import archive, state

log = logging.getLogger(__name__)

NAME = re.compile(r"mangacircus-(\d{8})-(\d{6})(?:-(\d+))?\.tar\.gz")

_running = threading.Lock()
_progress = {}


def folder():
    if settings.BACKUP is None:
        raise Invalid(gettext("BACKUP is not set: set it to a folder for the archives (docs/backup.md)"))
    return settings.BACKUP


def progress():
    """The run in progress ({step, started, ...}) or None."""
    return dict(_progress) if _progress else None


def _step(text, **more):
    _progress.update(step=text, **more)
    log.info("backup: %s", text)


def run(trigger="manual"):
    """Run one backup now; -> the recorded run. Conflict when one runs already."""
    target = folder()
    if not _running.acquire(blocking=False):
        raise Conflict(gettext("a backup is running already"))
    started = time.time()
    _progress.clear()
    _progress.update(started=int(started * 1000), trigger=trigger)
    part = None
    record = {"started": int(started * 1000), "trigger": trigger, "ok": False, "archive": None}
    try:
        target.mkdir(parents=True, exist_ok=True)
        name = _new_name(target, started)
        part = target / (name + ".part")
        _remove_leftovers(target)
        resumes = _pause(state.pause_lease())
        try:
            _step("taking the data")
            skip = [target] if target.resolve().is_relative_to(settings.DATA.resolve()) else []
            entries = archive.collect(settings.DATA, snapshots(), skip=skip)
            _step("writing the archive", files=len(entries))
            manifest = archive.write(part, entries, lambda done, total: _progress.update(written=done))
        finally:
            _resume(resumes)
        _step("verifying the archive")
        archive.read(part)
        final = target / name
        os.replace(part, final)
        fsync_dir(target)
        part = None
        record.update(ok=True, archive=name, size=final.stat().st_size, files=len(manifest["files"]))
        state.add_run({**record, "finished": int(time.time() * 1000)})
        _step("applying retention")
        record["removed"] = apply_retention(target)
    except Exception as e:  # whatever went wrong, the run is recorded as failed with the reason
        message = _reason(e)
        record["error"] = message
        incidents.record("backup-failed", "reader", f"the backup failed: {message}", data_dir=settings.DATA)
        log.error("backup failed: %s", message)
        state.add_run({**record, "finished": int(time.time() * 1000)})
    finally:
        if part is not None:
            try:
                part.unlink()
            except OSError:
                pass
        _progress.clear()
        _running.release()
    record["finished"] = int(time.time() * 1000)
    return record


def _reason(error):
    if isinstance(error, OSError):
        return f"{error.strerror or error}" + (f" ({error.filename})" if error.filename else "")
    if isinstance(error, archive.ArchiveError):
        return str(error)
    log.exception("backup")
    return f"internal error: {error.__class__.__name__}: {error}"


def _pause(lease):
    _step("pausing the scraper")
    resumes = []
    for pause in pausers():
        try:
            resume = pause(lease)
        except Exception as e:  # a pauser that fails must not stop the backup
            log.warning("backup: could not pause: %s", e)
            continue
        if resume:
            resumes.append(resume)
    return resumes


def _resume(resumes):
    for resume in resumes:
        try:
            resume()
        except Exception as e:
            log.warning("backup: could not resume (its lease ends the pause): %s", e)


def _remove_leftovers(target):
    """A .part is only ever written by the one running backup: any other is from a run that died."""
    for leftover in target.glob("mangacircus-*.tar.gz.part"):
        try:
            leftover.unlink()
            log.info("backup: removed %s, left by an interrupted run", leftover.name)
        except OSError:
            pass


def _new_name(target, started):
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(started))
    name, n = f"mangacircus-{stamp}.tar.gz", 1
    while (target / name).exists() or (target / (name + ".part")).exists():
        n += 1
        name = f"mangacircus-{stamp}-{n}.tar.gz"
    return name


def archives(target=None):
    """Final-named archives in BACKUP, newest first: [(name, datetime)]."""
    target = target or folder()
    found = []
    try:
        names = os.listdir(target)
    except FileNotFoundError:
        return []
    for name in names:
        match = NAME.fullmatch(name)
        if match:
            when = datetime.datetime.strptime(match[1] + match[2], "%Y%m%d%H%M%S")
            found.append((name, when, int(match[3] or 1)))
    found.sort(key=lambda a: (a[1], a[2]), reverse=True)
    return [(name, when) for name, when, _ in found]


def keep_set(found, keep, weeks, verified):
    """Names to keep among `found` (newest first): the newest `keep`, the newest of each of the
    last `weeks` calendar weeks (Monday to Sunday, the newest archive's week being the first),
    and always the newest verified archive."""
    kept = {name for name, _ in found[:keep]}

    def monday(when):
        return when.date() - datetime.timedelta(days=when.weekday())

    if weeks and found:
        newest = monday(found[0][1])
        seen = set()
        for name, when in found:
            week = monday(when)
            if (newest - week).days // 7 < weeks and week not in seen:
                seen.add(week)
                kept.add(name)
    newest_verified = next((name for name, _ in found if name in verified), None)
    if newest_verified:
        kept.add(newest_verified)
    return kept


def apply_retention(target=None):
    """Delete archives outside the keep set; -> the names deleted."""
    target = target or folder()
    retention = state.current()["retention"]
    found = archives(target)
    kept = keep_set(found, retention["keep"], retention["weeks"], set(state.verified_archives()))
    removed = []
    for name, _ in found:
        if name not in kept:
            try:
                (target / name).unlink()
                removed.append(name)
            except OSError as e:
                log.warning("retention: cannot delete %s: %s", name, e)
    if removed:
        fsync_dir(target)
    return removed


def delete_archives(names):
    """Delete these archives of BACKUP (an admin's choice); the newest verified one is refused, as
    retention never deletes it. -> the names deleted."""
    target = folder()
    known = {name for name, _ in archives(target)}
    verified = set(state.verified_archives())
    newest_verified = next((name for name, _ in archives(target) if name in verified), None)
    for name in names:
        if name not in known:
            raise NotFound(gettext("no archive %(name)s in BACKUP") % {"name": repr(name)})
        if name == newest_verified:
            raise Invalid(gettext("%(name)s is the newest verified archive: it is kept") % {"name": name})
    for name in names:
        (target / name).unlink()
    if names:
        fsync_dir(target)
    return list(names)


def verify_archives(names):
    """Read each archive back against its manifest; -> {name: None (verified) or the problem}."""
    target = folder()
    known = {name for name, _ in archives(target)}
    results = {}
    for name in names:
        if name not in known:
            raise NotFound(gettext("no archive %(name)s in BACKUP") % {"name": repr(name)})
        try:
            archive.read(target / name)
            results[name] = None
        except archive.ArchiveError as e:
            results[name] = str(e)
    return results


def summary():
    """What the admin screen and GET /api/admin/backup show."""
    data = {"enabled": settings.BACKUP is not None, "folder": str(settings.BACKUP or ""), "running": progress(),
            **state.current()}
    if settings.BACKUP is not None:
        verified = set(state.verified_archives())
        data["archives"] = []
        for name, when in archives():
            try:
                size = (settings.BACKUP / name).stat().st_size
            except OSError:
                continue
            data["archives"].append({"name": name, "size": size, "verified": name in verified})
        try:
            data["free"] = shutil.disk_usage(settings.BACKUP).free
        except OSError:
            data["free"] = None
    return data


def health():
    """The backup's part of GET /api/admin/health."""
    history = state.current()["history"] if state.STATE.is_open() else []
    ok = next((h for h in history if h.get("ok")), None)
    return {"enabled": settings.BACKUP is not None, "running": progress() is not None,
            "last": history[0] if history else None, "lastVerified": ok}


class Scheduler:
    """In the reader: checks every `interval` seconds whether a scheduled backup is due."""

    def __init__(self, interval=30):
        self.interval = interval
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._loop, name="backup schedule", daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.stopped.set()

    def _loop(self):
        while not self.stopped.wait(self.interval):
            if settings.BACKUP is None or _running.locked():
                continue
            try:
                if state.due(datetime.datetime.now().astimezone()):
                    _lower_priority()
                    run("schedule")
            except Exception:
                log.exception("scheduled backup")


def _lower_priority():
    """Compressing and hashing the archive is CPU work; the request threads come first."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
    except (OSError, AttributeError):
        pass


def run_in_background(trigger="manual"):
    """Start a run in a thread (the admin screen's "Back up now"); Conflict when one runs."""
    folder()
    if _running.locked():
        raise Conflict(gettext("a backup is running already"))
    threading.Thread(target=_quiet_run, args=(trigger,), name="backup", daemon=True).start()


def _quiet_run(trigger):
    _lower_priority()
    try:
        run(trigger)
    except Conflict:
        pass
