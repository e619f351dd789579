"""The Scraper screen's Queue at 1280 px: the error column reads as sentences and every action,
Cancel included, is inside the list's column; a failed search says so; a disabled button looks it."""
import json
import time

import pytest
from playwright.sync_api import expect

from tests.support import axe

pytestmark = pytest.mark.browser

FITS = """() => {
  const column = document.querySelector('.ops-main').getBoundingClientRect();
  const table = document.querySelector('.sc-table').getBoundingClientRect();
  const out = [...document.querySelectorAll('.sc-table button')].filter((b) => {
    const r = b.getBoundingClientRect(); return r.right > column.right + 0.5 || r.right > innerWidth; })
    .map((b) => b.textContent);
  const error = document.querySelector('.sc-table .sc-job .error');
  const range = document.createRange();
  range.selectNodeContents(error);
  return {table: Math.round(table.width), column: Math.round(column.width), outside: out,
          errorWidth: Math.round(error.getBoundingClientRect().width), errorLines: range.getClientRects().length,
          errorText: error.textContent};
}"""


@pytest.fixture
def page(server, admin, desktop):
    desktop.add_cookies([{"name": "sid", "value": admin.cookies["sid"], "url": server.url}])
    desktop.add_init_script(script=axe.source())
    page = desktop.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    assert errors == []


def test_the_queue_fits_1280_px_with_its_error_readable_and_cancel_in_view(server, page, reader_daemon):
    reader_daemon.call("POST", "/jobs", {"kind": "update", "source": "fake", "series": "gone"})  # fails
    deadline = time.monotonic() + 60
    while reader_daemon.call("GET", "/jobs")[1]["jobs"][0]["state"] != "failed":
        assert time.monotonic() < deadline, reader_daemon.output()
        time.sleep(0.2)
    reader_daemon.call("POST", "/pause", {})
    reader_daemon.call("POST", "/jobs", {"kind": "update", "source": "fake", "series": "a-series-with-a-long-name"})
    page.goto(server.url + "/settings/admin/scraper/queue/")
    page.wait_for_selector(".sc-table")
    page.locator(".sc-filters[aria-label=State] button", has_text="all").click()
    page.wait_for_selector(".sc-table .sc-job .error")
    fits = page.evaluate(FITS)
    assert fits["table"] <= fits["column"] and fits["outside"] == [], fits
    assert fits["errorWidth"] >= 160, fits  # not a few characters a line
    assert page.get_by_role("button", name="Cancel").first.is_visible()
    assert axe.violations(page) == []


def test_a_failed_search_says_so_instead_of_searching_on(server, page, reader_daemon):
    page.route("**/api/admin/scraper/search?*", lambda route: route.fulfill(
        status=502, content_type="application/json", body=json.dumps({"error": "fake.example did not answer"})))
    page.goto(server.url + "/settings/admin/scraper/sources/")
    page.select_option("select[name=source]", "fake")
    page.fill("input[name=q]", "moon")
    page.click("button:has-text('Search')")
    expect(page.locator(".toast.error")).to_have_text("fake.example did not answer")
    expect(page.locator(".sc-results")).to_have_text("The search failed; try again.")


def test_a_disabled_import_button_does_not_look_like_the_one_to_press(server, page, reader_daemon):
    page.goto(server.url + "/settings/admin/scraper/sources/")
    imports = page.get_by_role("button", name="Import")
    expect(imports).to_be_disabled()  # no SCRAPER_IMPORT_ROOTS for this daemon
    look = "b => [getComputedStyle(b).backgroundColor, getComputedStyle(b).color]"
    search = page.get_by_role("button", name="Search", exact=True).evaluate(look)
    assert imports.evaluate(look) != search and imports.evaluate(look)[0] != "rgb(240, 163, 94)"  # --accent
    assert axe.violations(page) == []
