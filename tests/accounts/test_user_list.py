"""Settings → Admin → Users as an operator list, in a real browser at desktop and phone sizes:
search and filters with counts at the side, bulk sign-out and delete with a confirmation step that
lists the names (never the admin's own account), a message after each action."""
import pytest
from playwright.sync_api import expect

from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser


@pytest.fixture(params=["desktop", "phone"])
def context(request):
    return request.getfixturevalue(request.param)


def expect_names(page, names):
    """The list shows exactly these names, waiting out the navigation a click has started."""
    expect(page.locator("table.list .user-name")).to_have_text(names)


def select_bob_and_carol(page):
    """Tick bob's box, and carol's through the label around it, which is a finger's size."""
    target = page.get_by_label("Select carol").locator("xpath=..").bounding_box()  # its label
    assert target["width"] >= 44 and target["height"] >= 44, target  # on a phone too
    page.get_by_label("Select bob", exact=True).check()
    page.locator("label.hit").filter(has=page.get_by_label("Select carol")).click()  # the label toggles it
    expect(page.get_by_label("Select carol")).to_be_checked()


def test_it_searches_filters_and_deletes_after_a_confirmation(server, admin, context):
    for name in ("ann", "bob", "bobby", "carol"):
        assert admin.post("/api/admin/user", {"name": name, "password": PASSWORD})[0] == 200
    assert admin.post("/api/admin/user/access", {"name": "bobby", "excludeTags": ["Horror"]})[0] == 200
    context.add_cookies([{"name": "sid", "value": admin.cookies["sid"], "url": server.url}])
    page = context.new_page()
    page.goto(server.url + "/settings/admin/users/")
    expect(page.get_by_label("Access")).to_contain_text("Restricted (1)")
    expect(page.get_by_label("Role")).to_contain_text("Not admins (4)")
    page.get_by_role("searchbox", name="Name").fill("BOB")
    page.get_by_role("button", name="Apply").click()
    expect_names(page, ["bob", "bobby"])
    page.get_by_label("Access").select_option("restricted")
    page.get_by_role("button", name="Apply").click()
    expect_names(page, ["bobby"])
    expect(page.locator("h1 .count")).to_have_text("1 shown · 5 in all")

    page.goto(server.url + "/settings/admin/users/?q=o")
    expect_names(page, ["bob", "bobby", "carol"])
    expect(page.get_by_label("Select admin")).to_have_count(0)  # the admin's own row has no box
    select_bob_and_carol(page)
    page.get_by_role("button", name="Delete selected…").click()
    expect(page.locator("h1")).to_have_text("Delete 2 users?")
    expect(page.get_by_role("listitem").filter(has_text="carol")).to_have_count(1)
    assert [i.get_attribute("value") for i in page.locator("input[name=names]").all()] == ["bob", "carol"]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.get_by_role("link", name="No, go back").click()
    expect_names(page, ["bob", "bobby", "carol"])  # nothing deleted, the search kept

    select_bob_and_carol(page)
    page.get_by_role("button", name="Delete selected…").click()
    page.get_by_role("button", name="Yes, delete 2").click()
    expect(page.locator(".messages")).to_contain_text("2 users deleted with their data: bob, carol.")
    expect_names(page, ["bobby"])
    assert "q=o" in page.url
    page.goto(server.url + "/settings/admin/users/")
    expect_names(page, ["admin", "ann", "bobby"])


def test_it_signs_users_out_everywhere_but_never_the_admin(server, admin, context):
    assert admin.post("/api/admin/user", {"name": "dana", "password": PASSWORD})[0] == 200
    dana = server.client().login("dana")
    assert dana.get("/api/me")[0] == 200
    context.add_cookies([{"name": "sid", "value": admin.cookies["sid"], "url": server.url}])
    page = context.new_page()
    page.goto(server.url + "/settings/admin/users/")
    page.get_by_label("Select dana").check()
    page.get_by_role("button", name="Sign out selected…").click()
    expect(page.locator("h1")).to_have_text("End the sessions of 1 user?")
    page.get_by_role("button", name="Yes, end the sessions of 1").click()
    expect(page.locator(".messages")).to_contain_text("1 user signed out everywhere: dana.")
    assert dana.get("/api/me")[0] == 401
    assert admin.get("/api/me")[0] == 200


def test_a_forged_request_for_the_admins_own_account_is_refused_by_the_rules(server, admin):
    from urllib.parse import urlencode

    from tests.support.forms import TOKEN

    token = TOKEN.search(admin.get("/settings/admin/users/")[2]).group(1).decode()
    body = urlencode([("csrfmiddlewaretoken", token), ("command", "delete"), ("names", "admin"), ("confirm", "yes")])
    status, _, _ = admin.request("POST", "/settings/admin/users/", raw=body.encode(),
                                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 302
    assert "admin: you cannot delete your own account" in admin.get("/settings/admin/users/")[2].decode()
    assert admin.get("/api/me")[0] == 200
    body = urlencode([("csrfmiddlewaretoken", token), ("command", "delete"), ("names", "nobody")])
    assert admin.request("POST", "/settings/admin/users/", raw=body.encode(),
                         headers={"Content-Type": "application/x-www-form-urlencoded"})[0] == 404
