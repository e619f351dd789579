"""Issue 28, item 7 in a browser, with the real `serve` and `runscraper` and the fake MangaDex (its
API and auth server, bench/fakedex.py): the admin connects their MangaDex account, imports the
follows list and follows two of three series; a user connects their own account, imports their
read markers, and sees the chapters they had read on MangaDex marked read."""
import time
import urllib.parse

import pytest

from bench.fakedex import FakeDex, Group
from bench.server import Server
from tests.conftest import PASSWORD
from tests.scraper.conftest import TOKEN
from tests.scraper.support import ScraperProcess
from tests.support import axe

pytestmark = pytest.mark.browser


def _connect(page, url, client, username, password):
    page.goto(url + "/settings/user/mangadex/")
    page.wait_for_selector("#md-connect:not([hidden])")
    page.fill("input[name=clientId]", client[0])
    page.fill("input[name=clientSecret]", client[1])
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button:has-text('Connect MangaDex account')")
    page.wait_for_selector(f"#md-status:has-text('Connected as {username}')")
    assert page.input_value("input[name=password]") == ""


def _chapters(client, manga):
    status, _, data = client.get("/api/manga?m=" + urllib.parse.quote(manga))
    return [c for b in data["books"] for c in b["chapters"]] if status == 200 else []


def test_admin_follows_two_series_from_mangadex_and_a_user_sees_what_they_read_there(
        data_dir, library_dir, scraper_port, desktop):
    dex = FakeDex().start()
    fans = Group("Fans")
    moon, star, other = (dex.add_manga(t) for t in ("Moon Tale", "Star Tale", "Other Tale"))
    chapters = {m: [dex.add_chapter(m, str(n), None, f"Part {n}", (fans,), pages=1) for n in (1, 2, 3)]
                for m in (moon, star, other)}
    admin_client = dex.add_account("md-admin", "admin pass", "client-admin", "secret-admin")
    user_client = dex.add_account("md-reader", "reader pass", "client-reader", "secret-reader")
    dex.follow("md-admin", moon, star, other)
    dex.mark_read("md-reader", chapters[moon][0], chapters[moon][1], chapters[star][0], chapters[other][0])

    env = {"SCRAPER_URL": f"http://127.0.0.1:{scraper_port}", "SCRAPER_TOKEN": TOKEN}
    reader = Server(data_dir, library_dir, env=env).start()
    daemon = ScraperProcess(data_dir, library_dir, "", TOKEN, port=scraper_port,
                            env={"MANGADEX_API_URL": dex.url, "MANGADEX_AUTH_URL": dex.url}).start()
    try:
        admin = reader.client().signup("admin", PASSWORD)
        assert admin.post("/api/admin/user", {"name": "reader", "password": PASSWORD})[0] == 200
        user = reader.client().login("reader", PASSWORD)
        errors = []
        desktop.add_cookies([{"name": "sid", "value": admin.cookies["sid"], "url": reader.url}])
        desktop.add_init_script(script=axe.source())
        page = desktop.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))

        page.goto(reader.url + "/settings/admin/scraper/sources/")  # where the admin finds the MangaDex page
        page.click("#sc-md-account a")
        page.wait_for_url(reader.url + "/settings/user/mangadex/")
        _connect(page, reader.url, admin_client, "md-admin", "admin pass")
        page.click("button:has-text('Show my follows')")
        page.wait_for_selector(f"tr[data-id='{other}']")
        page.check(f"tr[data-id='{moon}'] input[type=checkbox]")
        page.check(f"tr[data-id='{star}'] input[type=checkbox]")
        page.click("button:has-text('Follow selected')")
        page.wait_for_selector(".toast:has-text('Following 2 series')")
        assert axe.violations(page) == []  # the connected account, the follows list and its checkboxes
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (len(_chapters(admin, "Moon Tale")) == 3
                                                    and len(_chapters(admin, "Star Tale")) == 3):
            time.sleep(0.3)
        assert len(_chapters(admin, "Moon Tale")) == 3 and len(_chapters(admin, "Star Tale")) == 3
        assert _chapters(admin, "Other Tale") == []
        series = daemon.call("GET", "/series")[1]["series"]
        assert sorted((s["manga"], s["auto"]) for s in series) == [("Moon Tale", True), ("Star Tale", True)]

        desktop.clear_cookies()
        desktop.add_cookies([{"name": "sid", "value": user.cookies["sid"], "url": reader.url}])
        page.goto(reader.url + "/settings/user/mangadex/")
        assert page.locator("#md-follows-card").count() == 0  # following series is for admins
        _connect(page, reader.url, user_client, "md-reader", "reader pass")
        page.click("button:has-text('Import read markers')")
        page.wait_for_selector("#md-imported:has-text('3 chapters read on MangaDex: 3 marked read here, "
                               "0 already read.')")

        page.goto(reader.url + "/manga/Moon%20Tale/")
        page.wait_for_selector(".chapter")
        assert page.locator(".chapter.read .label").all_inner_texts() == ["Ch. 1", "Ch. 2"]
        page.goto(reader.url + "/manga/Star%20Tale/")
        assert page.locator(".chapter.read .label").all_inner_texts() == ["Ch. 1"]
        assert [c["read"] for c in _chapters(admin, "Moon Tale")] == [False, False, False]  # the admin's own: untouched

        # The password went to the auth server once per connection, and is in no file of DATA.
        assert [g for g in dex.grants if g[0] == "password"] == [("password", "md-admin"), ("password", "md-reader")]
        stored = (data_dir / "scraper" / "mangadex-accounts.json").read_text()
        assert "admin pass" not in stored and "reader pass" not in stored
        assert errors == []
    finally:
        daemon.stop()
        reader.stop()
        dex.stop()
