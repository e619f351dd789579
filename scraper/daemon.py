"""The scraper daemon's core: one queue worker, the stall watchdog and the heartbeat.

`runscraper` builds a Daemon and calls `process_one_job()` in a loop; the private API (api.py)
calls the control methods (pause, resume, cancel, status) from its threads. Outcomes of a job:

- done: every step finished (chapters published as each completed);
- Interrupted (stop, pause): back to queued, the checkpoint and staged pages kept;
- Cancelled: its staging removed;
- Stalled (the watchdog): first time back to queued from its checkpoint, second time failed,
  with an incident in data/incidents.jsonl;
- Parked (long Retry-After, full disk): queued again after the given time, no attempt used;
- the library went missing or read-only under it: queued again, no attempt used, and the daemon waits;
- any other error: retried after the backoff delays, then failed with the error kept.

While LIBRARY is missing, unreadable or read-only (an unmounted disk) the daemon waits instead of
exiting: it starts no job, says so once in its log and in its status (`waiting-library`), and looks
again every `library_retry` seconds of `clock` (tests pass their own clock).
"""
import datetime
import logging
import threading
import time
from pathlib import Path

from django.conf import settings

from library import faults

from . import jobs, queue, sources
from .errors import Cancelled, Interrupted, Parked, ScraperError, Stalled
from .http import HttpClient, Limits
from .localfiles import LocalReader
from .mangadex_accounts import Accounts
from .publish import Library
from .status import StatusFile, append_incident
from .watchdog import Progress, Watchdog

log = logging.getLogger(__name__)


class Daemon:
    def __init__(self, data_dir, library_dir, *, stall_seconds=120, limits=None, retry_delays=(60, 300, 1800),
                 min_free_bytes=0, import_roots=(), library_retry=30, clock=time.monotonic):
        self.data_dir = Path(data_dir)
        self.dir = self.data_dir / "scraper"
        self.dir.mkdir(parents=True, exist_ok=True)
        sources.load()
        self.queue = queue.open_queue(self.dir / "queue.json")
        self.library = Library(library_dir, min_free_bytes)
        self.library_dir = library_dir
        self.library_retry = library_retry
        self.clock = clock
        self.library_problem = None  # why LIBRARY cannot take chapters now, or None
        self._library_checked = float("-inf")
        self._library_lock = threading.Lock()
        self._staging_cleaned = False
        self.retry_delays = list(retry_delays)
        self.stall_seconds = stall_seconds
        self.progress = Progress()
        self.interrupt = threading.Event()
        self.shutdown = False
        # A Retry-After block outlives a restart: the next start does not call the source at once.
        self.http = HttpClient(limits or Limits(), self.progress, self.interrupt, self.pace_for,
                               blocks=queue.blocks(self.queue),
                               on_block=lambda key, until: queue.set_block(self.queue, key, until))
        self.local = LocalReader(import_roots, self.http.limits.max_bytes, self.progress, self.warn)
        self.accounts = Accounts(self.dir)  # MangaDex connections (docs/scraper.md)
        self.status_file = StatusFile(self.dir / "status.json")
        self.current = None
        self.job_progress = {}
        self.idle = threading.Event()
        self.idle.set()
        self.wake = threading.Event()  # set when the API queues a job: the idle loop looks at once
        self.lease_until = None
        self._last_beat = float("-inf")
        self.watchdog = Watchdog(self.progress, stall_seconds, lambda: self.current is not None, self._on_stall)

    @classmethod
    def from_settings(cls):
        s = settings
        limits = Limits(connect_timeout=s.SCRAPER_CONNECT_TIMEOUT, read_timeout=s.SCRAPER_READ_TIMEOUT,
                        deadline=s.SCRAPER_PAGE_DEADLINE, max_bytes=s.SCRAPER_MAX_PAGE_MB << 20,
                        retries=s.SCRAPER_REQUEST_RETRIES, retry_base=s.SCRAPER_RETRY_BASE)
        return cls(s.DATA, s.LIBRARY, stall_seconds=s.STALL_SECONDS, limits=limits,
                   retry_delays=s.SCRAPER_JOB_RETRY_DELAYS, min_free_bytes=s.SCRAPER_MIN_FREE_MB << 20,
                   import_roots=s.SCRAPER_IMPORT_ROOTS, library_retry=s.SCRAPER_LIBRARY_RETRY)

    def start(self):
        self.check_library(force=True)
        self.watchdog.start()
        self.heartbeat()

    def _clean_staging(self):
        """Once, with the library there: staging folders of no active job are leftovers."""
        keep = {j["id"] for j in queue.list_jobs(self.queue)
                if j["state"] in ("queued", "running", "failed") or j.get("failed")}  # failed chapters resume
        for name in self.library.clean_staging(keep):
            log.info("removed staging folder %s (no active job)", name)
        self._staging_cleaned = True

    def check_library(self, force=False):
        """Look at LIBRARY (at most every `library_retry` seconds unless `force`); -> the problem or None.
        The log says it once when the daemon starts waiting and once when the library is back."""
        with self._library_lock:
            now = self.clock()
            if not force and now - self._library_checked < self.library_retry:
                return self.library_problem
            self._library_checked = now
            was, self.library_problem = self.library_problem, faults.problem(self.library_dir, write=True)
            if self.library_problem and self.library_problem != was:
                log.error("waiting for the library: %s (the scraper publishes chapters into it; it looks again "
                          "every %g s)", self.library_problem, self.library_retry)
            elif was and not self.library_problem:
                log.warning("the library at %s can be written again: the scraper goes on", self.library_dir)
            if not self.library_problem and not self._staging_cleaned:
                self._clean_staging()
            return self.library_problem

    def close(self):
        self.watchdog.stop()
        self.http.close()
        self.heartbeat(state="stopped")
        queue.close(self.queue)

    def pace_for(self, source):
        return max(source.pace, queue.pace(self.queue, source.key))

    def transport(self, source):
        if source.transport == "local":
            return self.local
        return self.http.for_source(source, queue.source_options(self.queue, source.key))

    # The worker

    def process_one_job(self):
        """Run the next runnable job to an outcome; False when there was none."""
        self._end_expired_lease()
        if self.shutdown or self.held or self.check_library():
            return False
        job = queue.next_job(self.queue)
        if job is None or self.check_library(force=True):
            return False
        # Under the queue's lock, so that a pause or a cancel from an API thread comes either before
        # (and is seen here) or after (and sees the job as the current one).
        with queue.locked(self.queue):
            if not queue.start(self.queue, job):
                return True
            if not self.paused and not self.shutdown:
                self.interrupt.clear()
            self.current, self.job_progress = job, {}
            self.idle.clear()
        self.http.worker = threading.get_ident()
        self.progress.reset()
        self.heartbeat()
        try:
            jobs.run(self, job)
        except (Cancelled, Interrupted):
            self._interrupted(job)
        except Stalled as e:
            self._stalled(job, e.message)
        except Parked as e:
            self._finish(job, "queued", notBefore=e.until, error=e.message)
        except ScraperError as e:
            self._failed(job, e.message, e.retry)
        except Exception as e:
            if isinstance(e, OSError) and self.check_library(force=True):
                self._finish(job, "queued", error=f"waiting for the library: {self.library_problem}")
            else:
                log.exception("job %s failed with an internal error", job["id"])
                self._failed(job, f"internal error: {e.__class__.__name__}: {e}", True)
        else:
            self._done(job)
        finally:
            self.current = None
            self.idle.set()
            self.heartbeat()
        return True

    def _done(self, job):
        """Done; with chapters that failed on their own, said on the job and in one incident per run."""
        failed = dict(job.get("failed") or {})
        error = None
        if failed:
            error = f"done with {len(failed)} failed chapter{'s' if len(failed) > 1 else ''}: " + "; ".join(
                sorted(set(failed.values()))[:3])
            text = f"{job['source']} {job['series']}: {len(failed)} chapter(s) failed and were skipped; {error}"
            log.warning("job %s %s", job["id"], error)
            append_incident(self.data_dir, "chapters-failed", text, job=job["id"], chapters=sorted(failed))
        self._finish(job, "done", error=error, checkpoint=None, notBefore=None)

    def _finish(self, job, state, **changes):
        """Set the outcome; the staging goes when the job is done or an admin cancelled it meanwhile."""
        cancelled = not queue.finish(self.queue, job, state, **changes)
        if cancelled or (state == "done" and not job.get("failed")):  # a retry resumes failed chapters
            self.library.discard_job(job["id"])

    def _interrupted(self, job):
        self._finish(job, "queued")
        why = "stopping" if self.shutdown else "paused"
        log.info("job %s back in the queue at its checkpoint (%s)", job["id"], why)

    def _stalled(self, job, message):
        if queue.count_stall(self.queue, job) < 2:
            log.warning("job %s stalled (%s); requeued once from its checkpoint", job["id"], message)
            self._finish(job, "queued", error=f"stalled ({message}); requeued from its checkpoint")
            return
        text = f"job {job['id']} ({job['kind']} {job['source']} {job['series']}) stalled twice: {message}"
        log.error(text)
        self._finish(job, "failed", error=f"stalled twice ({message})", notBefore=None)
        append_incident(self.data_dir, "stall", text, job=job["id"], checkpoint=job["checkpoint"])

    def _failed(self, job, message, retry):
        if not queue.failed_attempt(self.queue, job, message, retry, self.retry_delays):
            self.library.discard_job(job["id"])  # cancelled meanwhile
            return
        log.warning("job %s: %s (%s)", job["id"], message, job["state"])

    def boundary(self, job):
        """Between pages: stop here when cancelled, stalled, stopping or pausing."""
        self.check_cancelled(job)
        if self.progress.stalled:
            raise Stalled(f"no progress for {self.stall_seconds:g} s")
        if self.interrupt.is_set():
            raise Interrupted("stopping" if self.shutdown else "pausing")

    def check_cancelled(self, job):
        if job["state"] == "cancelled":
            raise Cancelled("cancelled by an admin")

    def _on_stall(self):
        log.warning("no progress for %g s: aborting the request in flight", self.stall_seconds)
        self.http.abort()

    def warn(self, message):
        """Something the running job skipped without failing: logged and kept on the job (its history)."""
        job = self.current
        if job is None or threading.get_ident() != self.http.worker:
            log.warning("%s", message)
            return
        log.warning("job %s: %s", job["id"], message)
        queue.add_warning(self.queue, job, message)

    def set_progress(self, **values):
        self.job_progress.update(values)

    def queue_has_work(self):
        return not self.held and not self.library_problem and queue.next_job(self.queue) is not None

    def tick(self):
        """Called by the idle loop: end an expired pause lease, look at the library, queue the nightly
        discover run."""
        self._end_expired_lease()
        self.check_library()
        if queue.discover_due(self.queue, datetime.datetime.now().astimezone()):
            queue.add_job(self.queue, "discover", "all")

    # Control (API threads)

    @property
    def paused(self):
        return queue.is_paused(self.queue) or self.held

    @property
    def held(self):
        """Paused under a lease (the backup's), which ends by itself if nobody resumes it."""
        return self.lease_until is not None and time.monotonic() < self.lease_until

    def pause(self, wait=30, lease=None):
        """Finish the current page, save the checkpoint and hold; -> True once the worker is idle.
        With `lease` (seconds) the pause is held in memory only and ends after the lease, so a
        caller that dies mid-pause (a reader killed during a backup) cannot hold the queue forever."""
        if lease is None:
            queue.set_paused(self.queue, True)
        else:
            self.lease_until = time.monotonic() + lease
            log.info("paused under a lease of %g s", lease)
        self.interrupt.set()
        return self.idle.wait(wait)

    def resume(self, lease_only=False):
        """End the pause; `lease_only` ends only a leased pause, keeping an admin's own pause."""
        if self.lease_until is not None:
            log.info("the leased pause ends")
        self.lease_until = None
        if not lease_only:
            queue.set_paused(self.queue, False)
        if not self.shutdown and self.current is None and not self.paused:
            self.interrupt.clear()

    def _end_expired_lease(self):
        if self.lease_until is not None and not self.held:
            log.warning("the pause lease expired without a resume (its holder died?): resuming")
            self.resume(lease_only=True)

    def stop(self):
        """SIGINT/SIGTERM: the worker stops at its next page boundary."""
        self.shutdown = True
        self.interrupt.set()

    def cancel(self, job_id):
        job = queue.cancel(self.queue, job_id)
        if self.current is job:
            self.interrupt.set()
        elif job["state"] == "cancelled":
            self.library.discard_job(job_id)
        return job

    # Status

    def status(self, state=None):
        with queue.locked(self.queue):
            job = self.current
            summary = None
            if job is not None:
                summary = {k: job[k] for k in ("id", "kind", "source", "series", "attempts", "stalls", "checkpoint")}
            status = {
                "state": state or ("stopping" if self.shutdown else "paused" if self.paused
                                   else "running" if job else "waiting-library" if self.library_problem
                                   else "idle"),
                "libraryProblem": self.library_problem,
                "libraryRetrySeconds": self.library_retry,
                "paused": self.paused,
                "leaseSeconds": round(self.lease_until - time.monotonic(), 1) if self.held else None,
                "revision": queue.revision(self.queue), "job": summary,
                "progress": dict(self.job_progress) if job else None,
                "waiting": self.progress.wait if job else None,
                "idleSeconds": round(self.progress.idle_seconds(), 1) if job else None,
                "stallSeconds": self.stall_seconds,
                "queued": len(queue.list_jobs(self.queue, "queued")),
                "nextWake": queue.next_wake(self.queue),
            }
        lanes = self.http.lanes()
        status["pacing"] = {s.key: {"interval": self.pace_for(s), "default": s.pace, **lanes.get(s.key, {})}
                            for s in sources.all_sources()}
        return status

    def heartbeat(self, state=None, at_most_every=0):
        """Rewrite status.json; with `at_most_every` (seconds), not when the last write is more recent."""
        now = time.monotonic()
        if at_most_every and now - self._last_beat < at_most_every:
            return
        self._last_beat = now
        try:
            self.status_file.write(self.status(state))
        except OSError as e:
            log.error("cannot write %s: %s", self.status_file.path, e)
