"""A library of the ambiguous cases, fake providers on loopback, and the app in process with them."""
import json

import pytest

from metadata import providers
from metadata.client import Client
from metadata.worker import Worker
from tests.conftest import PASSWORD, make_page
from tests.support.app import AppServer

from .fakes import DirectChannel, FakeProviders

# folder -> manga.json (None: no manga.json, a bare folder)
LIBRARY = {
    "Monster": {"title": "Monster", "year": 1994},
    "Monster Remake": {"title": "Monster"},
    "Shingeki no Kyojin": None,
    "Solo Leveling": None,
    "Solo Leveling Novel": {"title": "Solo Leveling", "format": "novel"},
    "Named By Id": {"title": "Monster", "links": {"AniList": "https://anilist.co/manga/30002"}},
    "Lantern Fields": None,
}


def make_library(root, names=LIBRARY):
    for name in names:
        folder = root / name
        make_page(folder / "c0001 One" / "001.png")
        if LIBRARY.get(name) is not None:
            (folder / "manga.json").write_text(json.dumps(LIBRARY[name]))
    return root


@pytest.fixture
def fake():
    site = FakeProviders().start()
    yield site
    site.stop()


@pytest.fixture
def shelf(tmp_path):
    return make_library(tmp_path / "library")


def start_app(tmp_path, library, fake, kinds="anilist"):
    return AppServer(tmp_path / "data", library, env={**fake.env(), "METADATA_PROVIDERS": kinds}).start()


@pytest.fixture
def app(tmp_path, shelf, fake):
    srv = start_app(tmp_path, shelf, fake)
    yield srv
    srv.stop()


@pytest.fixture
def admin_client(app):
    return app.client().signup("admin", PASSWORD)


def make_worker(pace_for=lambda source: 0, limits=None):
    """A worker on the app in process, without pacing unless asked (tests/metadata/test_pacing.py)."""
    return Worker(DirectChannel(), Client(pace_for=pace_for, limits=limits), providers.chosen())


def run_all(worker):
    while worker.process_one_job():
        pass
    return worker.channel.results
