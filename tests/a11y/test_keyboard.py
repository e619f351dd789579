"""What a pointer does, the keyboard does too: every visible control of every page is reached with
Tab (the pages of tests/a11y/test_axe.py, so new pages are covered), and the reader's pointer
actions (turning pages, the bars, zoom, panning a zoomed page, the mode buttons) have keys."""
import time

import pytest

from tests.a11y.test_axe import SIZES, pages_for, site  # noqa: F401 (the module's server fixture)
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser

# A radio group is one Tab stop (its checked radio, else its first); arrow keys move inside it.
CONTROLS = """() => {
  const radios = (e) => [...document.querySelectorAll('input[type=radio]')]
    .filter(r => r.name === e.name && r.form === e.form);
  const tabStop = (e) => e.type !== 'radio' || e.checked || (!radios(e).some(r => r.checked) && radios(e)[0] === e);
  const all = [...document.querySelectorAll('a[href], button, select, input:not([type=hidden]), textarea, [tabindex]')];
  return all.filter(e => !e.disabled && e.tabIndex >= 0 && tabStop(e) && e.checkVisibility({visibilityProperty: true})
                         && e.getBoundingClientRect().width > 0)
            .map((e, i) => { e.dataset.kb = e.dataset.kb || String(i); return e.dataset.kb; });
}"""


# Where each Tab left the focus, noted as the key comes up (the focus has moved on its keydown), so
# the presses need no round trip each to read it.
NOTE_FOCUS = """() => {
  document.activeElement && document.activeElement.blur();
  window.kbSeen = [];
  if (!window.kbNoting) {
    window.kbNoting = true;
    addEventListener('keyup', (e) => {
      if (e.key === 'Tab') kbSeen.push(document.activeElement && document.activeElement.dataset.kb);
    }, true);
  }
}"""


def reached_by_tab(page, wanted):
    """The controls Tab reaches, pressing it until all of `wanted` are seen, or 2 × as many + 10 times.
    Each press reaches one control at most, so while n are missing the next n presses go without a
    look at the focus: the presses stop where looking after each one would stop them."""
    page.evaluate(NOTE_FOCUS)
    limit, pressed, seen = len(wanted) * 2 + 10, 0, set()
    while pressed < limit and not set(wanted) <= seen:
        for _ in range(min(len(set(wanted) - seen), limit - pressed)):
            page.keyboard.press("Tab")
            pressed += 1
        seen = set(page.evaluate("kbSeen"))
    return seen


def open_signed_in(browser, site, persona):  # noqa: F811
    context = browser.new_context(**SIZES["desktop"])
    client = site.client().login(persona, PASSWORD)
    context.add_cookies([{"name": "sid", "value": client.cookies["sid"], "url": site.url}])
    return context


@pytest.mark.parametrize("persona", ["user", "admin"])
def test_it_reaches_every_control_of_every_page_with_tab(site, browser, persona):  # noqa: F811
    context = open_signed_in(browser, site, persona)
    try:
        page = context.new_page()
        missed = {}
        for path, _ in pages_for(persona):
            page.goto(site.url + path)
            if page.locator("#reader").count():
                page.wait_for_selector(".rd-page")
                page.evaluate("MCR.bars.show()")
            wanted = page.evaluate(CONTROLS)
            left = set(wanted) - reached_by_tab(page, wanted)
            if left:
                missed[path] = page.evaluate("(ids) => ids.map(id => document.querySelector(`[data-kb='${id}']`)"
                                             ".outerHTML.slice(0, 80))", sorted(left))
        assert missed == {}
    finally:
        context.close()


def test_it_does_with_keys_what_the_reader_does_with_a_pointer(site, browser):  # noqa: F811
    context = open_signed_in(browser, site, "user")
    try:
        page = context.new_page()
        page.goto(site.url + "/read/Moon%20Garden/1/2/")
        page.wait_for_selector(".rd-page")
        state = lambda expression: page.evaluate(expression)  # noqa: E731
        page.keyboard.press("m")
        bars = state("mcReader.bars")
        page.keyboard.press("m")
        assert state("mcReader.bars") != bars  # the bars, as a click in the middle
        page.keyboard.press("ArrowLeft")  # right to left: the left side is next
        assert state("mcReader.page") == 1
        for _ in range(20):
            page.keyboard.press("+")
        assert state("mcReader.zoom") == 2
        before = state("document.querySelector('.rd-scroller').scrollTop")
        page.keyboard.press("Shift+ArrowDown")  # a drag, from the keyboard (the page is twice the screen's height)
        deadline = time.monotonic() + 5
        while state("document.querySelector('.rd-scroller').scrollTop") <= before:
            assert time.monotonic() < deadline, "Shift+ArrowDown did not pan the page"
            time.sleep(0.02)
        assert state("mcReader.page") == 1  # panned, not turned
        page.keyboard.press("0")
        assert state("mcReader.zoom") == 1
        page.evaluate("MCR.bars.show()")
        page.locator("button:has-text('Book')").focus()
        page.keyboard.press("Enter")
        assert state("mcReader.mode") == "book"
    finally:
        context.close()
