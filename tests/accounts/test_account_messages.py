"""What the account forms say when they refuse: a wrong current password, a closed sign-up."""
import pytest

from tests.conftest import PASSWORD
from tests.support.forms import post_form


def test_it_says_the_current_password_is_wrong_in_the_api_and_the_form(server, admin):
    status, _, data = admin.post("/api/password", {"old": "not my password", "new": "a new password"})
    assert (status, data) == (401, {"error": "the current password is wrong"})
    status, headers, _ = post_form(admin, "/settings/user/profile/",
                                   {"old": "not my password", "new": "a new password", "new2": "a new password"})
    assert status == 302
    html = admin.get(headers["Location"])[2]
    assert b"the current password is wrong" in html and b"wrong name or password" not in html


def test_it_says_that_signup_is_closed_and_who_creates_accounts(server, admin, guest):
    status, _, html = guest.get("/signup/")
    assert status == 200
    assert b"Sign-up is closed" in html and b"admin" in html and b'name="password2"' not in html


@pytest.mark.browser
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_it_shows_both_messages_in_a_browser(server, admin, size, request):
    context = request.getfixturevalue(size)
    page = context.new_page()
    page.goto(server.url + "/signup/")
    assert page.locator("h1").inner_text() == "Sign-up is closed"
    assert "ask one of them for an account" in page.locator("main").inner_text()
    page.click("text=Sign in")
    page.fill("input[name=name]", "admin")
    page.fill("input[name=password]", PASSWORD)
    page.click("button.primary")
    page.wait_for_url(server.url + "/")
    page.goto(server.url + "/settings/user/profile/")
    page.fill("input[name=old]", "not my password")
    page.fill("input[name=new]", "a new password")
    page.fill("input[name=new2]", "a new password")
    page.click("button:has-text('Change password')")
    page.wait_for_selector(".messages")
    assert page.locator(".messages").inner_text() == "the current password is wrong"
