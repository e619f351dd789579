"""The theme setting (docs/using.md, "Settings"): dark, light or following the system, set by the
server on <html> so no page is drawn in the wrong colours first; the reader stays dark."""
import os
import re

import pytest

from tests.reader.conftest import new_user

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("DOCS_SCREENSHOTS")  # a folder: docs/img/library-light-phone.png are taken from this test
DARK, LIGHT = "rgb(21, 22, 26)", "rgb(246, 246, 243)"
BACKGROUND = "getComputedStyle(document.body).backgroundColor"


def themed(client, path="/"):
    status, _, body = client.get(path)
    assert status == 200
    return re.search(rb'<html lang="en" dir="ltr" data-theme="(\w+)">', body)[1].decode()


def open_page(context, server, client, path):
    context.add_cookies([{"name": "sid", "value": client.cookies["sid"], "url": server.url}])
    page = context.new_page()
    page.goto(server.url + path)
    return page


def test_it_serves_each_page_in_the_users_theme_and_the_reader_in_dark(demo_server):
    assert themed(demo_server.client(), "/login/") == "dark"  # no account: the default
    client = new_user(demo_server)
    assert themed(client) == "dark"
    assert client.post("/api/settings", {"theme": "light"})[0] == 200
    assert themed(client) == "light" and themed(client, "/settings/user/reading/") == "light"
    assert themed(client, "/read/Moon%20Garden/1/1/") == "dark"
    status, _, data = client.post("/api/settings", {"theme": "sepia"})
    assert status == 400 and "theme must be one of dark, light, system" in data["error"]


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_it_draws_the_light_theme_from_the_first_paint(demo_server, request, size):
    client = new_user(demo_server, theme="light")
    context = request.getfixturevalue(size)
    colours = []
    # The first frame the browser can draw: before any script has run.
    context.add_init_script(script="document.addEventListener('DOMContentLoaded', () => { window.mcFirst = "
                                   "getComputedStyle(document.body).backgroundColor; });")
    page = open_page(context, demo_server, client, "/")
    colours.append(page.evaluate("window.mcFirst"))
    colours.append(page.evaluate(BACKGROUND))
    assert colours == [LIGHT, LIGHT]
    fg = page.evaluate("getComputedStyle(document.querySelector('.tile .title')).color")
    assert fg == "rgb(28, 30, 35)"
    if SHOTS and size == "phone":
        page.locator(".tile img").first.wait_for()
        page.screenshot(path=os.path.join(SHOTS, f"library-light-{size}.png"))
    page.goto(demo_server.url + "/read/Moon%20Garden/1/1/")
    assert page.evaluate(BACKGROUND) != LIGHT  # the reader stays dark


@pytest.mark.parametrize("scheme, colour", [("light", LIGHT), ("dark", DARK)])
def test_it_follows_the_system_when_asked(demo_server, browser, scheme, colour):
    client = new_user(demo_server, theme="system")
    context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme=scheme)
    try:
        page = open_page(context, demo_server, client, "/")
        assert page.evaluate(BACKGROUND) == colour
        page.emulate_media(color_scheme="dark" if scheme == "light" else "light")  # the system changes its mind
        assert page.evaluate(BACKGROUND) == (DARK if scheme == "light" else LIGHT)
    finally:
        context.close()


def test_it_saves_the_theme_in_settings_reading(demo_server, desktop):
    client = new_user(demo_server)
    page = open_page(desktop, demo_server, client, "/settings/user/reading/")
    assert page.locator("select[name=theme]").input_value() == "dark"
    page.select_option("select[name=theme]", "light")
    page.click("text=Save")
    assert page.locator(".messages").inner_text() == "Reading preferences saved."
    assert page.evaluate(BACKGROUND) == LIGHT
    assert client.get("/api/me")[2]["settings"]["theme"] == "light"
