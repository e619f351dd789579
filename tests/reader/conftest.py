"""Fixtures for the library, manga and notification tests: a server whose first scan is done."""
import json
import subprocess
import sys
import time

import pytest

from tests.support.server import ROOT, Server

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


@pytest.fixture(scope="session")
def demo_library(tmp_path_factory):
    """The demo library of `manage.py makedemo`, made once per test run (treat it as read-only)."""
    path = tmp_path_factory.mktemp("demo") / "library"
    subprocess.run([sys.executable, "manage.py", "makedemo", str(path)], cwd=ROOT, check=True, capture_output=True)
    return path


@pytest.fixture(scope="module")
def demo_server(tmp_path_factory, demo_library):
    """A server on the demo library, shared by a module's tests (give each test its own user)."""
    server = Server(tmp_path_factory.mktemp("demo-data"), demo_library).start()
    admin = server.client().signup("admin", PASSWORD)
    wait_for_library(admin, 6)
    yield server
    server.stop()


_names = iter(range(1, 10_000))


def new_user(server, prefix="reader"):
    """A fresh plain user on the server; returns the name (the password is PASSWORD)."""
    name = f"{prefix}{next(_names)}"
    admin = server.client().login("admin")
    assert admin.post("/api/admin/user", {"name": name, "password": PASSWORD})[0] == 200
    return name


def sign_in(context, server, name, password=PASSWORD, path="/"):
    """Sign in through the login form in a new tab; returns the page, at `path`."""
    page = context.new_page()
    page.goto(server.url + "/login/?next=" + path)
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    page.click("button.primary")
    page.wait_for_url(server.url + path)
    return page
