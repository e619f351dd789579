"""Every page passes axe-core with no serious or critical violation, at desktop and phone sizes,
for a visitor, a user and an admin, and for the admin in the light theme and following a light system
(docs/accessibility.md); and every page of a user in Japanese at desktop size and in Arabic, right to
left, at phone size, with <html lang dir> as axe expects them.

The pages are the GET rows of the authorisation matrix (tests/test_authz_matrix.py) that answer
HTML for that persona: every route must have a row there, so a page added later is checked here
without touching this file. The reader page is checked with its bars shown, and the bell's
dropdown open on the library page."""
import shutil
import time

import pytest

from bench.server import Server, free_port
from tests.conftest import PASSWORD
from tests.support import axe
from tests.support.pages import add_notes, wait_for_library
from tests.test_authz_matrix import MATRIX, NOTE, PERSONAS

pytestmark = pytest.mark.browser
SIZES = {"desktop": {"viewport": {"width": 1280, "height": 800}},
         "phone": {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True,
                   "has_touch": True}}
# Images, downloads and the reading apps' API (JSON, Atom) are no pages for a browser.
NOT_PAGES = ("/api/", "/lib/", "/lib-thumb/", "/thumb/", "/static/", "/download/", "/komga/", "/opds/", "/sw.js",
             "/jsi18n/")


def pages_for(persona):
    """(path, status) of each HTML page the matrix lets `persona` GET (redirects left out). Error
    pages are one template (templates/error.html) whatever the route: the first of each status."""
    column = PERSONAS.index(persona)
    seen = []
    for _, method, path, _, *statuses in MATRIX:
        status = statuses[column]
        if method == "GET" and not path.startswith(NOT_PAGES) and status != 302 and (path, status) not in seen:
            if status < 400 or all(s != status for _, s in seen):
                seen.append((path, status))
    return seen


@pytest.fixture(scope="module")
def site(tmp_path_factory, library_template):
    """A real server on the tests' tiny library with the matrix's personas and a notification."""
    library = tmp_path_factory.mktemp("a11y") / "library"
    shutil.copytree(library_template, library, symlinks=True)
    data = tmp_path_factory.mktemp("a11y-data")
    srv = Server(data, library, env={"SCRAPER_URL": f"http://127.0.0.1:{free_port()}"}).start()
    admin = srv.client().signup("admin", PASSWORD)
    for name in ("user", "other"):
        assert admin.post("/api/admin/user", {"name": name, "password": PASSWORD})[0] == 200
    wait_for_library(admin, 2)
    add_notes(srv, "user", [NOTE])
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def script():
    return axe.source()


def check(page, url):
    """Open `url` and return its violations, with the states a pointer would reach shown too."""
    page.goto(url)
    page.wait_for_load_state("load")
    found = axe.violations(page)
    if page.locator("#reader").count():  # the reader: once built, with its bars on
        deadline = time.monotonic() + 10
        while not page.evaluate("!!(window.mcReader && mcReader.boxes.length)") and time.monotonic() < deadline:
            time.sleep(0.05)  # polled: wait_for_function needs eval, which the CSP forbids
        page.evaluate("MCR.bars.show()")
        found += axe.violations(page)
    if page.locator(".bell").count() and page.locator(".bell").is_visible():
        page.locator(".bell").click()
        page.locator(".bell-panel .bell-head").wait_for()  # the panel with the notifications it fetched
        found += axe.violations(page)
    return found


# The light theme and "system" on a system set to light, checked on every page of the admin (who
# sees every page a user does and the admin's own) right after its dark check: the same page with
# <html data-theme> changed as the server sets it, and the colour rules run again (the rest of what
# axe checks does not depend on the colours). "system" takes the same palette through
# prefers-color-scheme: one size checks that path. That the server sets each user's theme on every
# page, and the reader stays dark, is tests/reader/test_theme.py's.
THEMES = {"desktop": (("light", "light"), ("system", "light")), "phone": (("light", "light"),)}
# "system" reaches the light palette through one media query for every page alike: the first pages
# of the admin's list (the library, the sign-in pages, two error pages, a manga page) check that path.
SYSTEM_PAGES = 6


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("persona", ["anonymous", "user", "admin"])
def test_it_has_no_serious_or_critical_violation_on_any_page(site, browser, script, size, persona):
    assert_clean(site, browser, script, size, persona, themes=THEMES[size] if persona == "admin" else ())


@pytest.mark.parametrize("language, size", [("ja", "desktop"), ("ar", "phone")])
def test_a_users_pages_have_none_in_japanese_and_in_arabic_either(site, browser, script, language, size):
    name = f"reader-{language}"
    admin = site.client().login("admin", PASSWORD)
    assert admin.post("/api/admin/user", {"name": name, "password": PASSWORD})[0] == 200
    assert site.client().login(name, PASSWORD).post("/api/settings", {"language": language})[0] == 200
    assert_clean(site, browser, script, size, "user", sign_in_as=name, language=language)


def in_theme(page, theme, scheme):
    page.emulate_media(color_scheme=scheme)
    page.evaluate("(theme) => { document.documentElement.dataset.theme = theme; }", theme)


def assert_clean(site, browser, script, size, persona, themes=(), sign_in_as=None, language="en"):
    """Every page of `persona`'s, signed in as them (or as `sign_in_as`, with the same rights)."""
    context = browser.new_context(**SIZES[size], color_scheme="dark")
    context.add_init_script(script=script)
    try:
        if persona != "anonymous":
            client = site.client().login(sign_in_as or persona, PASSWORD)
            context.add_cookies([{"name": "sid", "value": client.cookies["sid"], "url": site.url}])
        page = context.new_page()
        failures = {}
        checked = 0
        for n, (path, status) in enumerate(pages_for(persona)):
            found = check(page, site.url + path)
            assert page.evaluate("document.documentElement.lang") == language, path
            if persona != "anonymous" and not page.locator("#reader").count():  # the reader stays dark
                assert page.evaluate("document.documentElement.dataset.theme") == "dark", path
                for theme, scheme in themes:
                    if theme == "system" and n >= SYSTEM_PAGES:
                        continue
                    in_theme(page, theme, scheme)
                    coloured = axe.violations(page, only=axe.COLOUR_RULES)
                    found += [(f"{rule} [{theme}]", *rest) for rule, *rest in coloured]
                in_theme(page, "dark", "dark")
            checked += 1
            for rule, impact, targets, text in found:
                failures.setdefault(f"{path} ({status})", []).append(f"{rule} ({impact}): {text} at {targets}")
        assert checked >= (2 if persona == "anonymous" else 10)
        assert failures == {}
    finally:
        context.close()
