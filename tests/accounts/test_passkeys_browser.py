"""Passkeys in a real browser, with Chromium's virtual authenticator (DevTools protocol): added in
Settings → Profile, then signing in alone and after the password. WebAuthn wants a domain as the
relying party, so the page is opened at localhost rather than 127.0.0.1."""
import re

from tests.conftest import PASSWORD

HOME = re.compile(r"http://localhost:\d+/$")


def sign_in_with_password(page, url):
    page.goto(url + "/login/")
    page.fill("input[name=name]", "reader")
    page.fill("input[name=password]", PASSWORD)
    page.click("form button.primary")


def test_it_adds_a_passkey_and_signs_in_with_it_alone_and_after_the_password(server, admin, reader_user, desktop):
    url = server.url.replace("127.0.0.1", "localhost")
    page = desktop.new_page()
    cdp = desktop.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True}})

    sign_in_with_password(page, url)
    page.wait_for_url(HOME)
    page.goto(url + "/settings/user/profile/")
    page.fill("input[name=passkey-name]", "Test laptop")
    page.click("text=Add a passkey")
    page.wait_for_selector(".passkey-list li")
    assert "Test laptop" in page.locator(".passkey-list").inner_text()
    assert "Passkey added" in page.locator(".messages").inner_text()
    page.click("text=Sign out")
    page.wait_for_url(re.compile(r"/login/$"))

    page.click("text=Sign in with a passkey")  # no name, no password
    page.wait_for_url(HOME)
    assert page.locator(".who").inner_text() == "reader"
    page.click("text=Sign out")
    page.wait_for_url(re.compile(r"/login/$"))

    sign_in_with_password(page, url)
    page.wait_for_selector("text=Use a passkey")
    assert page.locator("input[name=code]").count() == 0  # no code app: the passkey is the second factor
    page.click("text=Use a passkey")
    page.wait_for_url(HOME)
    assert page.locator(".who").inner_text() == "reader"
