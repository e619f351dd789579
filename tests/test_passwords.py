"""Password hashing waits its turn in a short, fair line, and refuses at once past it
(accounts/passwords.py)."""
import threading

import pytest

from accounts import passwords
from mangacircus.errors import Unavailable


@pytest.fixture
def busy_slots():
    """Both hash slots taken, as by two running hashes."""
    for _ in range(passwords.SLOTS):
        passwords._queue.acquire()
    yield
    for _ in range(passwords.SLOTS):
        passwords._queue.release()


def start(attempt):
    """Run `attempt()` in a thread; -> (done event, [what it raised or returned])."""
    done, result = threading.Event(), []

    def run():
        try:
            result.append(attempt())
        except Exception as e:  # noqa: BLE001 — the test looks at it
            result.append(e)
        done.set()

    threading.Thread(target=run, daemon=True).start()
    return done, result


def waiters(count):
    """Wait until `count` checks stand in the line."""
    with passwords._queue.cond:
        assert passwords._queue.cond.wait_for(lambda: len(passwords._queue.line) == count, timeout=5)


def test_a_check_waits_its_turn_and_hashes_once_a_slot_is_free(busy_slots):
    stored = None
    done, result = start(lambda: passwords.check("a password", stored))
    waiters(1)
    assert not done.is_set()  # in line: both slots are busy
    passwords._queue.release()  # one hash ends
    assert done.wait(5)
    passwords._queue.acquire()  # the fixture gives back two
    assert result == [False]  # no stored hash: checked against the dummy, and refused


def test_the_line_is_first_come_first_served(busy_slots):
    order = []
    first_done, _ = start(lambda: (passwords._queue.acquire(), order.append("first"), passwords._queue.release()))
    waiters(1)
    second_done, _ = start(lambda: (passwords._queue.acquire(), order.append("second"), passwords._queue.release()))
    waiters(2)
    passwords._queue.release()
    assert first_done.wait(5) and second_done.wait(5)
    passwords._queue.acquire()
    assert order == ["first", "second"]


def test_it_refuses_at_once_when_the_line_is_full(busy_slots):
    held = [start(passwords._queue.acquire) for _ in range(passwords.WAITING)]
    waiters(passwords.WAITING)
    for attempt in (lambda: passwords.check("a password", None), lambda: passwords.make_hash("a password")):
        done, result = start(attempt)
        assert done.wait(1), "a check past the full line waited"
        assert isinstance(result[0], Unavailable) and result[0].retry_after and "busy" in result[0].message
    for _ in held:
        passwords._queue.release()  # each waiter takes the slot given back ...
    for done, _ in held:
        assert done.wait(5)
    for _ in held:
        passwords._queue.release()  # ... and gives it back here
    for _ in range(len(held)):
        passwords._queue.acquire()


def test_a_waiting_check_is_refused_at_its_deadline(busy_slots, monkeypatch):
    monkeypatch.setattr(passwords._queue, "max_wait", 0.2)
    done, result = start(lambda: passwords.check("a password", None))
    assert done.wait(5)
    assert isinstance(result[0], Unavailable)
    assert list(passwords._queue.line) == []


def test_it_hashes_again_once_a_slot_is_free():
    stored = passwords.make_hash("a password")
    assert passwords.check("a password", stored) and not passwords.check("another", stored)
