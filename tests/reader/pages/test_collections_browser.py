"""Collections, want to read and ratings in the browser: a collection made from the library grid's
"Select several", reordered with the keyboard and by drag, its cover chosen; stars on manga pages
sort the library; axe-core on the pages and controls."""
import re

import pytest
from playwright.sync_api import expect

from tests.support import axe
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


def test_the_collection_pages_and_controls_pass_axe(demo_site, browser):
    name = fresh_reader(demo_site)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.add_init_script(script=axe.source())
    try:
        page = sign_in(context, demo_site, name)
        client = demo_site.client().login(name)
        made = client.post("/api/collections", {"name": "Checked", "summary": "For axe",
                                                "members": ["Moon Garden", "Iron Harbor"]})[2]
        client.post("/api/want", {"m": "Moon Garden", "on": True})
        found = []
        for path in ("/collections/", f"/collections/{made['id']}/", "/manga/Moon%20Garden/"):
            page.goto(demo_site.url + path)
            page.wait_for_load_state("load")
            found += [(path, *v) for v in axe.violations(page)]
        page.goto(demo_site.url + "/")
        page.click("#select-several")
        expect(page.locator(".pick").first).to_be_visible()
        found += [("/ selecting", *v) for v in axe.violations(page)]
        assert found == []
    finally:
        context.close()


def test_a_manga_dragged_onto_another_takes_its_place(demo_site, desktop):
    name = fresh_reader(demo_site)
    client = demo_site.client().login(name)
    made = client.post("/api/collections", {"name": "Dragged", "members": ["Moon Garden", "Iron Harbor",
                                                                           "Long Scroll"]})[2]
    page = sign_in(desktop, demo_site, name, path=f"/collections/{made['id']}/")
    members = page.locator("#members li .title")
    expect(members).to_have_text(["Moon Garden", "Iron Harbor", "Long Scroll"])
    page.get_by_role("button", name="Move Long Scroll", exact=True).drag_to(page.locator("#members li").first)
    expect(members).to_have_text(["Long Scroll", "Moon Garden", "Iron Harbor"])
    page.wait_for_load_state("networkidle")
    stored = client.get(f"/api/collections/{made['id']}")[2]
    assert [m["name"] for m in stored["members"]] == ["Long Scroll", "Moon Garden", "Iron Harbor"]
    assert "Long%20Scroll" in stored["cover"]  # the first member's
    page.get_by_role("button", name="Use as cover: Iron Harbor").click()
    expect(page.locator(".toast")).to_have_text("The collection now shows this cover.")
    page.goto(demo_site.url + "/collections/")
    cover = page.locator("#collections li", has_text="Dragged").locator("img")
    expect(cover).to_have_attribute("src", re.compile("/thumb/Iron%20Harbor/"))


def test_a_manga_page_makes_a_collection_and_adds_to_one(demo_site, desktop):
    page = sign_in(desktop, demo_site, fresh_reader(demo_site), path="/manga/Moon%20Garden/")
    page.fill("#new-collection-name", "From the page")  # with no collection yet, the name box is shown
    page.click("#add-to-collection")
    expect(page.locator("#in-collections a")).to_have_text(["From the page"])
    expect(page.locator("#add-collection")).to_have_value(re.compile("^c"))
    expect(page.locator("#new-collection-name")).to_be_hidden()
    page.goto(demo_site.url + "/manga/Iron%20Harbor/")
    page.click("#add-to-collection")  # the collection is the one picked now
    expect(page.locator(".toast")).to_have_text("Added to From the page.")
    page.get_by_role("link", name="From the page").click()
    expect(page.locator("#members li .title")).to_have_text(["Moon Garden", "Iron Harbor"])


def test_on_a_phone_collections_are_reached_from_the_library_and_the_page_never_scrolls_sideways(demo_site, phone):
    page = sign_in(phone, demo_site, fresh_reader(demo_site))
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    expect(page.locator(".topnav .nav-collections")).to_be_hidden()  # no room in the top bar
    page.get_by_role("link", name="Collections", exact=True).click()
    expect(page.locator("h1")).to_contain_text("Collections")


def test_a_collection_page_adds_a_manga_found_by_its_title(demo_site, desktop):
    name = fresh_reader(demo_site)
    made = demo_site.client().login(name).post("/api/collections", {"name": "Growing", "members": ["Moon Garden"]})[2]
    page = sign_in(desktop, demo_site, name, path=f"/collections/{made['id']}/")
    page.fill("#add-manga", "iron")
    expect(page.locator("#add-manga-found option")).to_have_count(1)
    assert page.locator("#add-manga-found option").get_attribute("value") == "Iron Harbor"
    page.fill("#add-manga", "Iron Harbor")  # as picking the suggestion does
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator("#members li .title")).to_have_text(["Moon Garden", "Iron Harbor"])
    page.fill("#add-manga", "Nothing by this name")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator(".toast")).to_have_text("no manga named Nothing by this name")
