"""The library grid's "Select several" marks the selected manga read or unread in one step, and the
tiles show it at once, at desktop and phone sizes (docs/library.md)."""
import pytest
from playwright.sync_api import expect

from tests.support.pages import fresh_reader, sign_in

pytestmark = pytest.mark.browser


def tile(page, title):
    return page.locator("#grid li.tile", has_text=title)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_it_marks_the_selected_manga_read_then_unread(demo_site, request, size):
    page = sign_in(request.getfixturevalue(size), demo_site, fresh_reader(demo_site))
    before = tile(page, "Long Scroll").locator(".unread-count").inner_text()
    page.click("#select-several")
    page.get_by_label("Select Moon Garden").check()
    page.get_by_label("Select Iron Harbor").check()
    page.click("#select-read")
    expect(page.locator(".toast")).to_contain_text("2 manga marked read (")
    for title in ("Moon Garden", "Iron Harbor"):
        expect(tile(page, title)).to_have_class("tile all-read")
        expect(tile(page, title).locator(".unread-count")).to_have_count(0)
        expect(tile(page, title).locator(".sub")).to_contain_text("all read")
        expect(page.get_by_label("Select " + title)).to_be_checked()  # still selected after the tiles came again
    expect(tile(page, "Long Scroll").locator(".unread-count")).to_have_text(before)  # not selected: untouched
    page.click("#select-unread")
    expect(page.locator(".toast").last).to_contain_text("2 manga marked unread")
    expect(tile(page, "Moon Garden").locator(".unread-count")).to_have_text("8")
    page.reload()
    expect(tile(page, "Moon Garden").locator(".unread-count")).to_have_text("8")  # stored
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_marking_with_nothing_selected_says_so(demo_site, desktop):
    page = sign_in(desktop, demo_site, fresh_reader(demo_site))
    page.click("#select-several")
    page.click("#select-read")
    expect(page.locator(".toast")).to_have_text("Select some manga first.")
