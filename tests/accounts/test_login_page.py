"""The server-rendered sign-in and first-run pages, in a real browser and over plain HTTP."""
import re

import pytest

from tests.conftest import PASSWORD


def test_it_sends_visitors_to_the_login_page_with_next(guest):
    status, headers, _ = guest.get("/?sort=title&q=a%20b")
    assert status == 302
    assert headers["Location"] == "/login/?next=/%3Fsort%3Dtitle%26q%3Da%2520b"


def test_it_creates_the_admin_on_first_run_in_a_browser(server, desktop):
    page = desktop.new_page()
    page.goto(server.url + "/")
    assert "/login/" in page.url
    assert page.locator("h1").inner_text() == "Welcome to MangaCircus"
    page.fill("input[name=name]", "admin")
    page.fill("input[name=password]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("button.primary")
    page.wait_for_url(server.url + "/")
    assert page.locator(".who").inner_text() == "admin"
    me = page.request.get(server.url + "/api/me").json()
    assert me["admin"] is True


def test_it_signs_in_and_follows_only_same_site_next(server, admin, desktop):
    page = desktop.new_page()
    page.goto(server.url + "/login/?next=//evil.example/")
    page.fill("input[name=name]", "admin")
    page.fill("input[name=password]", PASSWORD)
    page.click("button.primary")
    page.wait_for_url(re.compile(r"http://127\.0\.0\.1:\d+/$"))


def test_it_shows_an_error_for_a_wrong_password(server, admin, desktop):
    page = desktop.new_page()
    page.goto(server.url + "/login/")
    page.fill("input[name=name]", "admin")
    page.fill("input[name=password]", "not the password")
    page.click("button.primary")
    assert page.locator(".error").inner_text() == "wrong name or password"


def test_it_requires_the_csrf_token_on_the_login_form(server, admin, guest):
    status, _, _ = guest.request("POST", "/login/", raw=b"name=admin&password=correct+horse",
                                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 403
    assert "sid" not in guest.cookies


def test_it_signs_out_from_the_nav(server, admin, desktop):
    desktop.add_cookies([{"name": "sid", "value": admin.cookies["sid"], "url": server.url}])
    page = desktop.new_page()
    page.goto(server.url + "/")
    page.click("text=Sign out")
    page.wait_for_url(re.compile(r"/login/$"))
    assert admin.get("/api/me")[0] == 401


BRAND = """() => { const r = document.querySelector('.topbar .brand').getBoundingClientRect();
  return r.width > 0 && r.left >= 0 && r.right <= innerWidth; }"""


@pytest.mark.browser
def test_its_header_names_the_app_on_a_phone_before_and_after_the_first_account(server, phone):
    """On a 390 px phone the welcome (first account) and sign-in pages had an empty header: the
    brand is hidden there for the Library link, which only a signed-in header has."""
    page = phone.new_page()
    page.goto(server.url + "/login/")
    assert page.locator("h1").inner_text() != "Sign in" and page.evaluate(BRAND)  # the welcome form
    server.client().signup("admin", PASSWORD)
    page.goto(server.url + "/login/")
    assert page.locator("h1").inner_text() == "Sign in" and page.evaluate(BRAND)
    page.fill("input[name=name]", "admin")
    page.fill("input[name=password]", PASSWORD)
    page.click("button.primary")
    page.wait_for_url(server.url + "/")
    assert not page.evaluate(BRAND) and page.locator(".topnav .nav-library").is_visible()
