"""DATA/backup.json: the schedule, the retention and the history of runs. Owned by this module.

    {"schedule": {"every": "off" | "day" | "hours", "at": "HH:MM", "hours": N},
     "retention": {"keep": N, "weeks": M}, "pauseLeaseSeconds": 600,
     "history": [{"started", "finished", "ok", "archive", "size", "files", "error", "trigger"}, ...]}

Opened with the reader's runtime (or by a `backup` command while no reader runs) as a JsonFile.
"""
import datetime
import re

from django.conf import settings

from mangacircus.errors import Invalid
from mangacircus.jsonfile import JsonFile

FILE_NAME = "backup.json"
HISTORY = 100
DEFAULTS = {"schedule": {"every": "off", "at": "03:00", "hours": 24}, "retention": {"keep": 7, "weeks": 4}}
PAUSE_LEASE = 600  # seconds a run pauses the scraper at most, when nobody resumes it

_doc = None


def open_state(data_dir=None):
    global _doc
    if _doc is None:
        _doc = JsonFile((data_dir or settings.DATA) / FILE_NAME)
        with _doc.lock:
            for key, value in DEFAULTS.items():
                _doc.data.setdefault(key, dict(value))
            _doc.data.setdefault("history", [])
    return _doc


def close_state():
    global _doc
    if _doc is not None:
        _doc.close()
        _doc = None


def is_open():
    return _doc is not None


def current():
    with _doc.lock:
        return {"schedule": dict(_doc.data["schedule"]), "retention": dict(_doc.data["retention"]),
                "history": [dict(h) for h in _doc.data["history"]]}


def update_settings(body):
    """Validate and store {"schedule", "retention"} (either may be left out); -> current()."""
    schedule, retention = body.get("schedule"), body.get("retention")
    new = {}
    if schedule is not None:
        if not isinstance(schedule, dict) or schedule.get("every") not in ("off", "day", "hours"):
            raise Invalid("schedule.every must be off, day or hours")
        at = schedule.get("at", "03:00")
        if not isinstance(at, str) or not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", at):
            raise Invalid("schedule.at must be a time HH:MM")
        hours = schedule.get("hours", 24)
        if isinstance(hours, bool) or not isinstance(hours, int) or not 1 <= hours <= 24 * 30:
            raise Invalid("schedule.hours must be a whole number from 1 to 720")
        new["schedule"] = {"every": schedule["every"], "at": at, "hours": hours}
    if retention is not None:
        if not isinstance(retention, dict):
            raise Invalid("retention must be an object")
        keep, weeks = retention.get("keep", 7), retention.get("weeks", 0)
        for name, value, low, high in (("keep", keep, 1, 1000), ("weeks", weeks, 0, 520)):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise Invalid(f"retention.{name} must be a whole number from {low} to {high}")
        new["retention"] = {"keep": keep, "weeks": weeks}
    with _doc.lock:
        _doc.data.update(new)
        _doc.touch()
    _doc.flush()
    return current()


def pause_lease():
    """backup.json's `pauseLeaseSeconds` (edited by hand only), else PAUSE_LEASE."""
    with _doc.lock:
        value = _doc.data.get("pauseLeaseSeconds", PAUSE_LEASE)
    return value if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 3600 else PAUSE_LEASE


def add_run(run):
    with _doc.lock:
        _doc.data["history"] = [run, *_doc.data["history"]][:HISTORY]
        _doc.touch()
    _doc.flush()


def verified_archives():
    """Names of the archives whose run ended verified, newest first."""
    with _doc.lock:
        return [h["archive"] for h in _doc.data["history"] if h.get("ok") and h.get("archive")]


def due(now):
    """Whether a scheduled run is due at `now` (an aware datetime in TZ)."""
    with _doc.lock:
        schedule = dict(_doc.data["schedule"])
        runs = [h for h in _doc.data["history"] if h.get("trigger") == "schedule"]
    last = datetime.datetime.fromtimestamp(runs[0]["started"] / 1000, now.tzinfo) if runs else None
    if schedule["every"] == "hours":
        return last is None or now - last >= datetime.timedelta(hours=schedule["hours"])
    if schedule["every"] == "day":
        hour, minute = (int(x) for x in schedule["at"].split(":"))
        slot = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
        if now < slot:
            slot -= datetime.timedelta(days=1)
        return last is None or last < slot
    return False
