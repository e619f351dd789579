"""The library, a manga page, the reader with its bars and Settings in Japanese and in Arabic (right to
left), at desktop and phone sizes: <html lang dir> right and no English of either catalog (the pages'
and the scripts') left on screen; the user's setting changes the language at once
(docs/translating.md)."""
import html
import re

import pytest

from tests.conftest import PASSWORD
from tests.support.pages import fresh_reader, sign_in
from tests.support.untranslated import EXCEPTIONS
from tests.test_translations import catalog

pytestmark = pytest.mark.browser
PAGES = ("/", "/manga/Moon%20Garden/", "/read/Moon%20Garden/1/2/", "/settings/user/profile/",
         "/settings/user/reading/")


def english_patterns():
    """Each msgid of the catalog as a pattern of the English it shows: its placeholders match any text,
    and it needs a word of four letters or more outside them. Names such as MangaCircus or CBZ, the
    same in every language, are left out (tests/support/untranslated.py EXCEPTIONS)."""
    patterns = []
    for msgid in {**catalog("ja")[0], **catalog("ja", "djangojs")[0]}:
        shown = html.unescape(msgid.replace("%%", "%"))
        fixed = re.split(r"%\(\w+\)s", shown)
        if shown.strip() in EXCEPTIONS or not any(re.search(r"[A-Za-z]{4}", part) for part in fixed):
            continue
        body = r"\S+".join(_spaced(part) for part in fixed)
        # not followed by a letter, nor by the rest of a file name (manga.json)
        patterns.append((msgid, re.compile(r"(?<![A-Za-z])" + body.replace(r"\ ", r"\s+") + r"(?![A-Za-z]|\.\w)")))
    return patterns


def _spaced(part):
    """A fixed part of a message as a pattern: its words, with the spaces around a placeholder kept
    ("%(count)s manga" is a number, a space and "manga", never "(manga" of "manga.json")."""
    words = re.escape(" ".join(part.split()))
    return (r"\s+" if part[:1].isspace() else "") + words + (r"\s+" if part[-1:].isspace() and words else "")


def english_left(page):
    # A manga's description is the library's text, in whatever language its folder wrote it.
    text = page.evaluate("(() => { const body = document.body.cloneNode(true);"
                         " body.querySelectorAll('.description').forEach((e) => e.remove());"
                         " document.documentElement.append(body); const text = body.innerText; body.remove();"
                         " return text; })()")
    return sorted(msgid for msgid, pattern in english_patterns() if pattern.search(text))


def html_lang(page):
    return page.evaluate("[document.documentElement.lang, document.documentElement.dir]")


@pytest.mark.parametrize("language, direction, size", [("ja", "ltr", "desktop"), ("ar", "rtl", "desktop"),
                                                     ("ja", "ltr", "phone"), ("ar", "rtl", "phone")])
def test_the_pages_and_the_reader_show_no_english_from_either_catalog(demo_site, request, language, direction, size):
    name = fresh_reader(demo_site)
    assert demo_site.client().login(name, PASSWORD).post("/api/settings", {"language": language})[0] == 200
    page = sign_in(request.getfixturevalue(size), demo_site, name)
    for path in PAGES:
        page.goto(demo_site.url + path)
        if path.startswith("/read/"):
            page.locator(".rd-bar.rd-top").wait_for(state="attached")  # the bars are built by the scripts
            page.evaluate("MCR.bars.show()")
        elif path.startswith("/manga/"):
            page.locator("button.keep").first.wait_for(state="attached")  # made once the kept copies are known
        else:
            page.wait_for_load_state("load")  # every script of the page has run
        assert html_lang(page) == [language, direction], path
        assert english_left(page) == [], path
        assert page.evaluate("typeof gettext === 'function' && typeof ngettext === 'function'"
                             " && typeof interpolate === 'function' && gettext('Mode') !== 'Mode'"), path
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), path


def test_the_browsers_language_is_used_until_the_user_picks_one_and_the_pick_shows_at_once(demo_site, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ja-JP")
    try:
        page = sign_in(context, demo_site, fresh_reader(demo_site))
        assert html_lang(page) == ["ja", "ltr"]
        assert page.locator("a.nav-library").inner_text() == "ライブラリ"
        page.goto(demo_site.url + "/settings/user/reading/")
        page.select_option("select[name=language]", "ar")
        page.click("#language-form button")
        page.wait_for_url(demo_site.url + "/settings/user/reading/")
        assert html_lang(page) == ["ar", "rtl"]
        assert page.locator("#language-form h2").inner_text() == "اللغة"
        page.goto(demo_site.url + "/")
        assert html_lang(page) == ["ar", "rtl"] and page.locator("a.nav-library").inner_text() == "المكتبة"
        page.goto(demo_site.url + "/settings/user/reading/")
        page.select_option("select[name=language]", "")
        page.click("#language-form button")
        page.wait_for_url(demo_site.url + "/settings/user/reading/")
        assert html_lang(page) == ["ja", "ltr"]  # automatic: the browser's Japanese again
    finally:
        context.close()
