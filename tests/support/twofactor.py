"""Two-factor sign-in for tests: set it up through Settings → Profile as a browser would, and the
codes an authenticator app would show, computed by pyotp from the secret the page shows."""
import re
import time

import pyotp
import pytest

from accounts import totp
from tests.support.clock import FakeClock
from tests.support.forms import post_form

PROFILE = "/settings/user/profile/"
TWO_FACTOR = "/settings/user/profile/two-factor/"
RECOVERY = re.compile(r"<li><code>([A-Z0-9-]{14})</code></li>")


@pytest.fixture
def clock(monkeypatch):
    """The codes' clock in this process (accounts/totp.py), moved by the test."""
    fake = FakeClock(start=time.time())
    monkeypatch.setattr(totp, "clock", fake)
    return fake


def code(secret, clock, steps=0):
    """The app's code at the clock's time, `steps` periods of 30 s later."""
    return pyotp.TOTP(secret).at(clock.now + 30 * steps)


def other_than(value):
    return "000000" if value != "000000" else "111111"


def recovery_codes(html):
    return RECOVERY.findall(html)


def enrol(client, clock):
    """Set up two-factor sign-in as the profile page does it; -> (secret, recovery codes). The
    clock moves on a period, so the code used to confirm is not the one a sign-in needs next."""
    assert post_form(client, PROFILE, {"action": "start"}, action=TWO_FACTOR)[0] == 302
    html = client.get(PROFILE)[2].decode()
    assert 'src="data:image/svg+xml' in html  # the QR code, drawn on the server
    secret = re.search(r'<code id="totp-secret">([A-Z2-7 ]+)</code>', html).group(1).replace(" ", "")
    status, headers, _ = post_form(client, PROFILE, {"action": "confirm", "code": code(secret, clock)},
                                   action=TWO_FACTOR)
    assert (status, headers["Location"]) == (302, PROFILE)
    page = client.get(PROFILE)[2].decode()
    codes = recovery_codes(page)
    assert len(codes) == 10 and "10 recovery codes left" in page
    assert recovery_codes(client.get(PROFILE)[2].decode()) == []  # shown once
    clock.advance(30)
    return secret, codes
