"""End to end: an admin searches MangaDex (the fake one) from the admin screen, adds a series, and
reads its chapters a few seconds later, with the real `serve` and `runscraper`."""
import time
import urllib.parse

import pytest

from bench.fakedex import FakeDex, Group
from bench.server import Server
from tests.conftest import PASSWORD
from tests.scraper.conftest import TOKEN
from tests.scraper.support import ScraperProcess

pytestmark = pytest.mark.browser


def test_search_add_and_read_a_mangadex_series(data_dir, library_dir, scraper_port, desktop):
    dex = FakeDex().start()
    manga = dex.add_manga("Small Tale", original="ja", languages=("en", "fr"), year=2021)
    fans = Group("Fans")
    for number, volume in (("1", "1"), ("3.9", None), ("3.10", None)):
        dex.add_chapter(manga, number, volume, f"Part {number}", (fans,))
    env = {"SCRAPER_URL": f"http://127.0.0.1:{scraper_port}", "SCRAPER_TOKEN": TOKEN}
    reader = Server(data_dir, library_dir, env=env).start()
    daemon = ScraperProcess(data_dir, library_dir, "", TOKEN, env={"MANGADEX_API_URL": dex.url},
                            port=scraper_port).start()
    try:
        admin = reader.client().signup("admin", PASSWORD)
        desktop.add_cookies([{"name": "sid", "value": admin.cookies["sid"], "url": reader.url}])
        page = desktop.new_page()
        page.goto(reader.url + "/settings/admin/scraper/sources/")
        page.wait_for_selector("select[name=source]")
        assert page.input_value("select[name=source]") == "mangadex"
        page.fill("input[name=q]", "small")
        page.click("button:has-text('Search')")
        row = page.wait_for_selector(f"tr[data-id='{manga}']")
        assert "2021" in row.inner_text() and "ongoing" in row.inner_text() and "en, fr" in row.inner_text()
        page.wait_for_selector(f"tr[data-id='{manga}'] .sc-cover img[src^='data:image/png']")
        page.select_option(f"tr[data-id='{manga}'] select", "en")
        page.click(f"tr[data-id='{manga}'] button:has-text('Add')")
        page.wait_for_selector(".toast:has-text('Adding Small Tale')")
        queued = time.monotonic()

        data = None
        while time.monotonic() - queued < 60:
            status, _, data = admin.get("/api/manga?m=" + urllib.parse.quote("Small Tale"))
            if status == 200 and sum(len(b["chapters"]) for b in data["books"]) == 3:
                break
            time.sleep(0.3)
        assert data and sum(len(b["chapters"]) for b in data["books"]) == 3, data
        print(f"\nadd → three chapters listed by /api/manga in {time.monotonic() - queued:.1f} s")
        keys = [c["key"] for b in data["books"] for c in b["chapters"]]
        assert "3.9" in keys and "3.10" in keys and keys.index("3.9") < keys.index("3.10")

        page.goto(reader.url + "/read/Small%20Tale/0/3.10/")
        page.wait_for_function("() => window.mcReader && window.mcReader.page === 0")
        page.wait_for_function(
            "() => [...document.querySelectorAll('.reader img')].some(i => i.complete && i.naturalWidth === 40)")

        page.goto(reader.url + "/settings/admin/scraper/series/")
        page.wait_for_selector("td:has-text('Small Tale')")
        assert page.input_value("input[aria-label='Language of Small Tale']") == "en"
        assert page.is_checked("input[aria-label='Auto-update Small Tale']")
        assert dex.max_inflight == 1 and len(dex.reports) == 9
    finally:
        daemon.stop()
        reader.stop()
        dex.stop()
