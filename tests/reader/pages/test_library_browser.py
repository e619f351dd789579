"""The library and manga pages in a real browser, at desktop and phone size, on the demo library."""
import re

import pytest
from playwright.sync_api import expect

from tests.support.pages import add_notes_for, fresh_reader, sign_in

NOTE = {"id": "b1", "t": 1_790_000_000_000, "m": "Moon Garden", "c": "1/2", "text": "Moon Garden · Ch. 2: Roots",
        "read": False}


pytestmark = pytest.mark.browser  # the context fixture asks for desktop or phone by name


@pytest.fixture(params=["desktop", "phone"])
def context(request):
    return request.getfixturevalue(request.param)


@pytest.fixture
def user(demo_site):
    return fresh_reader(demo_site)


NOTES = [NOTE, {**NOTE, "id": "b2", "c": "1/3", "text": "Moon Garden · Ch. 3"}]


@pytest.fixture(scope="module")
def noted_users(demo_site):
    """Fresh users with NOTES, one for the bell test at each size, all written in one restart of
    the server (each restart is a new gunicorn and a rescan of the demo)."""
    names = [fresh_reader(demo_site) for _ in range(2)]
    add_notes_for(demo_site, {name: NOTES for name in names})
    return iter(names)


def test_it_filters_sorts_and_keeps_both_in_the_address(demo_site, user, context):
    page = sign_in(context, demo_site, user)
    tiles = page.locator("#grid .tile .title")
    expect(tiles).to_have_count(6)
    page.fill("input[name=q]", "moon")
    expect(tiles).to_have_text(["Moon Garden"])
    expect(page).to_have_url(re.compile(r"\?q=moon$"))
    page.fill("input[name=q]", "")
    expect(tiles).to_have_count(6)
    page.select_option("select[name=sort]", "added")
    expect(page).to_have_url(re.compile(r"\?sort=added$"))
    expect(tiles.first).to_have_text("Clockwork Fox")  # the newest folder of the demo
    page.reload()
    expect(page.locator("select[name=sort]")).to_have_value("added")
    expect(tiles.first).to_have_text("Clockwork Fox")


def test_it_opens_a_manga_votes_follows_marks_read_and_moves_through_history(demo_site, user, context):
    page = sign_in(context, demo_site, user)
    page.fill("input[name=q]", "moon")
    expect(page.locator("#grid .tile")).to_have_count(1)
    page.click("#grid .tile a")
    expect(page.locator("h1")).to_have_text("Moon Garden")
    expect(page.locator("#continue")).to_have_text("Start reading: Ch. 1: Seeds")

    versions = page.locator('.chapter[data-c="1/2"] .version')
    dex = page.locator('.version[data-v="c0002 Roots [MangaDex]"]')
    before = int(dex.locator(".score").inner_text())  # votes are shared by everyone on this server
    dex.locator("button.up").click()
    expect(dex.locator(".score")).to_have_text(str(before + 1))
    expect(dex.locator("button.up")).to_have_attribute("aria-pressed", "true")
    page.mouse.move(1, 1)  # re-ranked once the pointer has left the list (tests/reader/pages/test_vote_browser.py)
    expect(versions.first).to_have_attribute("data-v", "c0002 Roots [MangaDex]")  # outranks priority 10

    page.click("#follow")
    expect(page.locator("#follow")).to_have_text("Following")
    chapter = page.locator('.chapter[data-c="1/1"]')
    chapter.locator(".toggle-read").click()
    expect(chapter).to_have_class(re.compile(r"\bread\b"))
    expect(page.locator("#continue")).to_have_text("Continue: Ch. 2: Roots")
    expect(page.locator("#read-count")).to_have_text("1 of 8 read")

    page.reload()  # everything above was saved
    expect(page.locator("#follow")).to_have_attribute("aria-pressed", "true")
    expect(page.locator('.chapter[data-c="1/2"] .version').first).to_have_attribute("data-v", "c0002 Roots [MangaDex]")
    expect(page.locator("#continue")).to_have_attribute("href", "/read/Moon%20Garden/1/2/")

    page.go_back()
    expect(page).to_have_url(re.compile(r"/\?q=moon$"))
    expect(page.locator("input[name=q]")).to_have_value("moon")
    expect(page.locator(".continue .resume")).to_have_count(0)  # hidden while filtering
    page.go_forward()
    expect(page.locator("h1")).to_have_text("Moon Garden")


def test_it_opens_settings_through_a_deep_link_and_comes_back(demo_site, user, context):
    page = sign_in(context, demo_site, user, path="/settings/user/reading/")
    expect(page.locator("h1")).to_have_text("Reading")
    page.click(".topnav .nav-library")  # the brand gives its room to this link on a phone
    expect(page.locator("#grid .tile")).to_have_count(6)
    page.go_back()
    expect(page).to_have_url(re.compile(r"/settings/user/reading/$"))
    page.go_forward()
    expect(page.locator("#grid .tile")).to_have_count(6)


def test_it_shows_notifications_in_the_bell_and_marks_them_read(demo_site, noted_users, context):
    page = sign_in(context, demo_site, next(noted_users))
    bell = page.locator(".bell")
    expect(bell.locator(".badge")).to_have_text("2")
    bell.click()
    panel = page.locator(".bell-panel")
    expect(panel.locator(".note.unread")).to_have_count(2)
    panel.locator(".mark-all").click()
    expect(bell.locator(".badge")).to_be_hidden()
    expect(panel.locator(".note.unread")).to_have_count(0)
    page.keyboard.press("Escape")
    expect(panel).to_have_count(0)
    bell.click()
    page.locator(".bell-panel .note a", has_text="Ch. 3").click()
    expect(page).to_have_url(re.compile(r"/read/Moon%20Garden/1/3/$"))
