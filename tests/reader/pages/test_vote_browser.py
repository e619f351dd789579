"""Votes never re-sort the versions under the pointer: the list keeps its order while the mouse is
on it (re-ranked when it leaves) or, on a touch screen, for 2 s after the last vote, so the next
click lands on the row that was there."""
import pytest
from playwright.sync_api import expect

from tests.support.pages import fresh_reader, sign_in

pytestmark = pytest.mark.browser
DEX, OFFICIAL = "c0002 Roots [MangaDex]", "c0002 Roots [Official]"


def _open(context, demo_site):
    page = sign_in(context, demo_site, fresh_reader(demo_site), path="/manga/Moon%20Garden/")
    versions = page.locator('.chapter[data-c="1/2"] .version')
    order = [versions.nth(i).get_attribute("data-v") for i in range(versions.count())]
    return page, versions, order


def _up(page, name):
    return page.locator(f'.version[data-v="{name}"] button.up')


def test_it_keeps_the_order_while_the_mouse_is_on_the_list(demo_site, desktop):
    desktop.clock.install()  # time runs as usual; run_for() below fires the timers due at once
    page, versions, order = _open(desktop, demo_site)
    second = order[1]
    _up(page, second).click()
    expect(_up(page, second)).to_have_attribute("aria-pressed", "true")
    page.clock.run_for(10_000)  # any re-rank on a timer (the touch screen's is 2 s) would have run now
    assert [versions.nth(i).get_attribute("data-v") for i in range(2)] == order[:2]  # not moved under the pointer
    versions.first.locator("button.up").click()  # the row that was first is the one voted for
    expect(_up(page, order[0])).to_have_attribute("aria-pressed", "true")
    expect(_up(page, second)).to_have_attribute("aria-pressed", "true")
    _up(page, order[0]).click()  # withdrawn again: the second version now has more votes
    expect(_up(page, order[0])).to_have_attribute("aria-pressed", "false")
    assert versions.first.get_attribute("data-v") == order[0]
    page.mouse.move(1, 1)
    expect(versions.first).to_have_attribute("data-v", second)


def test_it_keeps_the_order_for_a_moment_after_a_tap(demo_site, phone):
    page, versions, order = _open(phone, demo_site)
    second = order[1]
    _up(page, second).tap()
    expect(_up(page, second)).to_have_attribute("aria-pressed", "true")
    assert versions.first.get_attribute("data-v") == order[0]
    versions.first.locator("button.up").tap()
    expect(_up(page, order[0])).to_have_attribute("aria-pressed", "true")
    expect(_up(page, second)).to_have_attribute("aria-pressed", "true")


def test_it_still_reaches_every_vote_from_the_keyboard(demo_site, desktop):
    page, versions, order = _open(desktop, demo_site)
    _up(page, order[1]).focus()
    page.keyboard.press("Enter")
    expect(_up(page, order[1])).to_have_attribute("aria-pressed", "true")
    expect(_up(page, order[1])).to_be_focused()  # focus follows the version when it moves
    expect(versions.first).to_have_attribute("data-v", order[1], timeout=5000)
    expect(_up(page, order[1])).to_be_focused()
