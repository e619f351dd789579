"""Scraper fixtures: the fake site, a test source bound to it, an in-process daemon with scaled-down
timings, and a real `runscraper` subprocess (support.py)."""

import pytest

from bench.server import free_port
from scraper.daemon import Daemon
from scraper.http import Limits
from tests.conftest import make_server
from tests.scraper import fake_source
from tests.scraper.fakesite import FakeSite
from tests.scraper.support import ScraperProcess

TOKEN = "test-token-0123456789"
FAST = Limits(connect_timeout=2, read_timeout=2, deadline=3, max_bytes=1 << 20, retries=4, retry_base=0.02)


@pytest.fixture
def site():
    site = FakeSite().start()
    fake_source.SOURCE.base = site.url
    yield site
    site.stop()


@pytest.fixture
def library(tmp_path):
    path = tmp_path / "library"
    path.mkdir()
    return path


@pytest.fixture
def imports(tmp_path):
    path = tmp_path / "import"
    path.mkdir()
    return path


def make_daemon(tmp_path, library, imports, **overrides):
    options = dict(stall_seconds=5, limits=FAST, retry_delays=[0, 0], import_roots=[imports])
    options.update(overrides)
    daemon = Daemon(tmp_path / "data", library, **options)
    daemon.start()
    return daemon


@pytest.fixture
def daemon(tmp_path, site, library, imports):
    d = make_daemon(tmp_path, library, imports)
    yield d
    d.close()


def drain(daemon, limit=50):
    """Run jobs until none can run now; -> how many ran."""
    ran = 0
    while ran < limit and daemon.process_one_job():
        ran += 1
    return ran


@pytest.fixture
def scraper_proc(tmp_path, site, library):
    procs = []

    def start(data=None, **env):
        proc = ScraperProcess(data or tmp_path / "data", library, site.url, TOKEN, env).start()
        procs.append(proc)
        return proc

    yield start
    for proc in procs:
        proc.stop()


@pytest.fixture
def scraper_port():
    return free_port()


@pytest.fixture
def server(request, data_dir, library_dir, scraper_port):
    """The reader (in process, or real for a browser), pointed at a scraper daemon on scraper_port
    (started by the test, or not)."""
    env = {"SCRAPER_URL": f"http://127.0.0.1:{scraper_port}", "SCRAPER_TOKEN": TOKEN}
    srv = make_server(request, data_dir, library_dir, env=env).start()
    yield srv
    srv.stop()


@pytest.fixture
def reader_daemon(data_dir, library_dir, site, scraper_port):
    """A runscraper process on the reader's data and library, where the reader expects it."""
    proc = ScraperProcess(data_dir, library_dir, site.url, TOKEN, port=scraper_port).start()
    yield proc
    proc.stop()


@pytest.fixture
def dex(monkeypatch):
    """The fake MangaDex with the standard corpus; the mangadex module pointed at it, with the
    pacing scaled down (tests that measure pacing put the real values back)."""
    from bench.fakedex import FakeDex, standard
    from scraper.sources import mangadex

    site = FakeDex().start()
    site.ids = standard(site)
    monkeypatch.setattr(mangadex.SOURCE, "pace", 0.0)
    monkeypatch.setattr(mangadex, "AT_HOME_SECONDS", 0.0)
    mangadex.SOURCE.configure(site.url)
    yield site
    mangadex.SOURCE.configure()
    site.stop()


@pytest.fixture
def dexd(tmp_path, dex, library, imports):
    d = make_daemon(tmp_path, library, imports)
    yield d
    d.close()
