"""In a real browser, at desktop and phone size: the manga page's tag, people and status links open
the filtered library; chips and facets; the Recently added row; marking many chapters; the
Recently read page."""
import re

import pytest
from playwright.sync_api import expect

from tests.support.pages import fresh_reader, sign_in

pytestmark = pytest.mark.browser


@pytest.fixture(params=["desktop", "phone"])
def context(request):
    return request.getfixturevalue(request.param)


@pytest.fixture
def user(demo_site):
    return fresh_reader(demo_site)


def no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_tags_and_people_open_the_filtered_library_with_chips_and_facets(demo_site, user, context, request):
    page = sign_in(context, demo_site, user, path="/manga/Moon%20Garden/")
    page.locator(".tags a", has_text="Slice of Life").click()
    expect(page).to_have_url(re.compile(r"/\?q=tag%3A%22Slice\+of\+Life%22$"))
    expect(page.locator("#grid .tile .title")).to_have_text(["Moon Garden"])
    expect(page.locator("#chips .chip")).to_have_text(["Tag: Slice of Life × (remove)"])
    expect(page.locator("input[name=q]")).to_have_value('tag:"Slice of Life"')
    no_sideways_scroll(page)

    facets, grid = page.locator("#facets"), page.locator("#grid")
    if "desktop" in request.fixturenames:  # a sidebar beside the grid on a wide screen
        assert facets.bounding_box()["x"] + facets.bounding_box()["width"] <= grid.bounding_box()["x"]
    else:  # a strip above it on a phone
        assert facets.bounding_box()["y"] + facets.bounding_box()["height"] <= grid.bounding_box()["y"]

    page.locator("#chips .chip").click()  # removing the only filter shows everything again
    expect(page.locator("#grid .tile")).to_have_count(6)
    expect(page.locator("#chips")).to_be_hidden()
    expect(page.locator(".recent .resume")).to_have_count(6)
    expect(page.locator(".recent .resume .title").first).to_have_text("Clockwork Fox")

    page.locator("#facets .chip", has_text="Completed").click()
    expect(page.locator("#grid .tile")).to_have_count(2)
    expect(page.locator(".recent")).to_have_count(0)  # only on the unfiltered library
    page.fill("input[name=q]", "status:completed author:reyes")  # typed: filtered as you type
    expect(page.locator("#grid .tile .title")).to_have_text(["Iron Harbor"])
    expect(page.locator("#chips .chip")).to_have_count(2)
    expect(page.locator("#facets .chip.on")).to_have_text([re.compile("^Completed")])
    page.goto(demo_site.url + "/manga/Iron%20Harbor/")
    page.locator(".facts a.person", has_text="Milo Brandt").click()
    expect(page.locator("#grid .tile .title")).to_have_text(["Iron Harbor"])


def test_it_marks_previous_and_all_chapters_on_the_manga_page(demo_site, user, context):
    page = sign_in(context, demo_site, user, path="/manga/Moon%20Garden/")
    expect(page.locator('.chapter[data-c="1/1"] .chapter-meta')).to_contain_text("11 pages · added 20")
    page.locator('.chapter[data-c="2/4"] .mark-previous').click()
    expect(page.locator(".chapter.read")).to_have_count(4)
    expect(page.locator("#read-count")).to_have_text("4 of 8 read")
    expect(page.locator("#continue")).to_have_text("Continue: Ch. 4: Leaves")
    page.reload()
    expect(page.locator(".chapter.read")).to_have_count(4)
    page.click(".mark-all[data-read=true]")
    expect(page.locator(".chapter.read")).to_have_count(8)
    expect(page.locator("#continue")).to_have_text("All caught up")
    page.click(".mark-all[data-read=false]")
    expect(page.locator(".chapter.read")).to_have_count(0)
    expect(page.locator('.chapter[data-c="1/1"] .toggle-read')).to_have_text("Mark read")
    no_sideways_scroll(page)


def test_the_recently_read_page_shows_where_the_user_stopped_and_resumes_there(demo_site, user, context):
    client = demo_site.client().login(user)
    pages = len(client.get("/api/chapter?m=Moon%20Garden&c=1/3")[2]["pages"])
    body = {"m": "Moon Garden", "c": "1/3", "v": "c0003 Branches", "p": 6, "n": pages, "done": False, "shift": []}
    assert client.post("/api/progress", body)[0] == 200
    assert client.post("/api/read", {"m": "Long Scroll", "c": "0/1"})[0] == 200
    page = sign_in(context, demo_site, user)
    page.locator('a[href="/history/"]:visible').first.click()  # the top bar's, or on a phone the library's
    expect(page.locator("h1")).to_contain_text("Recently read")
    items = page.locator(".history-item")
    expect(items).to_have_count(2)
    expect(items.first.locator(".title")).to_have_text("Long Scroll")
    expect(items.nth(1).locator(".where")).to_have_text(f"Ch. 3: Branches · stopped at p. 7/{pages}")
    no_sideways_scroll(page)
    items.nth(1).locator(".where").click()
    expect(page).to_have_url(re.compile(r"/read/Moon%20Garden/1/3/"))
    expect(page.locator(".rd-count")).to_contain_text(f"/ {pages}")
    assert page.evaluate("mcReader.page") == 6


LONG_TERM = "averyveryverylongsearchterm" * 5  # one word, 135 characters

X_IN_REACH = """() => { const x = document.querySelector('#chips .chip-x').getBoundingClientRect();
  return {x: x.width > 0 && x.left >= 0 && x.right <= document.documentElement.clientWidth,
          page: document.documentElement.scrollWidth <= document.documentElement.clientWidth}; }"""


def test_a_long_search_term_is_cut_with_its_remove_button_in_reach(demo_site, user, context):
    """The chip of a long term ran off the screen, its × out of reach, and the page scrolled sideways."""
    page = sign_in(context, demo_site, user, path="/?q=" + LONG_TERM)
    assert page.evaluate(X_IN_REACH) == {"x": True, "page": True}  # as the server draws it
    assert page.locator("#chips .chip").get_attribute("title") == LONG_TERM
    page.fill("input[name=q]", LONG_TERM + "x")  # as the page script redraws it
    expect(page.locator("#chips .chip")).to_have_attribute("title", LONG_TERM + "x")
    assert page.evaluate(X_IN_REACH) == {"x": True, "page": True}
    page.locator("#chips .chip-x").click()
    expect(page.locator("#chips")).to_be_hidden()
