"""End to end: an admin searches MangaDex (the fake one) from the admin screen, adds a series, and
reads its chapters a few seconds later, with the real `serve` and `runscraper`."""
import time
import urllib.parse

import pytest
from PIL import Image

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
        page.click(f"tr[data-id='{manga}'] button:has-text('Follow series')")
        page.wait_for_selector(".toast:has-text('Following Small Tale')")
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


def test_choosing_chapters_downloads_only_those_and_does_not_follow_the_series(data_dir, library_dir, scraper_port,
                                                                               desktop):
    """Issue 28, item 4: "Choose chapters…" then "Download selected chapters" is the other explicit
    action beside "Follow series": the series is recorded with auto-update off and can be followed later."""
    dex = FakeDex().start()
    manga = dex.add_manga("Short Tale", original="ja", languages=("en",))
    fans = Group("Fans")
    ids = [dex.add_chapter(manga, str(n), None, f"Part {n}", (fans,)) for n in (1, 2, 3)]
    env = {"SCRAPER_URL": f"http://127.0.0.1:{scraper_port}", "SCRAPER_TOKEN": TOKEN}
    reader = Server(data_dir, library_dir, env=env).start()
    daemon = ScraperProcess(data_dir, library_dir, "", TOKEN, env={"MANGADEX_API_URL": dex.url},
                            port=scraper_port).start()
    try:
        admin = reader.client().signup("admin", PASSWORD)
        desktop.add_cookies([{"name": "sid", "value": admin.cookies["sid"], "url": reader.url}])
        page = desktop.new_page()
        # Item 6 on the way: data saver on, from Schedule & pacing.
        page.goto(reader.url + "/settings/admin/scraper/schedule/")
        page.check("input[name='mangadex.dataSaver']")
        page.click("button:has-text('Save')")
        page.wait_for_selector(".toast:has-text('Saved')")
        assert daemon.call("GET", "/settings")[1]["settings"]["options"] == {"mangadex": {"dataSaver": True}}
        page.goto(reader.url + "/settings/admin/scraper/sources/")
        page.fill("input[name=q]", "short")
        page.click("button:has-text('Search')")
        row = f"tr[data-id='{manga}']"
        page.click(f"{row} button:has-text('Choose chapters')")
        page.wait_for_selector(f"{row} .sc-chapters input[value='{ids[2]}']")
        page.check(f"{row} input[value='{ids[0]}']")
        page.check(f"{row} input[value='{ids[2]}']")
        page.click(f"{row} button:has-text('Download selected chapters')")
        page.wait_for_selector(".toast:has-text('2 chapters of Short Tale queued; the series is not followed')")
        deadline = time.monotonic() + 60
        keys = []
        while time.monotonic() < deadline:
            status, _, data = admin.get("/api/manga?m=" + urllib.parse.quote("Short Tale"))
            keys = [c["key"] for b in data["books"] for c in b["chapters"]] if status == 200 else []
            if len(keys) == 2:
                break
            time.sleep(0.3)
        assert keys == ["1", "3"]
        [series] = daemon.call("GET", "/series")[1]["series"]
        assert series["id"] == manga and series["auto"] is False
        pages = sorted((library_dir / "Short Tale").rglob("001.*"))
        assert [p.suffix for p in pages] == [".jpg", ".jpg"] and {Image.open(p).size for p in pages} == {(20, 30)}
        # Still offered to follow: only two chapters were downloaded.
        page.click("button:has-text('Search')")
        page.wait_for_selector(f"{row} button:has-text('Follow series')")
        page.goto(reader.url + "/settings/admin/scraper/series/")
        page.wait_for_selector("tr:has-text('Short Tale') .sc-saver:has-text('data saver')")
    finally:
        daemon.stop()
        reader.stop()
        dex.stop()
