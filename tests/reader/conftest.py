"""Fixtures for the reader tests: servers with an admin whose scan is done (one
real server per module for the browser tests, a fresh in-process one per test for the others),
fresh users, and browser pages opened on the reader with a signed-in session."""
import io
import itertools
import shutil
import time
from urllib.parse import quote

import pytest
from PIL import Image

from bench.server import Server
from tests.conftest import PASSWORD, make_page
from tests.support.app import AppServer
from tests.support.evaluate import answer

_names = itertools.count(1)


def unsized_jpeg(path, size):
    """A JPEG whose size the header reader gives up on (600 comment segments before the frame
    header) but that any browser shows: the reader lays it out at 1000×1414 until it loads."""
    buffer = io.BytesIO()
    Image.new("RGB", size, (90, 160, 90)).save(buffer, "JPEG")
    data = buffer.getvalue()
    comments = b"".join(b"\xff\xfe\x00\x03x" for _ in range(600))
    path.write_bytes(data[:2] + comments + data[2:])


def tiny_library(root):
    """Pages with sizes chosen for exact geometry and the awkward cases of the page model."""
    rtl = root / "Tiny"
    rtl.mkdir(parents=True)
    (rtl / "manga.json").write_text('{"direction": "rtl"}')
    c1 = rtl / "c0001 One"
    for n in range(1, 5):
        make_page(c1 / f"{n:03d}.png", size=(300, 450))
    make_page(c1 / "005 [r90].png", size=(450, 300))  # stored on its side, shown 300×450
    unsized_jpeg(c1 / "006.jpg", (360, 480))
    (c1 / "007.png").write_bytes(b"this is not an image")  # fails to load
    for n in (8, 9):
        make_page(c1 / f"{n:03d}.png", size=(300, 450))
    c2 = rtl / "c0002 Two"
    for n in range(1, 4):
        make_page(c2 / f"{n:03d}.png", size=(300, 450))
    c3 = rtl / "c0003 Tags"  # tags override the aspect: [wide] stands alone, [single] pairs
    for name, size in (("001", (300, 450)), ("002 [wide]", (300, 450)), ("003", (300, 450)),
                       ("004 [single]", (600, 450)), ("005", (300, 450))):
        make_page(c3 / f"{name}.png", size=size)
    return root


@pytest.fixture(scope="session")
def tiny_library_dir(tmp_path_factory):
    return tiny_library(tmp_path_factory.mktemp("tiny") / "library")


_thumbs = {}  # library → the thumbs/ of an earlier server on it


def seed_thumbs(data, library):
    """Give a new server on `library` the cover thumbnails an earlier one made, as a restart
    would find them, instead of making them again."""
    if library in _thumbs:
        shutil.copytree(_thumbs[library], data / "thumbs")


def stop_server(srv):
    srv.stop()
    _thumbs.setdefault(srv.library, srv.data / "thumbs")


def start_server(tmp_path_factory, library, wait_for, kind=Server):
    """A server (real, or an AppServer) on `library`, with an admin; waits until the scan has
    found `wait_for` ((manga, chapter id))."""
    data = tmp_path_factory.mktemp("data")
    seed_thumbs(data, library)
    srv = kind(data, library).start()
    admin = srv.client().signup("admin", PASSWORD)
    manga, cid = wait_for
    deadline = time.monotonic() + 30
    while admin.get(f"/api/chapter?m={quote(manga)}&c={quote(cid)}")[0] != 200:
        if time.monotonic() > deadline:
            srv.stop()
            log = srv.log.read_text() if kind is Server else ""
            raise RuntimeError(f"the scan did not find {manga} {cid}:\n{log}")
        time.sleep(0.1)
    srv.admin = admin
    return srv


@pytest.fixture(scope="module")
def demo_server(tmp_path_factory, demo_library):
    srv = start_server(tmp_path_factory, demo_library, ("Long Scroll", "0/3"))
    yield srv
    stop_server(srv)


@pytest.fixture(scope="module")
def tiny_server(tmp_path_factory, tiny_library_dir):
    srv = start_server(tmp_path_factory, tiny_library_dir, ("Tiny", "0/3"))
    yield srv
    stop_server(srv)


@pytest.fixture
def demo_app(tmp_path_factory, demo_library):
    """The demo library served in process, for one test (its scan takes some 20 ms)."""
    srv = start_server(tmp_path_factory, demo_library, ("Long Scroll", "0/3"), AppServer)
    yield srv
    stop_server(srv)


@pytest.fixture
def tiny_app(tmp_path_factory, tiny_library_dir):
    srv = start_server(tmp_path_factory, tiny_library_dir, ("Tiny", "0/3"), AppServer)
    yield srv
    stop_server(srv)


def new_user(server, **settings):
    """A fresh user (so tests never share progress or settings) with these settings; its client."""
    name = f"u{next(_names)}"
    status, _, data = server.admin.post("/api/admin/user", {"name": name, "password": PASSWORD})
    assert status == 200, data
    client = server.client().login(name, PASSWORD)
    if settings:
        status, _, data = client.post("/api/settings", settings)
        assert status == 200, data
    return client


def read_url(server, manga, book, chapter, version=None):
    url = f"{server.url}/read/{quote(manga, safe='')}/{book}/{chapter}/"
    return url + (f"?v={quote(version, safe='')}" if version else "")


class Reader:
    """A browser page on the reader, signed in as a fresh user."""

    def __init__(self, context, server, client):
        self.context, self.server, self.client = context, server, client
        context.add_cookies([{"name": "sid", "value": client.cookies["sid"], "url": server.url}])
        self.page = context.new_page()
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, manga, book, chapter, version=None):
        self.page.goto(read_url(self.server, manga, book, chapter, version))
        self.wait("window.mcReader && mcReader.boxes.length + (mcReader.atEnd ? 1 : 0) > 0")
        return self

    def state(self, expression="mcReader"):
        """A plain copy of mcReader (or of an expression on it)."""
        return self.page.evaluate(f"""(() => {{ const v = {expression};
            if (v !== window.mcReader) return v;
            const out = {{}}; for (const k in v) out[k] = v[k]; return out; }})()""")

    def wait(self, condition, timeout=5):
        """Poll a JS expression until it is truthy (wait_for_function would need eval, which the
        page's CSP forbids)."""
        deadline = time.monotonic() + timeout
        while not self.page.evaluate(condition):
            if time.monotonic() > deadline:
                raise AssertionError(f"still false after {timeout} s: {condition}")
            time.sleep(0.02)

    def settle(self):
        """Two animation frames: whatever a handler scheduled has been laid out."""
        answer(self.page, "new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")

    def progress(self, manga, cid):
        status, _, data = self.client.get(f"/api/chapter?m={quote(manga)}&c={quote(cid)}")
        assert status == 200, data
        return data["progress"]

    def saved(self, manga, cid, check, timeout=4):
        """Poll the server until the chapter's progress passes check(progress); return it."""
        deadline = time.monotonic() + timeout
        while True:
            entry = self.progress(manga, cid)
            if entry and check(entry):
                return entry
            if time.monotonic() > deadline:
                raise AssertionError(f"progress never matched: {entry}")
            time.sleep(0.1)

    def settings(self):
        return self.client.get("/api/me")[2]["settings"]


@pytest.fixture
def reader_on(request):
    """reader_on(context, server, **settings) → a Reader for a fresh user with those settings."""
    made = []

    def make(context, server, **settings):
        reader = Reader(context, server, new_user(server, **settings))
        made.append(reader)
        return reader

    yield make
    for reader in made:
        assert not reader.errors, reader.errors
