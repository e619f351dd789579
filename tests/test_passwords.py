"""Password hashing never makes a request wait for a hash slot (accounts/passwords.py)."""
import threading

import pytest

from accounts import passwords
from mangacircus.errors import Unavailable


@pytest.fixture
def busy_slots():
    """Both hash slots taken, as by two running hashes."""
    for _ in range(2):
        assert passwords._slots.acquire(timeout=5)
    yield
    for _ in range(2):
        passwords._slots.release()


def outcome(attempt, timeout=0.2):
    """What `attempt()` raised or returned, or "waiting" if it has not finished within `timeout`."""
    result = ["waiting"]

    def run():
        try:
            result[0] = attempt()
        except Exception as e:  # noqa: BLE001 — the test looks at it
            result[0] = e

    threading.Thread(target=run, daemon=True).start()
    threading.Event().wait(timeout)
    return result[0]


def test_it_refuses_at_once_when_every_hash_slot_is_busy(busy_slots):
    for attempt in (lambda: passwords.check("a password", None), lambda: passwords.make_hash("a password")):
        refused = outcome(attempt)
        assert isinstance(refused, Unavailable), refused
        assert refused.retry_after and "busy" in refused.message


def test_it_hashes_again_once_a_slot_is_free():
    stored = passwords.make_hash("a password")
    assert passwords.check("a password", stored) and not passwords.check("another", stored)
