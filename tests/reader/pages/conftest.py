"""Fixtures for the library, manga and notification tests: servers whose first scan is done."""
import pytest

from bench.server import Server
from tests.conftest import PASSWORD
from tests.reader.conftest import seed_thumbs, stop_server
from tests.support.pages import wait_for_library


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


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory, demo_library):
    """A real server on the demo library (tests/reader/conftest.py), shared by a module's browser
    tests (give each test its own user)."""
    data = tmp_path_factory.mktemp("demo-data")
    seed_thumbs(data, demo_library)
    server = Server(data, demo_library).start()
    admin = server.client().signup("admin", PASSWORD)
    wait_for_library(admin, 6)
    yield server
    stop_server(server)
