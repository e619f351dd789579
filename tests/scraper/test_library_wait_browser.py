"""The admin's Scraper screen while the scraper's LIBRARY is read-only, with the reader and a real
runscraper running: the queue says what it waits for, folder imports are off with the reason, and
the reader's proxy answers an import with a 409 and that reason."""
from bench.server import Server
from tests.conftest import PASSWORD
from tests.scraper.conftest import TOKEN
from tests.scraper.support import ScraperProcess
from tests.support.readonly import read_only


def test_the_scraper_screen_says_it_waits_for_a_read_only_library(tmp_path, data_dir, library_dir, site,
                                                                   scraper_port, desktop):
    imports = tmp_path / "import"
    (imports / "Sky Pirates").mkdir(parents=True)
    env = {"SCRAPER_URL": f"http://127.0.0.1:{scraper_port}", "SCRAPER_TOKEN": TOKEN}
    reason = f"the library at {library_dir} is read-only"
    with read_only(library_dir):
        reader = Server(data_dir, library_dir, env=env).start()
        daemon = ScraperProcess(data_dir, library_dir, site.url, TOKEN, env={"SCRAPER_IMPORT_ROOTS": str(imports)},
                                port=scraper_port).start()
        try:
            admin = reader.client().signup("admin", PASSWORD)
            desktop.add_cookies([{"name": "sid", "value": admin.cookies["sid"], "url": reader.url}])
            page = desktop.new_page()
            page.goto(reader.url + "/settings/admin/scraper/queue/")
            page.wait_for_selector(f"#sc-library:has-text('Waiting for the library: {reason}')")
            assert page.locator(".sc-status strong").inner_text() == "waiting-library"

            page.goto(reader.url + "/settings/admin/scraper/sources/")
            page.wait_for_selector(f"#sc-import-blocked:has-text('Folder imports are off: {reason}')")
            assert page.locator("button:has-text('Import')").is_disabled()

            status, _, answer = admin.post("/api/admin/scraper/series", {"source": "folder",
                                                                          "id": str(imports / "Sky Pirates")})
            assert status == 409 and answer["error"].startswith(f"folder imports are off: {reason}")
        finally:
            daemon.stop()
            reader.stop()
