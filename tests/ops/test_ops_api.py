"""Incidents, health and backups through the admin API and screens, in process."""
import re
import time

import pytest

from mangacircus import incidents, jsonfile
from ops.backups import archive


@pytest.fixture
def backup_dir(tmp_path):
    return tmp_path / "backup"


@pytest.fixture
def server(data_dir, library_dir, backup_dir):
    from tests.support.app import AppServer

    srv = AppServer(data_dir, library_dir, env={"BACKUP": str(backup_dir)}).start()
    yield srv
    srv.stop()


def wait_backup(admin, runs):
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        data = admin.get("/api/admin/backup")[2]
        if not data["running"] and len(data["history"]) >= runs:
            return data
        time.sleep(0.05)
    raise AssertionError("the backup did not finish")


def test_it_counts_open_incidents_in_the_overview_and_the_nav_and_acknowledges_them(server, admin, data_dir):
    for kind in incidents.KINDS:
        incidents.record(kind, "reader", f"{kind} happened", data_dir=data_dir)
    count = len(incidents.KINDS)
    assert admin.get("/api/admin")[2]["openIncidents"] == count
    page = admin.get("/settings/admin/users/")[2].decode()
    assert re.search(rf"Incidents &amp; health <span class=\"nav-badge\"[^>]*>{count}</span>", page)
    listed = admin.get("/api/admin/incidents")[2]
    assert {i["kind"] for i in listed["incidents"]} == set(incidents.KINDS)
    first = listed["incidents"][0]["id"]
    assert admin.post("/api/admin/incidents", {"acknowledge": first})[2] == {"acknowledged": 1, "open": count - 1}
    assert admin.post("/api/admin/incidents", {"acknowledge": 7})[0] == 400
    assert admin.post("/api/admin/incidents", {"acknowledge": "all"})[2] == {"acknowledged": count - 1, "open": 0}
    assert admin.get("/api/admin")[2]["openIncidents"] == 0
    assert "nav-badge" not in admin.get("/settings/admin/users/")[2].decode()
    health_page = admin.get("/settings/admin/health/?state=all")[2].decode()
    assert "Acknowledged by admin" in health_page and "stall happened" in health_page


def test_it_reports_health(server, admin, data_dir, backup_dir):
    incidents.record("stall", "scraper", "a job stalled twice", data_dir=data_dir)
    health = admin.get("/api/admin/health")[2]
    services = health["services"]
    assert services["supervised"] is False and services["reader"]["state"] == "running"
    assert services["reader"]["uptime"] >= 0
    assert health["library"]["lastScan"]["kind"] in ("full", "shallow")
    assert health["scraper"]["heartbeat"] is None  # no daemon ran on this DATA
    assert health["backup"]["enabled"] is True and health["backup"]["last"] is None
    assert health["space"]["data"]["free"] > 0 and health["space"]["library"]["free"] > 0
    assert health["openIncidents"] == 1 and health["incidents"][0]["message"] == "a job stalled twice"
    # Not under startall: a restart is up to whatever runs the services.
    status, _, body = admin.post("/api/admin/services/restart", {"service": "scraper"})
    assert status == 503 and "startall" in body["error"]


def test_it_runs_a_backup_from_the_api_and_records_it(server, admin, backup_dir, data_dir):
    assert admin.post("/api/admin/backup", {"command": "dance"})[0] == 400
    for schedule in ({"every": "hours", "hours": 0}, {"every": "day", "at": "25:00"}, {"every": "week"}):
        assert admin.post("/api/admin/backup", {"command": "settings", "schedule": schedule})[0] == 400
    assert admin.post("/api/admin/backup", {"command": "settings", "retention": {"keep": 0}})[0] == 400
    change = {"command": "settings", "schedule": {"every": "day", "at": "04:30"}, "retention": {"keep": 2, "weeks": 1}}
    status, _, body = admin.post("/api/admin/backup", change)
    assert status == 200 and body["settings"]["schedule"] == {"every": "day", "at": "04:30", "hours": 24}
    assert admin.post("/api/admin/backup", {"command": "run"})[2] == {"started": True}
    data = wait_backup(admin, 1)
    run = data["history"][0]
    assert run["ok"] and run["trigger"] == "manual" and data["archives"][0] == {
        "name": run["archive"], "size": run["size"], "verified": True}
    manifest = archive.read(backup_dir / run["archive"])
    assert "db.json" in manifest["files"] and "backup.json" in manifest["files"]
    assert oct((backup_dir / run["archive"]).stat().st_mode)[-3:] == "600"
    page = admin.get("/settings/admin/backups/")[2].decode()
    assert run["archive"] in page and "Back up now" in page
    assert admin.get("/api/admin/health")[2]["backup"]["last"]["archive"] == run["archive"]


def test_it_records_a_failed_backup_and_an_incident_and_keeps_earlier_archives(server, admin, backup_dir, data_dir):
    admin.post("/api/admin/backup", {"command": "run"})
    good = wait_backup(admin, 1)["history"][0]["archive"]
    with open(data_dir / "huge.json", "wb") as f:  # sparse: over the state-file cap, costs no disk
        f.truncate(jsonfile.MAX_BYTES + 1)
    admin.post("/api/admin/backup", {"command": "run"})
    data = wait_backup(admin, 2)
    failed = data["history"][0]
    assert not failed["ok"] and "huge.json" in failed["error"]
    assert [a["name"] for a in data["archives"]] == [good]
    assert not list(backup_dir.glob("*.part"))
    assert [i["kind"] for i in admin.get("/api/admin/incidents")[2]["incidents"]] == ["backup-failed"]
