"""The incident log, DATA/incidents.jsonl: append-only, one JSON object a line.

Any process appends (the reader, the scraper, `startall`, a `backup` command): each line is one
`write()` on an O_APPEND descriptor, fsynced, so lines from several processes never interleave.
An incident is {id, time, service, kind, message, ...details}; acknowledging one appends
{"ack": id, "time", "by"}, so the file is never rewritten. A line that does not parse (a torn
last line after a crash) is skipped when reading.
"""
import json
import os
import secrets
import time
from pathlib import Path

from django.conf import settings

FILE_NAME = "incidents.jsonl"
KINDS = ("crash-loop", "stall", "backup-failed", "corrupt-file", "disk-full", "scan-failed", "library-unavailable",
         "chapters-failed")
MAX_READ = 16 << 20  # the newest 16 MB are read; older lines are history nobody pages through


def path(data_dir=None):
    return Path(data_dir or settings.DATA) / FILE_NAME


def _append(data_dir, record):
    line = (json.dumps(record, ensure_ascii=False) + "\n").encode()
    target = path(data_dir)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600)
    try:
        os.write(fd, line)
        os.fsync(fd)
    finally:
        os.close(fd)


def record(kind, service, message, data_dir=None, **details):
    """Append an incident; returns it. Never raises for a full or failing disk: an incident about
    a broken disk must not break the caller a second time."""
    assert kind in KINDS, kind
    incident = {"id": secrets.token_hex(6), "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                "service": service, "kind": kind, "message": message, **details}
    try:
        _append(data_dir, incident)
    except OSError:
        pass
    return incident


def acknowledge(incident_id, by, data_dir=None):
    """Mark one incident (or "all" open ones) acknowledged; -> the number acknowledged."""
    return acknowledge_many(None if incident_id == "all" else [incident_id], by, data_dir)


def acknowledge_many(wanted, by, data_dir=None):
    """Mark the open incidents whose ids are in `wanted` (None: every open one) acknowledged;
    -> the number acknowledged. Ids that are unknown or acknowledged already are skipped."""
    current = [i for i in read(data_dir) if not i["acknowledged"]]
    ids = [i["id"] for i in current if wanted is None or i["id"] in set(wanted)]
    for one in ids:
        _append(data_dir, {"ack": one, "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "by": by})
    return len(ids)


def read(data_dir=None):
    """Every incident, newest first, each with `acknowledged` (false or {time, by})."""
    try:
        with open(path(data_dir), "rb") as f:
            size = os.fstat(f.fileno()).st_size
            f.seek(max(0, size - MAX_READ))
            raw = f.read(MAX_READ)
    except FileNotFoundError:
        return []
    incidents, acks = [], {}
    for line in raw.splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if not isinstance(item, dict):
            continue
        if "ack" in item:
            acks[str(item["ack"])] = {"time": item.get("time"), "by": item.get("by")}
        elif isinstance(item.get("kind"), str) and isinstance(item.get("message"), str):
            # Lines written before incidents had ids get one from their position.
            item.setdefault("id", f"line{len(incidents)}")
            incidents.append(item)
    for item in incidents:
        item["acknowledged"] = acks.get(str(item["id"]), False)
    return incidents[::-1]


def filtered(incidents, state="open", kind="", service="", q=""):
    """The admin list's filters: state (open, acknowledged, all), kind, service, and a search in
    the message and the log lines (case-insensitive)."""
    q = q.strip().lower()
    out = []
    for i in incidents:
        if (state == "open" and i["acknowledged"]) or (state == "acknowledged" and not i["acknowledged"]):
            continue
        if (kind and i["kind"] != kind) or (service and i.get("service") != service):
            continue
        if q and q not in (i["message"] + "\n" + "\n".join(map(str, i.get("log") or []))).lower():
            continue
        out.append(i)
    return out


def open_count(data_dir=None):
    return sum(1 for i in read(data_dir) if not i["acknowledged"])
