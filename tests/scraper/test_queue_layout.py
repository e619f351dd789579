"""The Scraper screen's Queue at 1280 px: the error column reads as sentences and every action,
Cancel included, is inside the list's column; a failed search says so; a disabled button looks it."""
import json
import shutil
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from bench.server import Server, free_port
from tests.conftest import PASSWORD
from tests.scraper.conftest import TOKEN
from tests.scraper.fakesite import FakeSite
from tests.scraper.support import ScraperProcess
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


def open_page(context, server, admin):
    context.add_cookies([{"name": "sid", "value": admin.cookies["sid"], "url": server.url}])
    context.add_init_script(script=axe.source())
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, errors


@pytest.fixture
def page(server, admin, desktop):
    page, errors = open_page(desktop, server, admin)
    yield page
    assert errors == []


@pytest.fixture(scope="module")
def untouched(tmp_path_factory, library_template):
    """The reader and its scraper for the tests that only look at the Sources tab (they change
    nothing on either), started once for them."""
    site = FakeSite().start()
    root = tmp_path_factory.mktemp("sources")
    library, data = Path(shutil.copytree(library_template, root / "library", symlinks=True)), root / "data"
    port = free_port()
    server = Server(data, library, env={"SCRAPER_URL": f"http://127.0.0.1:{port}", "SCRAPER_TOKEN": TOKEN}).start()
    daemon = ScraperProcess(data, library, site.url, TOKEN, port=port).start()
    try:
        yield server, server.client().signup("admin", PASSWORD)
    finally:
        daemon.stop()
        server.stop()
        site.stop()


@pytest.fixture
def sources_page(untouched, desktop):
    server, admin = untouched
    page, errors = open_page(desktop, server, admin)
    yield page, server.url + "/settings/admin/scraper/sources/"
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


def test_a_failed_search_says_so_instead_of_searching_on(sources_page):
    page, url = sources_page
    page.route("**/api/admin/scraper/search?*", lambda route: route.fulfill(
        status=502, content_type="application/json", body=json.dumps({"error": "fake.example did not answer"})))
    page.goto(url)
    page.select_option("select[name=source]", "fake")
    page.fill("input[name=q]", "moon")
    page.click("button:has-text('Search')")
    expect(page.locator(".toast.error")).to_have_text("fake.example did not answer")
    expect(page.locator(".sc-results")).to_have_text("The search failed; try again.")


def test_a_disabled_import_button_does_not_look_like_the_one_to_press(sources_page):
    page, url = sources_page
    page.goto(url)
    imports = page.get_by_role("button", name="Import")
    expect(imports).to_be_disabled()  # no SCRAPER_IMPORT_ROOTS for this daemon
    look = "b => [getComputedStyle(b).backgroundColor, getComputedStyle(b).color]"
    search = page.get_by_role("button", name="Search", exact=True).evaluate(look)
    assert imports.evaluate(look) != search and imports.evaluate(look)[0] != "rgb(240, 163, 94)"  # --accent
    assert axe.violations(page) == []
