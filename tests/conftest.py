"""Shared fixtures: tiny libraries built with Pillow, data folders, servers, personas, browsers.

Two tiers (markers registered in pyproject.toml):
- in process (the default): `server` is an AppServer (tests/support/app.py), the app in this
  process behind Django's test client: no socket, no gunicorn, the first scan done at start.
- `process`: the test starts real processes. `real_server` is a real `manage.py serve` on
  loopback (bench/server.py), for `serve` itself, kill -9 and crashes; `server` is one as well in
  a test that asks for `real_server` or drives a browser (marked `browser`: it needs a URL).
`pytest -m "not browser and not process"` runs the in-process tier, where starting a
subprocess fails the test.
"""
import fcntl
import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command
from PIL import Image

from bench.server import Server
from library import index
from mangacircus import events, runtime
from tests.support.app import AppServer

PASSWORD = "correct horse"


def make_page(path, size=(60, 90), color=(200, 200, 200), fmt=None):
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, color).save(path, format=fmt)
    return path


def tiny_tree(root):
    """A tiny manga tree: a paged manga with a book, a second version and a webtoon."""
    moon = root / "Moon Garden"
    (moon).mkdir(parents=True)
    (moon / "manga.json").write_text('{"title": "Moon Garden", "direction": "rtl", "authors": ["A. Writer"]}')
    for n in (1, 2):
        make_page(moon / "b01 Spring" / "c0001 Seeds" / f"{n:03d}.png")
    make_page(moon / "b01 Spring" / "c0002 Roots [MangaDex]" / "001 [cover].png")
    make_page(moon / "b01 Spring" / "c0002 Roots [MangaDex]" / "002.png")
    make_page(moon / "b01 Spring" / "c0002 Roots [Official]" / "001.png")
    make_page(moon / "b01 Spring" / "c0002 Roots [Official]" / "002-003.png", size=(180, 90))
    scroll = root / "Long Scroll"
    (scroll).mkdir()
    (scroll / "manga.json").write_text('{"direction": "ttb"}')
    for n in (1, 2, 3):
        make_page(scroll / "c0001 Start [Official]" / f"{n:03d}.png", size=(80, 400))
    return root


@pytest.fixture(scope="session")
def library_template(tmp_path_factory):
    return tiny_tree(tmp_path_factory.mktemp("template") / "library")


@pytest.fixture
def library_dir(tmp_path, library_template):
    """tiny_tree() for this test: a copy, times included, of one made once per run."""
    return Path(shutil.copytree(library_template, tmp_path / "library", symlinks=True))


@pytest.fixture(scope="session")
def demo_made(tmp_path_factory):
    """The demo library written by `manage.py makedemo` in a test process, once per run (4.5 s of
    CPU), and what the command printed. The suite's workers (pytest-xdist) share it: the first to
    need it writes it, under a lock, beside their own temporary folders. Treat it as read-only."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    path, printed = shared / "demo-made" / "demo", shared / "demo-made.txt"
    with open(shared / "demo-made.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not printed.exists():
            shutil.rmtree(path, ignore_errors=True)
            out = io.StringIO()
            call_command("makedemo", str(path), stdout=out)
            printed.write_text(out.getvalue())
    return path, printed.read_text()


@pytest.fixture(scope="session")
def demo_library(demo_made):
    return demo_made[0]


@pytest.fixture
def data_dir(tmp_path):
    path = tmp_path / "data"
    path.mkdir()
    return path


# Fixtures that start real processes: a test that uses one is marked `process`.
PROCESS_FIXTURES = {"real_server", "demo_server", "tiny_server", "demo_site", "scraper_proc", "reader_daemon"}


def pytest_collection_modifyitems(items):
    for item in items:
        names = set(item.fixturenames)
        if "browser" in names:
            item.add_marker(pytest.mark.browser)
        if item.get_closest_marker("browser") or names & PROCESS_FIXTURES:
            item.add_marker(pytest.mark.process)


@pytest.fixture(autouse=True)
def no_processes_in_process(request, monkeypatch):
    """The in-process tier stays in process: a test that starts one must be marked `process`."""
    if request.node.get_closest_marker("process"):
        return

    def refuse(*args, **kwargs):
        raise RuntimeError(f"{request.node.nodeid} starts a process: mark it process (tests/conftest.py)")

    monkeypatch.setattr(subprocess, "Popen", refuse)


def wants_real_server(request):
    return request.node.get_closest_marker("browser") is not None or "real_server" in request.fixturenames


def make_server(request, data, library=None, env=None):
    """An unstarted server of the kind `server` gives this test, on `data` and `library`."""
    return (Server if wants_real_server(request) else AppServer)(data, library, env=env)


@pytest.fixture
def start(settings, data_dir, library_dir):
    """start() starts the app in process on a fresh data folder (again after a stop()), for tests
    that talk to it through django.test.Client themselves (their own addresses and Host headers)."""
    settings.DATA, settings.LIBRARY, settings.SCAN_INTERVAL = data_dir, library_dir, 0
    settings.STATIC_ROOT = data_dir / "static"
    settings.STATIC_ROOT.mkdir()
    saved_index, saved_callbacks = index.current(), events.scan_finished.callbacks()
    yield runtime.start
    runtime.stop()
    index.replace(saved_index)
    for callback in events.scan_finished.callbacks():
        if callback not in saved_callbacks:
            events.scan_finished.disconnect(callback)


@pytest.fixture
def app_server(data_dir, library_dir):
    srv = AppServer(data_dir, library_dir).start()
    yield srv
    srv.stop()


@pytest.fixture
def real_server(data_dir, library_dir):
    srv = Server(data_dir, library_dir).start()
    yield srv
    srv.stop()


@pytest.fixture
def server(request):
    """The app in process (app_server), or real_server for browser tests and those that ask for it."""
    return request.getfixturevalue("real_server" if wants_real_server(request) else "app_server")


@pytest.fixture
def admin(server):
    """The first account, so the admin."""
    return server.client().signup("admin", PASSWORD)


@pytest.fixture
def reader_user(server, admin):
    """A user who may read."""
    status, _, data = admin.post("/api/admin/user", {"name": "reader", "password": PASSWORD})
    assert status == 200, data
    return server.client().login("reader", PASSWORD)


@pytest.fixture
def guest(server):
    """Someone without an account."""
    return server.client()


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright (Playwright's own browser download is not used)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _check_marked(request):
    assert request.node.get_closest_marker("browser"), "mark the test browser: its server must be real"


@pytest.fixture
def desktop(request, browser):
    _check_marked(request)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    yield context
    context.close()


@pytest.fixture
def phone(request, browser):
    _check_marked(request)
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True)
    yield context
    context.close()
