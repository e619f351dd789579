"""The whole path in a real browser: a new user signs in, finds a manga and follows it; a new
chapter folder is renamed into the library, a scan runs, and the notification appears in the bell."""
import os
import re
import shutil

import pytest
from playwright.sync_api import expect

from bench.server import Server
from tests.conftest import PASSWORD, make_page
from tests.support.pages import sign_in, wait_for_library

pytestmark = pytest.mark.browser  # the context fixture asks for desktop or phone by name


@pytest.fixture(params=["desktop", "phone"])
def context(request):
    return request.getfixturevalue(request.param)


@pytest.fixture
def writable_demo(tmp_path, demo_library):
    library = tmp_path / "library"
    shutil.copytree(demo_library, library)
    server = Server(tmp_path / "data", library).start()
    admin = server.client().signup("admin", PASSWORD)
    wait_for_library(admin, 6)
    yield server, admin, library
    server.stop()


def publish(library, manga, folder):
    """Stage a complete chapter folder and rename it into place, as docs/library.md ("Adding chapters") asks."""
    staging = library / ".staging" / folder
    for n in (1, 2, 3):
        make_page(staging / f"{n:03d}.png", size=(90, 135))
    os.rename(staging, library / manga / folder)


def test_it_notifies_a_follower_of_a_new_chapter(writable_demo, context):
    server, admin, library = writable_demo
    assert admin.post("/api/admin/user", {"name": "newbie", "password": PASSWORD})[0] == 200
    page = sign_in(context, server, "newbie")
    expect(page.locator(".bell .badge")).to_be_hidden()
    page.fill("input[name=q]", "clockwork")
    expect(page.locator("#grid .tile")).to_have_count(1)
    page.click("#grid .tile a")
    expect(page.locator(".chapter")).to_have_count(6)
    page.click("#follow")
    expect(page.locator("#follow")).to_have_text("Following")

    publish(library, "Clockwork Fox", "c0007 Night Shift")
    status, _, report = admin.post("/api/admin/rescan", {})
    assert status == 200 and report["changed"]["changed"] == ["Clockwork Fox"], report

    page.reload()
    expect(page.locator(".chapter")).to_have_count(7)
    fox = admin.get("/api/library?q=clockwork")[2]["manga"][0]
    assert fox["chapters"] == 7 and fox["unread"] == 7  # the library's cached summary followed the scan
    expect(page.locator(".bell .badge")).to_have_text("1")
    page.click(".bell")
    note = page.locator(".bell-panel .note.unread")
    expect(note).to_have_text(re.compile(r"^Clockwork Fox · Ch\. 7: Night Shift"))
    note.locator("a").click()
    expect(page).to_have_url(re.compile(r"/read/Clockwork%20Fox/0/7/$"))
    assert admin.get("/api/notifications")[2]["unread"] == 0  # the admin follows nothing
    newbie = server.client().login("newbie")
    assert newbie.get("/api/notifications")[2]["unread"] == 0  # opening it read it
