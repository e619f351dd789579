"""Settings → Notifications: saving the webhook and the test button delivering to it."""
import time

from bench.server import Server
from tests.reader.webhook_target import Target


def test_it_sends_a_test_notification_to_an_allowed_webhook(data_dir, library_dir, desktop):
    target = Target()
    srv = Server(data_dir, library_dir, env={"WEBHOOK_ALLOW": "127.0.0.1"}).start()
    try:
        admin = srv.client().signup("admin")
        desktop.add_cookies([{"name": "sid", "value": admin.cookies["sid"], "url": srv.url}])
        page = desktop.new_page()
        page.goto(srv.url + "/settings/user/notifications/")
        page.fill("input[name=webhook]", target.url + "/topic")
        page.select_option("select[name=webhookFormat]", "gotify")
        page.click("text=Save")
        assert page.locator(".messages").inner_text() == "Notification settings saved."
        page.click("text=Send a test notification")
        assert "on its way" in page.locator(".messages").inner_text()
        deadline = time.monotonic() + 5
        while not target.requests and time.monotonic() < deadline:
            time.sleep(0.05)
        method, path, headers, body = target.requests[0]
        assert (method, path) == ("POST", "/topic")
        assert b"a test notification" in body and b'"priority"' in body
    finally:
        srv.stop()
        target.close()


def test_it_refuses_a_webhook_that_is_not_http(server, admin):
    assert admin.post("/api/settings", {"webhook": "gopher://x"})[0] == 400
