"""In a browser: a manga left for review, matched by the admin, shows its summary and cover."""
import subprocess
import sys
import time
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from bench.server import ROOT, Server
from tests.conftest import PASSWORD
from tests.support.pages import sign_in, wait_for_library

from .conftest import make_library

pytestmark = pytest.mark.browser


@pytest.fixture
def site(tmp_path, fake):
    library = make_library(tmp_path / "library", ["Monster Remake", "Shingeki no Kyojin"])
    env = {**fake.env(), "METADATA_PROVIDERS": "anilist"}
    srv = Server(tmp_path / "data", library, env=env).start()
    yield srv
    srv.stop()


def test_an_admin_matches_a_manga_and_its_page_shows_the_summary_and_cover(site, desktop):
    admin = site.client().signup("admin", PASSWORD)
    wait_for_library(admin, 2)
    done = subprocess.run([sys.executable, str(ROOT / "manage.py"), "runmetadata", "--once"], cwd=ROOT,
                          env=site.env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    page = sign_in(desktop, site, "admin", path="/settings/admin/metadata/")
    card = page.locator(".metadata-manga", has_text="Monster")
    expect(card.locator(".candidate")).to_have_count(2)
    expect(card.locator(".candidate img").first).to_be_visible()
    card.get_by_role("button", name="Accept Monster from AniList for Monster").first.click()
    expect(page.locator(".messages")).to_contain_text("Monster Remake is matched to AniList")
    page.goto(f"{site.url}/manga/{quote('Monster Remake')}/")
    expect(page.locator(".description")).to_contain_text("The story of Monster.")
    expect(page.locator(".attribution")).to_contain_text("AniList")
    cover = page.locator(".cover img")
    expect(cover).to_be_visible()
    deadline = time.monotonic() + 10
    while not page.evaluate("document.querySelector('.cover img').naturalWidth > 0") and time.monotonic() < deadline:
        time.sleep(0.1)  # poll: the page's CSP forbids wait_for_function's eval
    assert page.evaluate("document.querySelector('.cover img').naturalWidth") > 0
    assert "webp" in (cover.get_attribute("src") or "")
