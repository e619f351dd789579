"""A clock for code that takes one (JsonFile, the library scanner, the reading clock): time moves
only when a test says so, so deadlines are computed instead of slept through."""
import time


class FakeClock:
    def __init__(self, start=1000.0):
        self.now = start

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds


def wait_until(predicate, timeout=5):
    """Poll `predicate` (another thread's work) until true; False after `timeout` real seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    return True
