"""Restrictions in a real browser, at desktop and phone sizes: the admin sets them in Settings →
Users → Access, and the user's library, filters and pages follow."""
import re

import pytest
from playwright.sync_api import expect

from tests.conftest import PASSWORD
from tests.support.pages import fresh_reader, sign_in

pytestmark = pytest.mark.browser


@pytest.fixture(params=["desktop", "phone"])
def context(request):
    return request.getfixturevalue(request.param)


def test_an_admin_hides_a_tag_and_the_user_no_longer_finds_it(demo_site, context):
    name = fresh_reader(demo_site)
    admin = sign_in(context, demo_site, "admin", PASSWORD, path="/settings/admin/users/")
    admin.locator("tr", has_text=name).get_by_role("link", name="Access…").click()
    expect(admin.locator("h1")).to_have_text(f"Access of {name}")
    admin.get_by_label("Western comic").check()
    admin.get_by_role("button", name="Save").click()
    expect(admin.locator(".messages")).to_contain_text("now sees only what the restrictions allow")
    expect(admin.get_by_label("Western comic")).to_be_checked()
    assert admin.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    admin.close()

    page = sign_in(context, demo_site, name)
    expect(page.locator("#grid .tile")).to_have_count(5)
    expect(page.locator("#grid .tile", has_text="Iron Harbor")).to_have_count(0)
    expect(page.locator("#facets .chip", has_text="Western comic")).to_have_count(0)
    page.goto(demo_site.url + "/?q=author%3Areyes")
    expect(page.locator("#grid-empty")).to_be_visible()
    response = page.goto(demo_site.url + "/manga/Iron%20Harbor/")
    assert response.status == 404
    expect(page.locator("body")).to_contain_text("no manga named Iron Harbor")
    page.goto(demo_site.url + "/manga/Moon%20Garden/")
    expect(page.locator("h1")).to_have_text("Moon Garden")
    expect(page).to_have_url(re.compile("/manga/Moon%20Garden/$"))
