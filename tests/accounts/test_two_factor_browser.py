"""Two-factor sign-in in a real browser: set up in Settings → Profile with the key the page shows,
then the sign-in page asks for the code after the password."""
import re
import time

import pyotp

from tests.conftest import PASSWORD


def test_it_sets_up_two_factor_in_settings_and_signs_in_with_a_code(server, admin, reader_user, desktop):
    page = desktop.new_page()
    page.goto(server.url + "/login/")
    page.fill("input[name=name]", "reader")
    page.fill("input[name=password]", PASSWORD)
    page.click("button.primary")
    page.wait_for_url(re.compile(r"/$"))
    page.goto(server.url + "/settings/user/profile/")
    page.click("text=Set up two-factor sign-in")
    assert page.locator(".two-factor img").get_attribute("src").startswith("data:image/svg+xml")
    secret = page.locator("#totp-secret").inner_text().replace(" ", "")
    page.fill(".two-factor input[name=code]", pyotp.TOTP(secret).now())
    page.click("text=Turn on")
    assert page.locator("#recovery-codes li").count() == 10
    assert "Two-factor sign-in is on" in page.locator(".messages").inner_text()
    page.click("text=Sign out")
    page.wait_for_url(re.compile(r"/login/$"))

    page.fill("input[name=name]", "reader")
    page.fill("input[name=password]", PASSWORD)
    page.click("button.primary")
    page.fill("input[name=code]", "000000" if pyotp.TOTP(secret).now() != "000000" else "111111")
    page.click("button.primary")
    assert "wrong code" in page.locator(".error").inner_text()
    # The code of the next 30 s: the one used to turn it on is spent.
    page.fill("input[name=code]", pyotp.TOTP(secret).at(time.time() + 30))
    page.click("button.primary")
    page.wait_for_url(re.compile(r"http://127\.0\.0\.1:\d+/$"))
    assert page.locator(".who").inner_text() == "reader"
