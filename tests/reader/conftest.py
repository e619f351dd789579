"""Fixtures for the library, manga and notification tests: a server whose first scan is done."""
import json
import time

import pytest

from tests.conftest import PASSWORD


def wait_for_library(client, count, timeout=15):
    """Poll GET /api/library until the index holds `count` manga (the first scan runs in the background)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, _, data = client.get("/api/library")
        if status == 200 and data["count"] == count:
            return data
        time.sleep(0.1)
    raise AssertionError(f"the library did not reach {count} manga: {data}")


@pytest.fixture
def scanned(server, admin):
    """The tiny library (Moon Garden, Long Scroll), scanned."""
    wait_for_library(admin, 2)
    return server


@pytest.fixture
def other_user(server, admin):
    """A second plain user, to check that users never see each other's data."""
    status, _, data = admin.post("/api/admin/user", {"name": "other", "password": PASSWORD})
    assert status == 200, data
    return server.client().login("other", PASSWORD)


def add_notes(server, user, notes):
    """Stop the server, append notifications for `user` to db.json as an announcement would, restart."""
    server.stop()
    path = server.data / "db.json"
    db = json.loads(path.read_text())
    db["notes"].setdefault(user, []).extend(notes)
    path.write_text(json.dumps(db))
    server.start()
