"""GET /api/admin/health: what each part reports about itself (mangacircus/health.py), put together.

The services (reader, scraper) come from `startall`'s DATA/supervisor.json when it supervises
this DATA, and from this process and the scraper's heartbeat otherwise.
"""
import os
import shutil
import time

from django.conf import settings

from library import libraries
from mangacircus import health, incidents

from . import supervisor


def free_space(path):
    if path is None:
        return None
    try:
        usage = shutil.disk_usage(path)
    except OSError:
        return None
    return {"path": str(path), "free": usage.free, "total": usage.total}


def services(scraper_beat=None):
    """{"supervised", "reader": {...}, "scraper": {...}, "nginx"?: {...}}: state, pid, uptime, restarts.
    nginx is there when `startall` runs it in front of the reader (ops/nginx.py)."""
    sup = supervisor.read_state(settings.DATA)
    supervised = sup is not None and not sup.get("stopping")
    now = time.time()
    reader = {"state": "running", "pid": os.getpid(), "uptime": round(now - health.STARTED), "restarts": None}
    scraper = {"state": "unknown", "pid": None, "uptime": None, "restarts": None}
    out = {"supervised": supervised, "reader": reader, "scraper": scraper}
    if scraper_beat:
        fresh = now * 1000 - scraper_beat.get("updated", 0) < 60_000 and scraper_beat.get("state") != "stopped"
        scraper.update(state="running" if fresh else "stopped", pid=scraper_beat.get("pid") if fresh else None)
    if not supervised:
        return out
    if "nginx" in sup["services"]:
        out["nginx"] = {}
    for name, service in out.items():
        if name == "supervised":
            continue
        entry = sup["services"].get(name) or {}
        service["restarts"] = entry.get("restarts", 0)
        service["supervisedState"] = entry.get("state")
        if name == "reader":
            service["lastExit"] = entry.get("lastExit")
            continue
        service["state"] = "running" if entry.get("state") == "running" else entry.get("state", "stopped")
        service["pid"] = entry.get("pid")
        started = entry.get("started")
        service["uptime"] = round(now - started / 1000) if started and service["state"] == "running" else None
    return out


def report():
    parts = {name: _safe(fn) for name, fn in health.reporters().items()}
    beat = (parts.get("scraper") or {}).get("heartbeat")
    open_ = [i for i in incidents.read() if not i["acknowledged"]]
    return {
        "services": services(beat),
        **parts,
        "space": {"data": free_space(settings.DATA), "library": free_space(settings.LIBRARY),
                  "backup": free_space(settings.BACKUP),
                  "libraries": {lib.name: free_space(lib.root) for lib in libraries.all()}},
        "openIncidents": len(open_),
        "incidents": open_[:20],
    }


def _safe(fn):
    try:
        return fn()
    except Exception as e:  # one broken reporter must not hide the others
        return {"error": f"{e.__class__.__name__}: {e}"}
