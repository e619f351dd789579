"""Web Push end to end (reader/webpush.py): subscribing through the API, a new chapter of a followed
manga reaching a push service on loopback, encrypted (RFC 8291) and signed (RFC 8292)."""
import stat
import time

import pytest

from reader import webpush
from tests.conftest import PASSWORD
from tests.library.conftest import publish
from tests.reader.push_endpoint import Browser, PushService
from tests.support.app import AppServer


@pytest.fixture
def allowed_server(data_dir, library_dir):
    srv = AppServer(data_dir, library_dir, env={"WEBHOOK_ALLOW": "127.0.0.1"}).start()
    yield srv
    srv.stop()


@pytest.fixture
def service():
    s = PushService()
    yield s
    s.close()


def _subscribe(client, endpoint):
    browser = Browser(endpoint)
    status, _, data = client.post("/api/push/subscribe",
                                  {"subscription": browser.subscription, "label": "Chrome on Linux"})
    assert status == 200, data
    return browser, data["device"]


def _rescan(admin):
    status, _, report = admin.post("/api/admin/rescan", {"full": True})
    assert status == 200, report


def test_it_pushes_a_new_chapter_of_a_followed_manga_and_drops_an_expired_subscription(
        allowed_server, library_dir, service):
    admin = allowed_server.client().signup("admin", PASSWORD)
    assert admin.post("/api/follow", {"m": "Moon Garden", "on": True})[0] == 200
    public_key = admin.get("/api/push")[2]["publicKey"]
    browser, device = _subscribe(admin, service.url + "/push/device-1")
    assert admin.get("/api/push")[2]["devices"] == [device]
    assert device["label"] == "Chrome on Linux" and device["service"] == "127.0.0.1"

    publish(library_dir / "Long Scroll" / "c0002 Next [Official]")  # not followed: nothing is pushed
    _rescan(admin)
    publish(library_dir / "Moon Garden" / "b01 Spring" / "c0003 Leaves")
    _rescan(admin)
    service.wait_for(1)
    [payload] = service.received(browser, public_key)
    assert payload == {"title": "New chapter", "body": "Moon Garden · Ch. 3: Leaves",
                       "url": "read/Moon%20Garden/1/3/", "tag": "mc:Moon Garden"}

    service.respond = lambda handler: (410, {})
    publish(library_dir / "Moon Garden" / "b01 Spring" / "c0004 Stems")
    _rescan(admin)
    service.wait_for(2)
    deadline = time.monotonic() + 5
    while admin.get("/api/push")[2]["devices"] and time.monotonic() < deadline:
        time.sleep(0.02)
    assert admin.get("/api/push")[2]["devices"] == []
    assert len(service.requests) == 2


def test_it_sends_a_test_notification_and_says_what_happened(allowed_server, service):
    admin = allowed_server.client().signup("admin", PASSWORD)
    browser, device = _subscribe(admin, service.url + "/push/device-2")
    status, _, answer = admin.post("/api/push/test", {"id": device["id"]})
    assert status == 200 and answer == {"delivered": True, "message": "127.0.0.1 answered HTTP 201"}
    [payload] = service.received(browser, admin.get("/api/push")[2]["publicKey"])
    assert payload["body"] == "A test notification" and payload["url"] == ""
    service.respond = lambda handler: (404, {})
    status, _, answer = admin.post("/api/push/test", {"id": device["id"]})
    assert answer == {"delivered": False, "message": "127.0.0.1 says the subscription has expired (HTTP 404); "
                                                     "the device was removed"}
    assert admin.post("/api/push/test", {"id": device["id"]})[0] == 404


def test_it_retries_a_busy_push_service_with_backoff(allowed_server, service, monkeypatch):
    monkeypatch.setattr(webpush, "BACKOFF", 0.05)
    answers = iter([(503, {}), (429, {"Retry-After": "0"}), (201, {})])
    service.respond = lambda handler: next(answers)
    admin = allowed_server.client().signup("admin", PASSWORD)
    _, device = _subscribe(admin, service.url + "/push/device-3")
    webpush.queue("admin", [{"m": "Moon Garden", "c": "1/2", "text": "Moon Garden · Ch. 2", "url": "read/x/"}])
    service.wait_for(3)
    deadline = time.monotonic() + 5
    while len(webpush.sender.sent) < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert [s[2] for s in webpush.sender.sent] == [503, 429, 201]
    assert admin.get("/api/push")[2]["devices"] == [device]


def test_it_refuses_a_push_service_on_loopback_unless_allowed(server, admin):
    browser = Browser("http://127.0.0.1:9/push")
    status, _, data = admin.post("/api/push/subscribe", {"subscription": browser.subscription})
    assert status == 400 and data["error"] == "subscription.endpoint must be an https URL"
    browser = Browser("https://127.0.0.1:9/push")
    _, _, data = admin.post("/api/push/subscribe", {"subscription": browser.subscription})
    status, _, answer = admin.post("/api/push/test", {"id": data["device"]["id"]})
    assert answer["delivered"] is False and "not a public address" in answer["message"]


@pytest.mark.parametrize("subscription, error", [
    (None, "subscription must be an object {endpoint, keys: {p256dh, auth}}"),
    ({"endpoint": "gopher://x/", "keys": {}}, "subscription.endpoint must be an https URL"),
    ({"endpoint": "https://push.example/x"}, "subscription.keys must be an object {p256dh, auth}"),
    ({"endpoint": "https://push.example/x", "keys": {"p256dh": "AAAA", "auth": "AAAA"}},
     "keys.p256dh must be 65 bytes long, not 3"),
    ({"endpoint": "https://push.example/x", "keys": {"p256dh": "A" * 87, "auth": "A" * 22}},
     "keys.p256dh must be an uncompressed P-256 point"),
])
def test_it_refuses_what_is_not_a_push_subscription(server, admin, subscription, error):
    status, _, data = admin.post("/api/push/subscribe", {"subscription": subscription})
    assert (status, data) == (400, {"error": error})


def test_it_keeps_the_vapid_key_private_and_the_same(server, admin, data_dir):
    key = admin.get("/api/push")[2]["publicKey"]
    path = data_dir / webpush.KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert admin.get("/api/push")[2]["publicKey"] == key and len(key) == 87  # 65 bytes, base64url


def test_it_moves_a_device_to_the_account_that_subscribed_it_last(server, admin, reader_user):
    browser = Browser("https://push.example/shared")
    admin.post("/api/push/subscribe", {"subscription": browser.subscription})
    reader_user.post("/api/push/subscribe", {"subscription": browser.subscription})
    assert admin.get("/api/push")[2]["devices"] == []
    assert len(reader_user.get("/api/push")[2]["devices"]) == 1
    assert admin.post("/api/push/unsubscribe", {"id": "nope"})[0] == 404


def test_it_lists_the_devices_on_the_settings_page(server, admin):
    admin.post("/api/push/subscribe", {"subscription": Browser("https://push.example/a").subscription,
                                       "label": "<b>Firefox</b>"})
    html = admin.get("/settings/user/notifications/")[2].decode()
    assert "&lt;b&gt;Firefox&lt;/b&gt;" in html and "through push.example" in html
    assert "Send a test notification" in html and "settings-push.js" in html
