"""Web Push in Chromium (docs/offline.md, "Web Push"): Settings → Notifications subscribes this very
browser with its own PushManager, the device appears in the list as this device, a push delivered
to the service worker becomes a notification, and turning it off removes the device.

Chromium subscribes through Google's GCM, out of reach here: tests/reader/fake_gcm.py answers its
check-in and registration on loopback instead, so the subscription (endpoint and keys) is Chromium's
own. Pushes never come from FCM then; the one shown here is handed to the service worker by the
DevTools protocol (ServiceWorker.deliverPushMessage) as plain text, what the browser hands it once
it has decrypted a push (the encryption itself is tested in test_webpush.py). Push needs a profile
on disk: Playwright's usual contexts are incognito, where Chromium refuses to subscribe."""
import hashlib
import json
import time

import pytest

from tests.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.reader.fake_gcm import FakeGCM
from tests.support.evaluate import answer

pytestmark = pytest.mark.browser

SHOWN = """navigator.serviceWorker.ready.then((r) => r.getNotifications())
  .then((list) => list.map((n) => ({title: n.title, body: n.body, tag: n.tag, url: n.data.url})))"""
DEVICES = "Array.from(document.querySelectorAll('#push-devices [data-device]'), (li) => li.textContent)"


@pytest.fixture
def gcm():
    fake = FakeGCM()
    yield fake
    fake.close()


@pytest.fixture
def profile(tmp_path, gcm, server, browser):
    """A second Chromium (through the session's Playwright), with a profile of its own, notifications
    allowed for the server and GCM on loopback."""
    context = browser.browser_type.launch_persistent_context(tmp_path / "profile", executable_path=CHROMIUM,
                                                             args=CHROMIUM_ARGS + gcm.chromium_args(),
                                                             viewport={"width": 1280, "height": 800})
    context.grant_permissions(["notifications"], origin=server.url)
    yield context
    context.close()


def _poll(page, expression, timeout=15):
    """Poll a JS expression until it is truthy, through the reload that turning push on or off makes."""
    from playwright.sync_api import Error

    deadline = time.monotonic() + timeout
    while True:
        try:
            value = answer(page, expression)
        except Error as e:
            if "context was destroyed" not in str(e):
                raise
            value = None
        if value:
            return value
        assert time.monotonic() < deadline, f"still false after {timeout} s: {expression}"
        time.sleep(0.05)


def test_it_subscribes_this_browser_shows_a_push_and_removes_the_device(server, admin, profile, gcm):
    profile.add_cookies([{"name": "sid", "value": admin.cookies["sid"], "url": server.url}])
    page = profile.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/settings/user/notifications/")
    toggle = page.locator("#push-on")
    toggle.wait_for()  # shown once the page knows whether this browser is subscribed
    assert toggle.inner_text() == "Turn on for this device" and _poll(page, DEVICES + ".length === 0")
    toggle.click()
    _poll(page, DEVICES + ".some((t) => t.includes('(this device)'))")

    public_key = admin.get("/api/push")[2]["publicKey"]
    [(registration, token)] = gcm.web_push()
    assert registration["sender"] == public_key  # subscribed with the server's VAPID key
    assert registration["X-subtype"].startswith(f"wp:{server.url}/")
    endpoint = answer(page, "navigator.serviceWorker.ready.then((r) => r.pushManager.getSubscription())"
                             ".then((s) => s.endpoint)")
    assert endpoint.endswith("/" + token)
    [device] = admin.get("/api/push")[2]["devices"]
    assert device["id"] == hashlib.sha256(endpoint.encode()).hexdigest()[:20]
    assert device["label"] == "Chrome on Linux" and device["service"] in endpoint
    assert toggle.inner_text() == "Turn off for this device"

    # A push for this worker, as the push service would hand it over: a notification opening a chapter.
    cdp = profile.new_cdp_session(page)
    registrations = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 5
    while not [r for r in registrations if r["scopeURL"] == server.url + "/"] and time.monotonic() < deadline:
        page.evaluate("1")  # let the protocol's events arrive
        time.sleep(0.05)
    [worker] = [r for r in registrations if r["scopeURL"] == server.url + "/" and not r["isDeleted"]]
    message = {"title": "New chapter", "body": "Moon Garden · Ch. 3: Leaves", "url": "read/Moon%20Garden/1/3/",
               "tag": "mc:Moon Garden"}
    push = {"origin": server.url, "registrationId": worker["registrationId"], "data": json.dumps(message)}
    shown = None
    for _ in range(3):  # on a busy machine DevTools' delivery is now and then lost; a push service repeats too
        cdp.send("ServiceWorker.deliverPushMessage", push)
        try:
            shown = _poll(page, SHOWN, timeout=5)
            break
        except AssertionError:
            continue
    assert shown == [{"title": "New chapter", "body": "Moon Garden · Ch. 3: Leaves", "tag": "mc:Moon Garden",
                      "url": "read/Moon%20Garden/1/3/"}]

    toggle.click()
    _poll(page, DEVICES + ".length === 0")
    assert admin.get("/api/push")[2]["devices"] == []
    # turning push off reloads the page: until the new one has its button, there is none to look at
    _poll(page, "document.getElementById('push-on') && !document.getElementById('push-on').hidden")
    assert answer(page, "navigator.serviceWorker.ready.then((r) => r.pushManager.getSubscription())") is None
    assert page.locator("#push-on").inner_text() == "Turn on for this device"
    assert errors == []
