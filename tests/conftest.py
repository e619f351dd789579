"""Shared fixtures: tiny libraries built with Pillow, data folders, a real server, personas."""
import pytest
from PIL import Image

from bench.server import Server

PASSWORD = "correct horse"


def make_page(path, size=(60, 90), color=(200, 200, 200), fmt=None):
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, color).save(path, format=fmt)
    return path


@pytest.fixture
def library_dir(tmp_path):
    """A tiny manga tree: a paged manga with a book, a second version and a webtoon."""
    root = tmp_path / "library"
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


@pytest.fixture
def data_dir(tmp_path):
    path = tmp_path / "data"
    path.mkdir()
    return path


@pytest.fixture
def server(data_dir, library_dir):
    srv = Server(data_dir, library_dir).start()
    yield srv
    srv.stop()


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


@pytest.fixture
def desktop(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    yield context
    context.close()


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True)
    yield context
    context.close()
