"""In a browser: a user connects AniList in Settings → Apps (a fake AniList on loopback approves at
once), finishes a chapter in the reader, and the fake receives the progress."""
import time
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from bench.server import Server
from tests.conftest import PASSWORD
from tests.support.pages import sign_in, wait_for_library

from .conftest import make_library

pytestmark = pytest.mark.browser


@pytest.fixture
def site(tmp_path, fake):
    srv = Server(tmp_path / "data", make_library(tmp_path / "library"), env=fake.env()).start()
    yield srv
    srv.stop()


def test_a_connected_user_finishes_a_chapter_and_anilist_receives_it(site, fake, desktop):
    wait_for_library(site.client().signup("admin", PASSWORD), 2)
    page = sign_in(desktop, site, "admin", path="/settings/user/apps/")
    card = page.locator("#trackers [data-tracker=anilist]")
    expect(card).to_contain_text("Not connected")
    card.get_by_role("link", name="Connect AniList").click()
    expect(page.locator(".messages")).to_contain_text("AniList is connected as anilistreader")
    expect(card.locator(".tracker-state")).to_contain_text("Connected as anilistreader")
    page.goto(f"{site.url}/read/{quote('Lantern Fields', safe='')}/1/1/")  # one page: finished once shown
    deadline = time.monotonic() + 15
    while not fake.updates and time.monotonic() < deadline:
        time.sleep(0.05)  # poll: the update goes out in the background
    assert fake.updates, "AniList never received the progress"
    site_name, entry, variables = fake.updates[0]
    assert (site_name, entry) == ("anilist", "77001")
    assert variables["progress"] == 1 and variables["status"] == "CURRENT"
    page.goto(f"{site.url}/settings/user/apps/")
    expect(page.locator("#trackers [data-tracker=anilist] .tracker-last")).to_contain_text("1 chapter read, reading")
