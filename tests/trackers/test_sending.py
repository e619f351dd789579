"""The background sender: a revoked token, a 429 with Retry-After, errors retried with backoff, a
tracker that hangs while the reader goes on, and a deleted account's tokens."""
import threading
import time

from tests.conftest import PASSWORD
from trackers import sender as sender_module
from trackers import store

from .conftest import authorize, finish


def _token(user_name="admin", key="anilist"):
    return store.connection(user_name, key)["token"]


def test_a_revoked_token_asks_for_a_reconnect(app, user, fake, sender):
    authorize(user, "anilist")
    fake.revoked.add(_token())
    finish(user, "Lantern Fields", "1/1", "c0001 One")
    sender.run_due()
    assert sender.results[-1][1] == "revoked" and fake.updates == []
    connection = store.connection("admin", "anilist")
    assert connection["state"] == "reconnect" and connection["token"] is None
    assert fake.tokens and all(token.encode() not in (app.data / "trackers.json").read_bytes() for token in fake.tokens)
    _, _, html = user.get("/settings/user/apps/")
    assert b"AniList needs reconnecting" in html and b"Reconnect AniList" in html
    finish(user, "Lantern Fields", "1/2", "c0002 Two")
    assert sender.run_due() == 0  # nothing is queued for a connection without a token
    authorize(user, "anilist")  # connecting again sends the next finished chapter
    finish(user, "Lantern Fields", "2/3", "c0003 Three")
    sender.run_due()
    assert fake.updates[-1][2]["progress"] == 3


def test_a_429_holds_the_tracker_until_its_retry_after(app, user, fake, sender, clock):
    authorize(user, "anilist")
    fake.too_many = (1, 120)
    finish(user, "Lantern Fields", "1/1", "c0001 One")
    sender.run_due()
    assert sender.results[-1][1] == "rate limited" and fake.updates == []
    finish(user, "Monster", "0/1", "c0001 Part")  # another manga waits for the same Retry-After
    clock.advance(119)
    assert sender.run_due() == 0 and sender.wait_time() == 1
    clock.advance(1)
    assert sender.run_due() == 2
    assert [u[1] for u in fake.updates] == ["77001"]  # Monster has no AniList entry known
    assert sender.results[-1][1] == "unbound"


def test_an_error_is_tried_again_after_a_backoff(app, user, fake, sender, clock):
    authorize(user, "anilist")
    fake.failing = 2
    finish(user, "Lantern Fields", "1/1", "c0001 One")
    sender.run_due()
    assert sender.results[-1][1] == "retry" and sender.wait_time() == sender_module.backoff(1) == 30
    clock.advance(30)
    sender.run_due()
    assert sender.results[-1][1] == "retry" and sender.wait_time() == 60
    clock.advance(59)
    assert sender.run_due() == 0
    clock.advance(1)
    sender.run_due()
    assert sender.results[-1][1] == "sent" and fake.updates[-1][2]["progress"] == 1


def test_a_tracker_that_hangs_never_slows_reading(app, user, fake):
    assert sender_module.current is not None and sender_module.current.thread.is_alive()  # the app's own
    authorize(user, "anilist")
    fake.hold = threading.Event()
    started = len(fake.log)
    took = []
    for cid, version in (("1/1", "c0001 One"), ("1/2", "c0002 Two"), ("2/3", "c0003 Three")):
        t0 = time.monotonic()
        finish(user, "Lantern Fields", cid, version)
        took.append(time.monotonic() - t0)
    deadline = time.monotonic() + 10
    while len(fake.log) == started and time.monotonic() < deadline:
        time.sleep(0.02)  # poll: the update is on its way, and the site holds it
    assert len(fake.log) > started and fake.updates == []
    t0 = time.monotonic()
    finish(user, "Monster", "0/1", "c0001 Part")  # while the sender waits on the site
    took.append(time.monotonic() - t0)
    assert max(took) < 0.5, took
    fake.hold.set()
    deadline = time.monotonic() + 10
    while not fake.updates and time.monotonic() < deadline:
        time.sleep(0.02)
    assert fake.updates and fake.updates[0][1] == "77001"


def test_deleting_the_account_deletes_its_tokens(app, user, fake):
    status, _, _ = user.post("/api/admin/user", {"name": "reader", "password": PASSWORD})
    reader = app.client().login("reader", PASSWORD)
    authorize(reader, "anilist")
    assert _token("reader")
    status, _, data = user.post("/api/admin/user/delete", {"name": "reader"})
    assert status == 200, data
    assert store.connection("reader", "anilist") is None
    assert b"reader" not in (app.data / "trackers.json").read_bytes()


def test_an_unreachable_tracker_is_tried_again_and_stays_connected(app, user, fake, sender):
    authorize(user, "anilist")
    fake.stop()  # nothing listens on its port any more
    t0 = time.monotonic()
    finish(user, "Lantern Fields", "1/1", "c0001 One")
    assert time.monotonic() - t0 < 0.5
    sender.run_due()
    assert sender.results[-1][1] == "retry" and sender.wait_time() == 30
    assert store.connection("admin", "anilist")["state"] == "connected"
