"""Collections, want to read and ratings in the browser: a collection made from the library grid's
"Select several", reordered with the keyboard; stars on manga pages sort the library."""
import pytest
from playwright.sync_api import expect

from tests.support.pages import fresh_reader, sign_in

pytestmark = pytest.mark.browser


def _tile_titles(page):
    return page.locator("#grid li.tile .title").all_text_contents()


def test_it_makes_a_collection_from_the_grid_and_reorders_it_with_the_keyboard(demo_site, desktop):
    page = sign_in(desktop, demo_site, fresh_reader(demo_site))
    page.click("#select-several")
    expect(page.locator("#select-bar")).to_be_visible()
    page.locator("li.tile", has_text="Moon Garden").locator(".title").click()  # a click picks, it does not open
    page.get_by_label("Select Iron Harbor").check()
    expect(page.locator("#selected-count")).to_have_text("2 selected")
    assert page.url.endswith("/")
    page.fill("#select-new-name", "Household picks")
    page.click("#select-add")
    expect(page.locator(".toast")).to_have_text("2 added to Household picks.")

    page.goto(demo_site.url + "/collections/")
    page.get_by_role("link", name="Household picks").click()
    members = page.locator("#members li .title")
    expect(members).to_have_text(["Moon Garden", "Iron Harbor"])  # in the grid's order of picking
    page.get_by_role("button", name="Move Moon Garden", exact=True).focus()
    page.keyboard.press("ArrowDown")
    expect(members).to_have_text(["Iron Harbor", "Moon Garden"])
    expect(page.get_by_role("button", name="Move Moon Garden", exact=True)).to_be_focused()
    page.wait_for_load_state("networkidle")
    page.reload()
    expect(members).to_have_text(["Iron Harbor", "Moon Garden"])  # stored


def test_stars_on_manga_pages_sort_the_library(demo_site, desktop):
    page = sign_in(desktop, demo_site, fresh_reader(demo_site))
    for path, stars in (("/manga/Iron%20Harbor/", 5), ("/manga/Moon%20Garden/", 3)):
        page.goto(demo_site.url + path)
        page.get_by_role("button", name=f"{stars} star" + ("s" if stars > 1 else "")).click()
        expect(page.locator("#rating-sum")).to_contain_text(f"{stars}")
        expect(page.locator('#rating .star[aria-pressed="true"]')).to_have_count(stars)
    page.click("#want")
    expect(page.locator("#want")).to_have_text("On your want-to-read list")
    page.goto(demo_site.url + "/")
    page.select_option("select[name=sort]", "myrating")
    expect(page.locator("#grid li.tile .title").first).to_have_text("Iron Harbor")
    assert _tile_titles(page)[:2] == ["Iron Harbor", "Moon Garden"]
    page.reload()  # the server draws the same order
    assert _tile_titles(page)[:2] == ["Iron Harbor", "Moon Garden"]
    page.goto(demo_site.url + "/collections/")
    expect(page.locator(".want .title")).to_have_text(["Moon Garden"])
