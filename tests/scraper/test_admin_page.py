"""The admin Scraper screen: one URL per tab, admins only, and a clean "offline" state."""
import pytest

from scraper.views import TABS


def test_it_renders_every_tab_for_admins(admin):
    for key, label in TABS:
        status, headers, body = admin.get(f"/settings/admin/scraper/{key}/")
        assert status == 200
        html = body.decode()
        assert 'aria-current="page"' in html and label.replace("&", "&amp;") in html
        assert "settings-scraper" in html and 'id="page-data"' in html
    status, headers, _ = admin.get("/settings/admin/scraper/")
    assert status == 302 and headers["Location"].endswith("/settings/admin/scraper/queue/")
    assert admin.get("/settings/admin/scraper/nope/")[0] == 404


def test_it_hides_the_screen_from_everyone_else(reader_user, guest):
    assert reader_user.get("/settings/admin/scraper/queue/")[0] == 403
    status, headers, _ = guest.get("/settings/admin/scraper/queue/")
    assert status == 302 and "/login/?next=" in headers["Location"]


@pytest.fixture
def browser_page(server, admin, desktop):
    """A page in the shared browser (tests/conftest.py): a second Playwright in the same run fails."""
    desktop.add_cookies([{"name": "sid", "value": admin.cookies["sid"], "url": server.url}])
    page = desktop.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page, server.url
    assert errors == []


def test_it_shows_scraper_offline_cleanly(browser_page):
    page, url = browser_page
    page.goto(url + "/settings/admin/scraper/queue/")
    page.wait_for_selector("#sc-offline:not([hidden])")
    assert "Scraper offline." in page.inner_text("#sc-offline")
    assert page.locator("h1").inner_text() == "Scraper"


def test_it_lists_queued_jobs_and_queues_a_search_result(browser_page, reader_daemon):
    page, url = browser_page
    reader_daemon.call("POST", "/pause", {})
    reader_daemon.call("POST", "/jobs", {"kind": "update", "source": "fake", "series": "x"})
    page.goto(url + "/settings/admin/scraper/queue/")
    page.wait_for_selector(".sc-table td:has-text('update')")
    assert "paused" in page.inner_text(".sc-status")
    page.goto(url + "/settings/admin/scraper/sources/")
    page.select_option("select[name=source]", "fake")
    page.fill("input[name=q]", "moon")
    page.click("button:has-text('Search')")
    page.wait_for_selector("td:has-text('Moon Garden')")
    page.click("button:has-text('Follow series')")
    page.wait_for_selector(".toast")
    jobs = reader_daemon.call("GET", "/jobs")[1]["jobs"]
    assert [(j["kind"], j["series"]) for j in jobs] == [("update", "x"), ("add", "s1")]
    assert page.locator("#sc-offline").is_hidden()
    # A series already there says so instead of offering "Add" again, now and in a new search.
    page.wait_for_selector("td:has-text('Subscribed')")
    page.click("button:has-text('Search')")
    page.wait_for_selector("td:has-text('Moon Garden')")
    assert page.locator("td:has-text('Subscribed')").count() == 1
    assert page.locator(".sc-results button:has-text('Follow series')").count() == 0


def test_it_prints_dates_in_the_one_format_of_every_page(browser_page, reader_daemon):
    """2026-11-30 14:44 in the server's time zone, as the server-rendered pages print them, not the
    browser's locale ("11/30/2026, 2:44:13 PM")."""
    page, url = browser_page
    reader_daemon.call("POST", "/pause", {})
    reader_daemon.call("POST", "/jobs", {"kind": "update", "source": "fake", "series": "x"})
    page.goto(url + "/settings/admin/scraper/series/")
    page.wait_for_selector(".sc-table")
    assert page.evaluate("document.body.dataset.tz") == "UTC"
    assert page.evaluate("formatDate(Date.UTC(2026, 10, 30, 14, 44, 13), true)") == "2026-11-30 14:44"
    assert page.evaluate("formatDate(Date.UTC(2026, 10, 30, 23, 59))") == "2026-11-30"
    page.goto(url + "/settings/admin/scraper/schedule/")
    page.wait_for_selector("text=Last run")
    assert "AM" not in page.inner_text("main") and "PM" not in page.inner_text("main")
