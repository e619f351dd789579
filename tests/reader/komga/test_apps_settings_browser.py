"""Settings → User → Apps in a browser: the addresses, QR codes that load, a key shown once, and
nothing wider than a phone's screen."""
import os

import pytest

from tests.support.pages import sign_in, wait_for_library

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("APPS_SCREENSHOTS")  # a folder: the docs' screenshots are taken from this test


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_apps_page_shows_the_addresses_qr_codes_and_a_new_key_once(server, admin, request, size):
    wait_for_library(admin, 2)
    context = request.getfixturevalue(size)
    page = sign_in(context, server, "admin", path="/settings/user/apps/")
    assert page.locator("code", has_text=f"{server.url}/komga").first.is_visible()
    assert page.locator("code", has_text=f"{server.url}/opds/").first.is_visible()
    codes = page.locator(".qr img")
    assert codes.count() == 2
    assert all(page.evaluate("(img) => img.complete && img.naturalWidth > 0", codes.nth(i).element_handle())
               for i in range(2))
    page.fill("input[name=label]", "Mihon on my phone")
    page.click("text=Make a key")
    key = page.locator("#new-key").inner_text()
    assert key.startswith("mc_")
    assert page.locator("td", has_text="Mihon on my phone").is_visible()
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"settings-apps-{size}.png"), full_page=True)
    page.reload()
    assert page.locator("#new-key").count() == 0
