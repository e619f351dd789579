"""Under a sub-path (SCRIPT_NAME=/mc behind a proxy): every link stays inside it, and the web app
manifest makes "Add to home screen" open the app at /mc/."""
import re
import time
from urllib.parse import urljoin

import pytest
from playwright.sync_api import expect

from tests.conftest import PASSWORD, make_server
from tests.reader.conftest import seed_thumbs, stop_server


@pytest.fixture
def sub_server(request, tmp_path, demo_library):
    """The demo library under /mc: in process, or a real server for the browser test."""
    seed_thumbs(tmp_path / "sub-data", demo_library)
    server = make_server(request, tmp_path / "sub-data", demo_library, env={"SCRIPT_NAME": "/mc"})
    server.start(wait=False)
    client = server.client()
    deadline = time.monotonic() + 20
    while True:
        try:
            if client.get("/mc/api/auth")[0] == 200:
                break
        except OSError:
            pass
        assert time.monotonic() < deadline, server.log.read_text()
        time.sleep(0.1)
    assert client.post("/mc/api/signup", {"name": "admin", "password": PASSWORD})[0] == 200
    while client.get("/mc/api/library")[2]["count"] != 6:
        assert time.monotonic() < deadline + 20
        time.sleep(0.1)
    server.admin = client
    yield server
    stop_server(server)


def _links(html):
    return re.findall(r'(?:href|src)="([^"]*)"', html)


def test_it_keeps_every_link_of_the_pages_under_the_sub_path(sub_server):
    for path in ("/mc/", "/mc/manga/Moon%20Garden/", "/mc/notifications/", "/mc/settings/user/reading/"):
        status, _, body = sub_server.admin.get(path)
        assert status == 200, path
        outside = [link for link in _links(body.decode()) if not link.startswith(("/mc/", "?", "#"))]
        assert outside == [], path


def test_it_serves_a_manifest_that_starts_the_app_at_the_sub_path(sub_server):
    html = sub_server.admin.get("/mc/")[2].decode()
    href = re.search(r'<link rel="manifest" href="([^"]+)"', html).group(1)
    status, headers, body = sub_server.admin.get(href)
    assert status == 200 and headers["Content-Type"] == "application/manifest+json"
    manifest = body  # the client parses JSON bodies
    assert manifest["display"] == "standalone" and manifest["name"]
    base = "http://x" + href
    assert urljoin(base, manifest["start_url"]) == "http://x/mc/"
    assert urljoin(base, manifest["scope"]) == "http://x/mc/"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert sub_server.admin.get(urljoin(base, icon["src"])[len("http://x"):])[0] == 200, icon


def test_it_is_installable_and_browses_under_the_sub_path(sub_server, phone):
    phone.add_cookies([{"name": "sid", "value": sub_server.admin.cookies["sid"], "url": sub_server.url}])
    page = phone.new_page()
    page.goto(sub_server.url + "/mc/")
    cdp = phone.new_cdp_session(page)
    app = cdp.send("Page.getAppManifest")
    assert app["errors"] == [] and app["manifest"]["startUrl"] == sub_server.url + "/mc/"
    errors = {e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]}
    assert errors <= {"in-incognito"}  # test browsers are always incognito
    page.fill("input[name=q]", "clock")
    expect(page.locator("#grid .tile")).to_have_count(1)
    expect(page).to_have_url(sub_server.url + "/mc/?q=clock")
    page.click("#grid .tile a")
    expect(page).to_have_url(sub_server.url + "/mc/manga/Clockwork%20Fox/")
    page.wait_for_load_state()  # the URL changes before the page's script binds the Follow button
    page.click("#follow")
    expect(page.locator("#follow")).to_have_text("Following")
    page.click(".bell")
    expect(page.locator(".bell-panel")).to_contain_text("Nothing yet")


def test_it_loads_the_app_shell_offline_under_the_sub_path(sub_server, desktop):
    """The service worker at /mc/sw.js serves /mc/ and nothing outside it (docs/offline.md)."""
    desktop.add_cookies([{"name": "sid", "value": sub_server.admin.cookies["sid"], "url": sub_server.url}])
    page = desktop.new_page()
    page.goto(sub_server.url + "/mc/")
    deadline = time.monotonic() + 10
    while not page.evaluate("!!navigator.serviceWorker.controller"):
        assert time.monotonic() < deadline, "the service worker never took the page"
        time.sleep(0.05)
    assert page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.scope)") == sub_server.url + "/mc/"
    page.reload()  # through the worker: the copy an offline visit shows
    desktop.set_offline(True)
    page.reload()
    page.wait_for_selector(".offline-banner")
    expect(page.locator("#grid .tile").first).to_be_visible()
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgba(0, 0, 0, 0)"  # the CSS, kept
    page.goto(sub_server.url + "/mc/notifications/")  # never visited: the offline page
    expect(page.locator("h1")).to_have_text("You are offline")
    desktop.set_offline(False)
