"""Every error status of a page gets the styled error page with a way back, never an empty body
the browser would replace with its own (mangacircus/middleware.py ErrorPageMiddleware)."""
import pytest


def test_it_shows_the_styled_page_for_a_get_on_a_post_only_page(server, admin, reader_user):
    status, headers, html = admin.get("/settings/admin/users/reader/")
    assert status == 405 and headers["Allow"] == "POST"
    assert b"<h1>405</h1>" in html and b"only takes a form" in html and b"Back to the library" in html
    status, _, html = admin.get("/logout/")
    assert status == 405 and b"Back to the library" in html


def test_it_leaves_the_api_answers_as_json(server, admin):
    status, headers, _ = admin.get("/api/logout")
    assert status == 405 and "text/html" not in headers.get("Content-Type", "")


@pytest.mark.browser
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_it_shows_the_error_page_in_a_browser_with_a_way_back(server, admin, reader_user, size, request):
    context = request.getfixturevalue(size)
    context.add_cookies([{"name": "sid", "value": admin.cookies["sid"], "url": server.url}])
    page = context.new_page()
    response = page.goto(server.url + "/settings/admin/users/reader/")
    assert response.status == 405
    assert page.locator("main h1").inner_text() == "405"
    page.click("text=Back to the library")
    page.wait_for_url(server.url + "/")


def test_it_shows_the_styled_page_for_a_form_without_its_csrf_token(server, admin):
    status, _, html = admin.request("POST", "/settings/user/profile/", raw=b"old=x&new=y&new2=y",
                                    headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 403
    assert b"<h1>403</h1>" in html and b"reload the page" in html and b"Back to the library" in html
