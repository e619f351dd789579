"""A small library, fake trackers on loopback, the app in process with them, and a sender on a
clock the test moves (the app's own sender is put aside, so nothing is sent behind the test's back)."""
import json
from urllib.error import HTTPError
from urllib.parse import urlsplit
from urllib.request import HTTPRedirectHandler, Request, build_opener

import pytest

from tests.conftest import PASSWORD, make_page
from tests.support.app import AppServer
from tests.support.pages import wait_for_library
from trackers import sender as sender_module
from trackers import session

from .fakes import FakeTrackers

MU_ID = 55099564912  # "pb8uwds" in base 36, as MangaUpdates' addresses name it


def make_library(root):
    lantern = root / "Lantern Fields"
    for folder in ("b01 Dawn/c0001 One", "b01 Dawn/c0002 Two", "b02 Dusk/c0003 Three"):
        make_page(lantern / folder / "001.png")
    (lantern / "manga.json").write_text(json.dumps({
        "title": "Lantern Fields", "status": "completed",
        "links": {"AniList": "https://anilist.co/manga/77001", "MyAnimeList": "https://myanimelist.net/manga/88001",
                  "MangaUpdates": "https://www.mangaupdates.com/series/pb8uwds/lantern-fields"}}))
    for n in (1, 2):
        make_page(root / "Monster" / f"c000{n} Part" / "001.png")
    return root


class Clock:
    def __init__(self, t=1_800_000_000.0):
        self.t = t

    def __call__(self):
        return self.t

    def advance(self, seconds):
        self.t += seconds


@pytest.fixture
def fake():
    site = FakeTrackers().start()
    yield site
    site.stop()


@pytest.fixture
def app(tmp_path, fake):
    srv = AppServer(tmp_path / "data", make_library(tmp_path / "library"), env=fake.env()).start()
    yield srv
    srv.stop()


@pytest.fixture
def user(app):
    client = app.client().signup("admin", PASSWORD)
    wait_for_library(client, 2)
    return client


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def sender(app, clock):
    """A sender on `clock`, without pacing, in place of the app's; run it with sender.run_due()."""
    mine = sender_module.Sender(clock=clock, http=session.http_client(pace_for=lambda tracker: 0))
    before = sender_module.install(mine)
    if before is not None:
        before.stop()
    yield mine
    sender_module.install(None)


class _NoRedirect(HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def authorize(client, key):
    """The browser's round trip: connect → the fake's authorize page (it approves at once) → the
    callback; -> the callback's answer."""
    status, headers, _ = client.get(f"/settings/user/apps/trackers/{key}/connect/")
    assert status == 302, status
    to_site = headers["Location"]
    with pytest.raises(HTTPError) as answer:  # the 302 it was told not to follow
        build_opener(_NoRedirect).open(Request(to_site))
    assert answer.value.code == 302
    parts = urlsplit(answer.value.headers["Location"])
    return to_site, client.get(f"{parts.path}?{parts.query}")


def finish(client, manga, cid, version, pages=1):
    """Finish a chapter as the reader does (POST /api/progress, done)."""
    status, _, data = client.post("/api/progress", {"m": manga, "c": cid, "v": version, "p": pages - 1, "n": pages,
                                                   "done": True, "shift": []})
    assert status == 200, data
