"""data/scraper/queue.json: the daemon's durable state, as plain functions over a JsonFile.

This module is the only code that reads or changes the document: the daemon (its worker and its
API threads) calls the functions below, which work under `q.lock`, and gets back job and series
records it may read but not change (tests/scraper/test_queue_owner.py checks this). Every state
change is saved at once with `save(q)` (tmp + fsync + rename). Layout (docs/scraper.md):

    {"schema": 3, "revision": 41, "published": [{"rev", "manga", "chapter", "t"}],   last 500
     "settings": {"paused", "pace": {source: seconds}, "updates": {"enabled", "at", "lastRun"}},
     "series": [{"key", "source", "id", "manga", "lang", "auto", "lastCheck", "info"}],
     "jobs": [{"id", "kind", "source", "series", "scope", "state", "attempts", "stalls",
               "created", "updated", "notBefore", "checkpoint", "done", "error", "warnings"}]}

Job states: queued -> running -> done | failed | cancelled (a retry puts failed or cancelled back
to queued). The worker takes the first queued job in list order whose notBefore has passed.
`warnings` are what a job skipped without failing (a chapter it could not import), for the admin's
history; at most WARNINGS_KEEP, each once.
"""
from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypedDict, cast

from mangacircus.jsonfile import Document, JsonFile

if TYPE_CHECKING:
    import datetime
    import threading
    from pathlib import Path

SCHEMA = 3
KINDS = ("add", "update", "chapters", "discover")
ACTIVE = ("queued", "running")
FINISHED = ("done", "failed", "cancelled")
PUBLISHED_KEEP = 500
FINISHED_KEEP = 200
WARNINGS_KEEP = 50
CHAPTER_ATTEMPTS = 2  # tries of one chapter within a job before it is marked failed and the job goes on
_AT = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")


class Checkpoint(TypedDict):
    """Where a running job is: the chapter being fetched, the pages staged so far, and where."""
    chapter: str
    page: int
    staging: str  # the staging folder, relative to the library (".staging/<name>")


class Job(TypedDict):
    """One of queue.json's "jobs", as the functions below hand it out (read it, never change it)."""
    id: str                     # "j" and 12 hex digits
    kind: str                   # one of KINDS
    source: str                 # the source's key ("all" for discover)
    series: str | None          # the series id at the source; None for discover
    scope: dict[str, Any]       # a chapters job: {"chapters": [ids], "info": {id: ChapterInfo as a dict}};
                                # another: {"lang", "auto"}, those given when it was queued
    state: str                  # queued | running | done | failed | cancelled
    attempts: int               # failed attempts since it was queued (or retried)
    stalls: int
    created: int                # ms
    updated: int                # ms
    notBefore: int | None       # ms: a queued job waits until then (a back-off)
    checkpoint: Checkpoint | None
    done: list[str]             # the chapter ids it finished
    failed: dict[str, str]      # chapter id → why it failed on its own (CHAPTER_ATTEMPTS): not tried again here
    tries: dict[str, int]       # chapter id → its failed tries in this job
    error: str | None           # the last failure's message
    warnings: list[str]         # what it skipped without failing (at most WARNINGS_KEEP)


class Series(TypedDict):
    """One of queue.json's "series": a subscription to a series at a source."""
    key: str                    # series_key(source, id)
    source: str
    id: str                     # the series id at the source
    manga: str                  # the manga folder its chapters go into
    lang: str | None
    auto: bool                  # nightly updates on
    lastCheck: int | None       # ms
    info: dict[str, Any]        # the SeriesInfo as a dict (compacted)
    skipped: dict[str, str]     # chapter id → why the last update skipped it (warned about once)


def now_ms() -> int:
    return int(time.time() * 1000)


def default_settings() -> dict[str, Any]:
    return {"paused": False, "pace": {}, "updates": {"enabled": True, "at": "03:30", "lastRun": None}}


def new_queue() -> Document:
    return {"schema": SCHEMA, "revision": 0, "published": [], "settings": default_settings(),
            "series": [], "jobs": [], "blocks": {}}


def check_schema(data: Document) -> None:
    """JsonFile validator: refuse a newer schema rather than guess at it."""
    schema = data.get("schema", 1)
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
        raise ValueError(f"schema {schema!r} is not a version number")
    if schema > SCHEMA:
        raise ValueError(
            f"schema {schema} is newer than this version of MangaCircus understands ({SCHEMA}); "
            "upgrade MangaCircus, or restore the queue.json this version wrote"
        )
    for key in ("jobs", "series", "published"):
        if key in data and not isinstance(data[key], list):
            raise ValueError(f"{key!r} must be a list")


def open_queue(path: Path) -> JsonFile:
    """Load (or create) the queue, convert an older schema, and put interrupted jobs back."""
    path.parent.mkdir(parents=True, exist_ok=True)
    q = JsonFile(path, default=new_queue, validate=check_schema)
    with q.lock:
        upgrade(q.data)
        for job in q.data["jobs"]:
            if job["state"] == "running":
                job["state"] = "queued"
    save(q)
    return q


# Older schemas. Schema 1 kept the jobs under "queue" with a "status"; schema 2 had no series
# list, no update schedule and no stall count.

def _from_1(data: Document) -> None:
    states = {"pending": "queued", "active": "queued", "complete": "done", "error": "failed"}
    jobs = data.pop("queue", data.get("jobs", []))
    for job in jobs:
        job["state"] = states.get(job.pop("status", "pending"), "queued")
    data["jobs"] = jobs
    data["schema"] = 2


def _from_2(data: Document) -> None:
    data.setdefault("series", [])
    settings = data.setdefault("settings", {})
    for key, value in default_settings().items():
        settings.setdefault(key, value)
    data["schema"] = 3


CONVERSIONS: dict[int, Callable[[Document], None]] = {1: _from_1, 2: _from_2}


def upgrade(data: Document) -> None:
    """Convert in place, one schema at a time, then fill what schema 3 expects."""
    data.setdefault("schema", 1)
    while data["schema"] < SCHEMA:
        CONVERSIONS[data["schema"]](data)
    for key, value in new_queue().items():
        data.setdefault(key, value)
    for key, value in default_settings().items():
        data["settings"].setdefault(key, value)
    for job in data["jobs"]:
        t = job.get("created") or now_ms()
        for key, value in (("id", new_id()), ("scope", {}), ("series", None), ("attempts", 0),
                           ("stalls", 0), ("created", t), ("updated", t), ("notBefore", None),
                           ("checkpoint", None), ("done", []), ("error", None), ("warnings", []),
                           ("failed", {}), ("tries", {})):
            job.setdefault(key, value)
    for entry in data["series"]:
        entry.setdefault("key", series_key(entry["source"], entry["id"]))


def save(q: JsonFile) -> bool:
    """Make the last change durable now."""
    q.touch()
    return q.flush()


def close(q: JsonFile) -> None:
    q.close()


def locked(q: JsonFile) -> threading.RLock:
    """Hold the queue still across several calls of this module and the caller's own state changes
    (the lock is re-entrant): `with queue.locked(q): ...`."""
    return q.lock


def new_id() -> str:
    return "j" + secrets.token_hex(6)


def series_key(source: str, series_id: str) -> str:
    return hashlib.sha1(f"{source}\0{series_id}".encode()).hexdigest()[:12]


# Jobs

def find(q: JsonFile, job_id: str) -> Job | None:
    return next((j for j in q.data["jobs"] if j["id"] == job_id), None)


def list_jobs(q: JsonFile, state: str | None = None) -> list[Job]:
    """Copies of the jobs in queue order, or of those in one state."""
    with q.lock:
        return [cast(Job, dict(j)) for j in q.data["jobs"] if state in (None, j["state"])]


def add_job(q: JsonFile, kind: str, source: str, series: str | None = None, chapters: list[str] | None = None,
            info: dict[str, dict[str, Any]] | None = None, lang: str | None = None,
            auto: bool | None = None) -> tuple[Job, bool]:
    """Queue a job, or return the queued/running one it duplicates (chapters are merged into it).

    -> (job, created)
    """
    assert kind in KINDS
    job: Job
    with q.lock:
        for job in q.data["jobs"]:
            if (job["kind"], job["source"], job["series"]) == (kind, source, series) and job["state"] in ACTIVE:
                if kind == "chapters":
                    _merge_chapters(job, chapters or [], info or {})
                    job["updated"] = now_ms()
                    save(q)
                return job, False
        t = now_ms()
        job = {"id": new_id(), "kind": kind, "source": source, "series": series, "scope": {},
               "state": "queued", "attempts": 0, "stalls": 0, "created": t, "updated": t,
               "notBefore": None, "checkpoint": None, "done": [], "error": None, "warnings": [],
               "failed": {}, "tries": {}}
        if kind == "chapters":
            job["scope"] = {"chapters": [], "info": {}}
            _merge_chapters(job, chapters or [], info or {})
        elif lang or auto is not None:
            job["scope"] = {k: v for k, v in (("lang", lang), ("auto", auto)) if v is not None}
        q.data["jobs"].append(job)
        prune(q)
        save(q)
        return job, True


def _merge_chapters(job: Job, chapters: list[str], info: dict[str, dict[str, Any]]) -> None:
    scope = job["scope"]
    for chapter in chapters:
        if chapter not in scope["chapters"]:
            scope["chapters"].append(chapter)
        if chapter in info:
            scope["info"][chapter] = info[chapter]


def next_job(q: JsonFile, now: int | None = None) -> Job | None:
    """The first queued job that may run now, or None (also None while paused)."""
    now = now or now_ms()
    with q.lock:
        if q.data["settings"]["paused"]:
            return None
        for job in q.data["jobs"]:
            if job["state"] == "queued" and (job["notBefore"] or 0) <= now:
                return job
    return None


def next_wake(q: JsonFile) -> int | None:
    """ms time of the earliest parked job, for the status screen."""
    with q.lock:
        times = [j["notBefore"] for j in q.data["jobs"] if j["state"] == "queued" and j["notBefore"]]
    return min(times) if times else None


def set_state(q: JsonFile, job: Job, state: str, **changes: Any) -> None:
    with q.lock:
        job["state"] = state
        job.update(changes)  # type: ignore[typeddict-item]  # `changes` name fields of Job
        job["updated"] = now_ms()
        save(q)


def start(q: JsonFile, job: Job) -> bool:
    """Mark a queued job running; False when it is not queued any more (an admin cancelled it)."""
    with q.lock:
        if job["state"] != "queued":
            return False
        set_state(q, job, "running")
        return True


def finish(q: JsonFile, job: Job, state: str, **changes: Any) -> bool:
    """Set the outcome of a run; False, and nothing changed, when an admin cancelled it meanwhile."""
    with q.lock:
        if job["state"] == "cancelled":
            return False
        set_state(q, job, state, **changes)
        return True


def count_stall(q: JsonFile, job: Job) -> int:
    """-> the job's stall count, one more than before (saved with the outcome that follows)."""
    with q.lock:
        job["stalls"] += 1
        return job["stalls"]


def failed_attempt(q: JsonFile, job: Job, message: str, retry: bool, delays: Sequence[float]) -> bool:
    """After a failed attempt: back off and queue again, or fail with the error kept.

    False, and nothing changed, when an admin cancelled the job meanwhile.
    """
    with q.lock:
        if job["state"] == "cancelled":
            return False
        job["attempts"] += 1
        if retry and job["attempts"] <= len(delays):
            wait = delays[job["attempts"] - 1]
            set_state(q, job, "queued", error=message, notBefore=now_ms() + int(wait * 1000))
        else:
            set_state(q, job, "failed", error=message, notBefore=None)
        return True


def retry(q: JsonFile, job_id: str) -> Job:
    with q.lock:
        job = _get(q, job_id)
        if job["state"] == "running":
            raise ValueError("the job is running")
        # a job done with failed chapters tries those again (docs/scraper.md, "When a chapter fails")
        set_state(q, job, "queued", attempts=0, stalls=0, notBefore=None, error=None, warnings=[], failed={},
                  tries={})
        return job


def cancel(q: JsonFile, job_id: str) -> Job:
    """Cancel a job; a running one stops at its next page boundary (the worker checks)."""
    with q.lock:
        job = _get(q, job_id)
        if job["state"] in ACTIVE:
            set_state(q, job, "cancelled", notBefore=None)
        return job


def move(q: JsonFile, job_id: str, to: int | str) -> Job:
    """Reorder: put the job at index `to` of the job list (clamped), or "top"/"up"/"down"."""
    with q.lock:
        jobs = q.data["jobs"]
        job = _get(q, job_id)
        index = jobs.index(job)
        steps: dict[int | str, int] = {"top": 0, "up": index - 1, "down": index + 1}
        target = steps.get(to, to)
        if not isinstance(target, int) or isinstance(target, bool):
            raise ValueError("to must be a position, 'top', 'up' or 'down'")
        jobs.remove(job)
        jobs.insert(max(0, min(target, len(jobs))), job)
        save(q)
        return job


def _get(q: JsonFile, job_id: str) -> Job:
    job = find(q, job_id)
    if job is None:
        raise LookupError(f"no job {job_id}")
    return job


# The chapters of a "chapters" job: scope["chapters"] in order, scope["info"] their descriptors.
# API threads merge new chapters into a queued job, so these read under the lock.

def pending_chapters(q: JsonFile, job: Job) -> list[str]:
    with q.lock:
        return [c for c in job["scope"]["chapters"] if c not in job["done"] and c not in job["failed"]]


def chapter_failed(q: JsonFile, job: Job, chapter: str, message: str, retry: bool) -> bool:
    """One failed try of one chapter: True when it is now failed on its own (after CHAPTER_ATTEMPTS
    tries, or at once when `retry` is False), so the job goes on with the next; False: try again."""
    with q.lock:
        tries = job["tries"][chapter] = job["tries"].get(chapter, 0) + 1
        failed = not retry or tries >= CHAPTER_ATTEMPTS
        if failed:
            job["failed"][chapter] = message
        job["checkpoint"] = None
        job["updated"] = now_ms()
        save(q)
        return failed


def chapter_info(q: JsonFile, job: Job, chapter_id: str) -> dict[str, Any] | None:
    """The chapter's descriptor (a ChapterInfo as a dict), or None when it was queued by id only."""
    with q.lock:
        return job["scope"]["info"].get(chapter_id)


def chapters_without_info(q: JsonFile, job: Job) -> list[str]:
    with q.lock:
        return [c for c in job["scope"]["chapters"] if c not in job["scope"]["info"]]


def fill_chapter_info(q: JsonFile, job: Job, found: dict[str, dict[str, Any]], dropped: Iterable[str]) -> None:
    """Store the descriptors found ({chapter id: dict}) and drop the chapters the source does not list."""
    with q.lock:
        job["scope"]["info"].update(found)
        for chapter_id in dropped:
            job["scope"]["chapters"].remove(chapter_id)
        save(q)


def add_warning(q: JsonFile, job: Job, message: str) -> None:
    """Keep a warning on the job (once; the first WARNINGS_KEEP) for the admin's history."""
    with q.lock:
        warnings = job.setdefault("warnings", [])
        if message not in warnings and len(warnings) < WARNINGS_KEEP:
            warnings.append(message)
            job["updated"] = now_ms()
            save(q)


def checkpoint(q: JsonFile, job: Job, chapter: str, page: int, staging: str, durable: bool = True) -> None:
    """Where the job is. A restart resumes from the pages staged on disk, not from this count, so a
    page's checkpoint (`durable=False`) is written with the next flush (within 0.5 s); the one
    saved before a publication must be on disk, since it names the chapter being renamed in."""
    with q.lock:
        job["checkpoint"] = {"chapter": chapter, "page": page, "staging": staging}
        job["updated"] = now_ms()
        if durable:
            save(q)
        else:
            q.touch()


def chapter_done(q: JsonFile, job: Job, chapter: str) -> None:
    with q.lock:
        if chapter not in job["done"]:
            job["done"].append(chapter)
        job["checkpoint"] = None
        job["updated"] = now_ms()
        save(q)


def record_publication(q: JsonFile, job: Job, manga: str, chapter: str, folder: str) -> int:
    """revision += 1, a `published` entry and the chapter marked done, in one durable save.

    -> the new revision.
    """
    with q.lock:
        q.data["revision"] += 1
        rev = q.data["revision"]
        q.data["published"].append({"rev": rev, "manga": manga, "chapter": folder, "t": now_ms()})
        del q.data["published"][:-PUBLISHED_KEEP]
        chapter_done(q, job, chapter)
        return rev


def revision(q: JsonFile) -> int:
    with q.lock:
        return q.data["revision"]


def recent_publications(q: JsonFile, limit: int) -> list[dict[str, Any]]:
    """The last `limit` publications, newest first."""
    with q.lock:
        return [dict(p) for p in reversed(q.data["published"][-limit:])]


def prune(q: JsonFile) -> None:
    """Keep the last FINISHED_KEEP finished jobs; active ones always stay."""
    with q.lock:
        jobs = q.data["jobs"]
        finished = [j for j in jobs if j["state"] in FINISHED]
        if len(finished) > FINISHED_KEEP:
            drop = {j["id"] for j in sorted(finished, key=lambda j: j["updated"])[:-FINISHED_KEEP]}
            jobs[:] = [j for j in jobs if j["id"] not in drop]


# Series subscriptions

def find_series(q: JsonFile, source: str, series_id: str) -> Series | None:
    key = series_key(source, series_id)
    return next((s for s in q.data["series"] if s["key"] == key), None)


def list_series(q: JsonFile) -> list[Series]:
    with q.lock:
        return [cast(Series, dict(s)) for s in q.data["series"]]


def auto_series(q: JsonFile) -> list[tuple[str, str]]:
    """(source, series id) of every subscription with auto-update on."""
    with q.lock:
        return [(s["source"], s["id"]) for s in q.data["series"] if s["auto"]]


def upsert_series(q: JsonFile, source: str, series_id: str, manga: str, lang: str | None, info: dict[str, Any],
                  auto: bool | None = None) -> Series:
    with q.lock:
        entry = find_series(q, source, series_id)
        if entry is None:
            entry = cast(Series, {"key": series_key(source, series_id), "source": source, "id": series_id,
                                  "auto": True, "lastCheck": None})  # manga, lang and info follow
            q.data["series"].append(entry)
        entry.update({"manga": manga, "lang": lang, "info": info})
        if auto is not None:
            entry["auto"] = auto
        save(q)
        return entry


def update_series(q: JsonFile, key: str, auto: bool | None = None, lang: str | None = None) -> Series:
    with q.lock:
        entry = next((s for s in q.data["series"] if s["key"] == key), None)
        if entry is None:
            raise LookupError(f"no series {key}")
        if auto is not None:
            entry["auto"] = auto
        if lang is not None:
            entry["lang"] = lang
        save(q)
        return entry


def remove_series(q: JsonFile, key: str) -> Series:
    """Forget a subscription and cancel its queued jobs; the library keeps its folders."""
    with q.lock:
        entry = next((s for s in q.data["series"] if s["key"] == key), None)
        if entry is None:
            raise LookupError(f"no series {key}")
        q.data["series"].remove(entry)
        for job in q.data["jobs"]:
            if (job["source"], job["series"]) == (entry["source"], entry["id"]) and job["state"] == "queued":
                set_state(q, job, "cancelled", notBefore=None)
        save(q)
        return entry


def series_errors(q: JsonFile, entry: Series) -> str | None:
    """The last error of the series' jobs (the Series tab shows it), or None."""
    with q.lock:
        jobs = [j for j in q.data["jobs"] if (j["source"], j["series"]) == (entry["source"], entry["id"])]
        failing = [j for j in jobs if j["error"] and j["state"] in ("queued", "failed")]
        return max(failing, key=lambda j: j["updated"])["error"] if failing else None


def blocks(q: JsonFile) -> dict[str, int]:
    """{source key: wall ms}: the sources that asked to be left alone (Retry-After) until then."""
    with q.lock:
        now = now_ms()
        return {key: until for key, until in q.data["blocks"].items() if until > now}


def set_block(q: JsonFile, source: str, until: int) -> None:
    """Keep a source's Retry-After block (past ones go)."""
    with q.lock:
        now = now_ms()
        q.data["blocks"] = {key: at for key, at in q.data["blocks"].items() if at > now}
        q.data["blocks"][source] = until
        save(q)


def series_skipped(q: JsonFile, entry: Series, skipped: dict[str, str]) -> set[str]:
    """Keep the chapters an update skipped ({chapter id: why}) on the series; -> the ids skipped
    for the same reason last time, which need no warning again."""
    with q.lock:
        before = entry.get("skipped") or {}
        entry["skipped"] = skipped
        save(q)
        return {cid for cid, why in skipped.items() if before.get(cid) == why}


def series_checked(q: JsonFile, entry: Series) -> None:
    with q.lock:
        entry["lastCheck"] = now_ms()
        save(q)


# Settings

def current_settings(q: JsonFile) -> dict[str, Any]:
    with q.lock:
        current = q.data["settings"]
        return {**current, "pace": dict(current["pace"]), "updates": dict(current["updates"]),
                "options": {k: dict(v) for k, v in current.get("options", {}).items()}}


def is_paused(q: JsonFile) -> bool:
    with q.lock:
        return q.data["settings"]["paused"]


def pace(q: JsonFile, source_key: str) -> float:
    """The admin's pace for a source in seconds, 0 when none was set."""
    with q.lock:
        return q.data["settings"]["pace"].get(source_key, 0)


def source_options(q: JsonFile, source_key: str) -> dict[str, bool]:
    """The admin's switches for one source (`Source.options`, such as MangaDex's dataSaver)."""
    with q.lock:
        return dict(q.data["settings"].get("options", {}).get(source_key, {}))


def update_settings(q: JsonFile, changes: dict[str, Any],
                    source_floor: Callable[[str], float | None],
                    source_switches: Callable[[str], Sequence[str] | None] = lambda key: None) -> dict[str, Any]:
    """Apply admin changes; ValueError names the bad field. `source_floor(key)` -> min pace or None;
    `source_switches(key)` -> the options that source has, or None for an unknown source."""
    with q.lock:
        current = q.data["settings"]
        new = {"paused": current["paused"], "pace": dict(current["pace"]), "updates": dict(current["updates"]),
               "options": {k: dict(v) for k, v in current.get("options", {}).items()}}
        changed_options = changes.get("options") or {}
        if not isinstance(changed_options, dict):
            raise ValueError("options must be an object of source: {option: true or false}")
        for key, values in changed_options.items():
            known = source_switches(key)
            if known is None:
                raise ValueError(f"options: unknown source {key!r}")
            if not isinstance(values, dict):
                raise ValueError(f"options.{key} must be an object of option: true or false")
            for name, value in values.items():
                if name not in known:
                    raise ValueError(f"options.{key}: {name!r} is not an option of that source")
                if not isinstance(value, bool):
                    raise ValueError(f"options.{key}.{name} must be true or false")
                new["options"].setdefault(key, {})[name] = value
        for key, value in (changes.get("pace") or {}).items():
            floor = source_floor(key)
            if floor is None:
                raise ValueError(f"pace: unknown source {key!r}")
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 3600:
                raise ValueError(f"pace.{key} must be seconds from 0 to 3600")
            new["pace"][key] = max(float(value), floor)
        updates = changes.get("updates") or {}
        if "enabled" in updates:
            if not isinstance(updates["enabled"], bool):
                raise ValueError("updates.enabled must be true or false")
            new["updates"]["enabled"] = updates["enabled"]
        if "at" in updates:
            if not isinstance(updates["at"], str) or not _AT.match(updates["at"]):
                raise ValueError("updates.at must be a time like 03:30")
            new["updates"]["at"] = updates["at"]
        q.data["settings"] = new
        save(q)
        return new


def next_discover(q: JsonFile, local_now: datetime.datetime) -> int | None:
    """ms time of the next nightly run (now when it is due), None when nightly updates are off."""
    import datetime

    with q.lock:
        updates = q.data["settings"]["updates"]
        if not updates["enabled"]:
            return None
        hour, minute = map(int, updates["at"].split(":"))
        slot = local_now.replace(hour=hour, minute=minute, second=0, microsecond=0)
        if (updates["lastRun"] or 0) >= slot.timestamp() * 1000 or updates["lastRun"] is None and local_now >= slot:
            slot += datetime.timedelta(days=1)
        return int(max(slot, local_now).timestamp() * 1000)


def set_paused(q: JsonFile, paused: bool) -> None:
    with q.lock:
        q.data["settings"]["paused"] = paused
        save(q)


def discover_due(q: JsonFile, local_now: datetime.datetime) -> bool:
    """True once a day, after the configured time: the nightly discover run (recorded here).

    A new queue starts counting from now, so the first run is the next one at that time.
    """
    with q.lock:
        updates = q.data["settings"]["updates"]
        if not updates["enabled"]:
            return False
        if updates["lastRun"] is None:
            updates["lastRun"] = int(local_now.timestamp() * 1000)
            save(q)
            return False
        hour, minute = map(int, updates["at"].split(":"))
        slot = local_now.replace(hour=hour, minute=minute, second=0, microsecond=0)
        if local_now < slot or (updates["lastRun"] or 0) >= slot.timestamp() * 1000:
            return False
        updates["lastRun"] = int(local_now.timestamp() * 1000)
        save(q)
        return True
