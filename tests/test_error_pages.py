"""Every error status of a page gets the styled error page with a way back, never an empty body
the browser would replace with its own (mangacircus/middleware.py ErrorPageMiddleware)."""
import pytest

from tests.support.pages import wait_for_library


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


def test_it_answers_an_address_over_8_kb_with_the_styled_414(server, admin):
    status, _, html = admin.get("/?q=" + "x" * 8200)
    assert status == 414 and b"<h1>414</h1>" in html and b"longer than 8 KB" in html and b"Back to the library" in html
    status, _, data = admin.get("/api/library?q=" + "x" * 8200)
    assert status == 414 and "longer than 8 KB" in data["error"]


@pytest.mark.process
def test_a_real_server_takes_a_5_kb_address_and_answers_a_longer_one_itself(real_server):
    """gunicorn answered any request line over 4 KB with its bare "Request Line is too large"."""
    client = real_server.client().signup("admin", "correct horse")
    wait_for_library(client, 2)  # an empty library says so instead of "No manga match"
    status, _, html = client.get("/?q=" + "x" * 5000)
    assert status == 200 and "No manga match “".encode() + b"x" * 200 in html  # the search, cut at 200
    status, _, data = client.get("/api/library?q=" + "x" * 5000)
    assert status == 400 and "q" in data["error"], data  # the app's own answer, not gunicorn's
    status, headers, html = client.get("/?q=" + "x" * 9000)
    assert status == 414 and headers["Content-Type"].startswith("text/html") and b"<h1>414</h1>" in html
