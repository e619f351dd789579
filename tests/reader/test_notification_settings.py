"""Settings → Notifications: saving the webhook and the test button delivering to it."""
import re
import socket

import pytest

from bench.server import Server
from tests.conftest import PASSWORD
from tests.reader.webhook_target import Target
from tests.support.forms import post_form


@pytest.mark.browser
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_it_sends_a_test_notification_to_an_allowed_webhook(data_dir, library_dir, size, request):
    context = request.getfixturevalue(size)
    target = Target()
    srv = Server(data_dir, library_dir, env={"WEBHOOK_ALLOW": "127.0.0.1"}).start()
    try:
        admin = srv.client().signup("admin")
        context.add_cookies([{"name": "sid", "value": admin.cookies["sid"], "url": srv.url}])
        page = context.new_page()
        page.goto(srv.url + "/settings/user/notifications/")
        page.fill("input[name=webhook]", target.url + "/topic")
        page.select_option("select[name=webhookFormat]", "gotify")
        page.click("text=Save")
        assert page.locator(".messages").inner_text() == "Notification settings saved."
        page.click("text=Send a test notification")
        # The answer waits for the delivery: the target has it by the time the page says so.
        assert page.locator(".messages").inner_text() == "Test notification delivered: 127.0.0.1 answered HTTP 200 OK."
        method, path, headers, body = target.requests[0]
        assert (method, path) == ("POST", "/topic")
        assert b"a test notification" in body and b'"priority"' in body
    finally:
        srv.stop()
        target.close()


def test_it_refuses_a_webhook_that_is_not_http(server, admin):
    assert admin.post("/api/settings", {"webhook": "gopher://x"})[0] == 400


def _test_result(server, client, url):
    assert client.post("/api/settings", {"webhook": url})[0] == 200
    status, headers, _ = post_form(client, "/settings/user/notifications/", {"action": "test"})
    assert status == 302
    return client.get(headers["Location"])[2].decode()


@pytest.fixture
def allowed_server(data_dir, library_dir):
    from tests.support.app import AppServer

    srv = AppServer(data_dir, library_dir, env={"WEBHOOK_ALLOW": "127.0.0.1"}).start()
    yield srv
    srv.stop()


def test_it_says_in_words_why_a_test_was_not_delivered(server, admin):
    page = _test_result(server, admin, "http://no-such-host.invalid/topic")
    assert "The test notification was not delivered: no-such-host.invalid cannot be resolved" in page
    assert "on its way" not in page
    page = _test_result(server, admin, "http://127.0.0.1:9/topic")
    assert "not delivered: 127.0.0.1 resolves to 127.0.0.1, which is not a public address" in page


def test_it_reports_the_status_a_refusing_webhook_answered_and_a_timeout(allowed_server):
    admin = allowed_server.client().signup("admin", PASSWORD)
    failing = Target(respond=lambda handler: (503, {}))
    silent = socket.create_server(("127.0.0.1", 0))  # listens, never answers
    try:
        page = _test_result(allowed_server, admin, failing.url + "/topic")
        assert "The test notification was not delivered: 127.0.0.1 answered HTTP 503 Service Unavailable." in page
        page = _test_result(allowed_server, admin, f"http://127.0.0.1:{silent.getsockname()[1]}/topic")
        assert "The test notification was not delivered: " in page and "timed out" in page, page
    finally:
        failing.close()
        silent.close()


@pytest.mark.parametrize("url, host", [("http://127.0.0.1:8080/topic", "127.0.0.1"),
                                       ("http://192.168.1.10/message", "192.168.1.10"),
                                       ("http://[::1]/x", "::1"), ("http://localhost/x", "localhost"),
                                       ("http://ntfy.lan/topic", "ntfy.lan"), ("http://gotify/x", "gotify")])
def test_it_warns_at_save_that_a_loopback_or_lan_webhook_will_be_refused(server, admin, url, host):
    """It said "saved", and only "Send a test" showed that deliveries were refused."""
    status, _, _ = post_form(admin, "/settings/user/notifications/", {"webhook": url, "webhookFormat": "ntfy"})
    assert status == 302 and admin.get("/api/me")[2]["settings"]["webhook"] == url  # saved all the same
    html = admin.get("/settings/user/notifications/")[2].decode()
    assert re.search(rf'<li class="warning">Notification settings saved, but {re.escape(host)} is (not a public '
                     r'address|a name on this machine or its local network): deliveries to it are refused unless '
                     r"the server&#x27;s WEBHOOK_ALLOW lists it.</li>", html), html


def test_it_saves_a_public_or_allowed_webhook_without_a_warning(server, admin, settings):
    settings.WEBHOOK_ALLOW = ["ntfy.lan"]
    for url in ("https://ntfy.sh/my-topic", "http://ntfy.lan/topic"):
        post_form(admin, "/settings/user/notifications/", {"webhook": url, "webhookFormat": "ntfy"})
        html = admin.get("/settings/user/notifications/")[2].decode()
        assert '<li class="success">Notification settings saved.</li>' in html, url
