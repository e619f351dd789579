"""DATA/backup.json: the schedule, the retention and the history of runs. Owned by this module.

    {"schedule": {"every": "off" | "day" | "hours", "at": "HH:MM", "hours": N},
     "retention": {"keep": N, "weeks": M}, "pauseLeaseSeconds": 600,
     "history": [{"started", "finished", "ok", "archive", "size", "files", "error", "trigger"}, ...]}

Opened with the reader's runtime (or by a `backup` command while no reader runs): `STATE`, a Store.
"""
from __future__ import annotations

import datetime
import re
from typing import Any

from django.utils.translation import gettext as _

from mangacircus.errors import Invalid
from mangacircus.store import Document, Store

FILE_NAME = "backup.json"
HISTORY = 100
DEFAULTS: dict[str, dict[str, Any]] = {"schedule": {"every": "off", "at": "03:00", "hours": 24},
                                       "retention": {"keep": 7, "weeks": 4}}
PAUSE_LEASE = 600  # seconds a run pauses the scraper at most, when nobody resumes it



def _empty() -> Document:
    return {**{key: dict(value) for key, value in DEFAULTS.items()}, "history": []}


STATE = Store(FILE_NAME, empty=_empty)


def current() -> dict[str, Any]:
    with STATE.read() as data:
        return {"schedule": dict(data["schedule"]), "retention": dict(data["retention"]),
                "history": [dict(h) for h in data["history"]]}


def update_settings(body: dict[str, Any]) -> dict[str, Any]:
    """Validate and store {"schedule", "retention"} (either may be left out); -> current()."""
    schedule, retention = body.get("schedule"), body.get("retention")
    new: dict[str, Any] = {}
    if schedule is not None:
        if not isinstance(schedule, dict) or schedule.get("every") not in ("off", "day", "hours"):
            raise Invalid(_("schedule.every must be off, day or hours"))
        at = schedule.get("at", "03:00")
        if not isinstance(at, str) or not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", at):
            raise Invalid(_("schedule.at must be a time HH:MM"))
        hours = schedule.get("hours", 24)
        if isinstance(hours, bool) or not isinstance(hours, int) or not 1 <= hours <= 24 * 30:
            raise Invalid(_("schedule.hours must be a whole number from 1 to 720"))
        new["schedule"] = {"every": schedule["every"], "at": at, "hours": hours}
    if retention is not None:
        if not isinstance(retention, dict):
            raise Invalid(_("retention must be an object"))
        keep, weeks = retention.get("keep", 7), retention.get("weeks", 0)
        for name, value, low, high in (("keep", keep, 1, 1000), ("weeks", weeks, 0, 520)):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise Invalid(_("retention.%(name)s must be a whole number from %(low)s to %(high)s")
                              % {"name": name, "low": low, "high": high})
        new["retention"] = {"keep": keep, "weeks": weeks}
    with STATE.edit(immediate=True) as data:
        data.update(new)
    return current()


def pause_lease() -> int:
    """backup.json's `pauseLeaseSeconds` (edited by hand only), else PAUSE_LEASE."""
    with STATE.read() as data:
        value = data.get("pauseLeaseSeconds", PAUSE_LEASE)
    return value if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 3600 else PAUSE_LEASE


def add_run(run: dict[str, Any]) -> None:
    # Kept in memory when the write fails (the disk may be what the run reports on), written later.
    with STATE.edit() as data:
        data["history"] = [run, *data["history"]][:HISTORY]
    STATE.file.flush()


def verified_archives() -> list[str]:
    """Names of the archives whose run ended verified, newest first."""
    with STATE.read() as data:
        return [h["archive"] for h in data["history"] if h.get("ok") and h.get("archive")]


def due(now: datetime.datetime) -> bool:
    """Whether a scheduled run is due at `now` (an aware datetime in TZ)."""
    with STATE.read() as data:
        schedule = dict(data["schedule"])
        runs = [h for h in data["history"] if h.get("trigger") == "schedule"]
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
