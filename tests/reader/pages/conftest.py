"""Fixtures for the library, manga and notification tests: servers whose first scan is done."""
import subprocess
import sys

import pytest

from tests.conftest import PASSWORD
from tests.support.pages import wait_for_library
from bench.server import ROOT, Server


@pytest.fixture
def scanned(server, admin):
    """The tiny library of tests/conftest.py (Moon Garden, Long Scroll), scanned."""
    wait_for_library(admin, 2)
    return server


@pytest.fixture
def other_user(server, admin):
    """A second plain user, to check that users never see each other's data."""
    status, _, data = admin.post("/api/admin/user", {"name": "other", "password": PASSWORD})
    assert status == 200, data
    return server.client().login("other", PASSWORD)


@pytest.fixture(scope="session")
def demo_library(tmp_path_factory):
    """The demo library of `manage.py makedemo`, made once per test run (treat it as read-only)."""
    path = tmp_path_factory.mktemp("demo") / "library"
    subprocess.run([sys.executable, "manage.py", "makedemo", str(path)], cwd=ROOT, check=True, capture_output=True)
    return path


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory, demo_library):
    """A server on the demo library, shared by a module's tests (give each test its own user)."""
    server = Server(tmp_path_factory.mktemp("demo-data"), demo_library).start()
    admin = server.client().signup("admin", PASSWORD)
    wait_for_library(admin, 6)
    yield server
    server.stop()
