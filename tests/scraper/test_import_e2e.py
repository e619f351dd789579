"""End to end: an admin imports a folder of CBZ files from the admin screen, with the reader and a
real runscraper running, and reads the chapters a few seconds later."""
import io
import time
import urllib.parse
import zipfile

from PIL import Image

from bench.server import Server
from tests.conftest import PASSWORD
from tests.scraper.conftest import TOKEN
from tests.scraper.support import ScraperProcess


def _cbz(path, shade):
    with zipfile.ZipFile(path, "w") as zf:
        for n in range(1, 4):
            out = io.BytesIO()
            Image.new("RGB", (60, 90), (shade, 40 * n, 90)).save(out, "PNG")
            zf.writestr(f"{n:03d}.png", out.getvalue())


def test_it_imports_cbz_files_from_the_admin_screen_and_they_become_readable(
        tmp_path, data_dir, library_dir, site, scraper_port, desktop):
    imports = tmp_path / "import"
    (imports / "Sky Pirates").mkdir(parents=True)
    _cbz(imports / "Sky Pirates" / "Sky Pirates 1.cbz", 50)
    _cbz(imports / "Sky Pirates" / "Sky Pirates 2.cbz", 150)
    # The import roots are set on the daemon only, as docs/scraper.md lists them: the reader asks it.
    env = {"SCRAPER_URL": f"http://127.0.0.1:{scraper_port}", "SCRAPER_TOKEN": TOKEN}
    reader = Server(data_dir, library_dir, env=env).start()
    daemon = ScraperProcess(data_dir, library_dir, site.url, TOKEN, env={"SCRAPER_IMPORT_ROOTS": str(imports)},
                            port=scraper_port).start()
    try:
        admin = reader.client().signup("admin", PASSWORD)
        desktop.add_cookies([{"name": "sid", "value": admin.cookies["sid"], "url": reader.url}])
        page = desktop.new_page()
        page.goto(reader.url + "/settings/admin/scraper/sources/")
        page.wait_for_selector(f"text=Allowed under: {imports}")
        page.fill("input[name=path]", str(imports / "Sky Pirates"))
        page.click("button:has-text('Import')")
        page.wait_for_selector(".toast:has-text('Import queued')")
        queued = time.monotonic()

        manga = None
        while time.monotonic() - queued < 30:
            status, _, manga = admin.get("/api/manga?m=" + urllib.parse.quote("Sky Pirates"))
            if status == 200 and sum(len(b["chapters"]) for b in manga["books"]) == 2:
                break
            time.sleep(0.2)
        seconds = time.monotonic() - queued
        assert manga and sum(len(b["chapters"]) for b in manga["books"]) == 2, manga
        print(f"import queued → both chapters listed by /api/manga in {seconds:.1f} s")
        # Labelled with the folder's bracket, as in the library, not with the module's key.
        assert {v["source"] for b in manga["books"] for c in b["chapters"] for v in c["versions"]} == {"Import"}

        page.goto(reader.url + "/read/Sky%20Pirates/0/1/")
        page.wait_for_function("() => window.mcReader && window.mcReader.page === 0")
        page.wait_for_function(
            "() => [...document.querySelectorAll('.reader img')].some(i => i.complete && i.naturalWidth === 60)")
        assert not list(library_dir.glob(".staging/*/*"))
    finally:
        daemon.stop()
        reader.stop()
