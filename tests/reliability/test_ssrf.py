"""Webhook SSRF (battery W1): canaries listen on 127.0.0.1 and ::1; webhooks aimed at every
other spelling of this machine, at metadata addresses, at other schemes, or redirected there by
an allowed host, must never reach them. Through reader/webhooks.py (the one delivery path) and,
for a sample, through the settings and the test button.

tests/test_netguard.py checks the address rules on their own; tests/reader/test_webhooks.py the
delivery's formats, timeout and rate limit.
"""
import ipaddress

import pytest

from reader import webhooks
from tests.reader.webhook_target import Target
from tests.reliability.support import sized
from tests.support.forms import post_form

pytestmark = pytest.mark.reliability

REDIRECTOR = "127.0.0.3"  # allowed by WEBHOOK_ALLOW in the redirect cases


def this_machine(port):
    """URLs that name this machine (the canaries' port) without saying 127.0.0.1 plainly."""
    hosts = [
        "127.0.0.1", "127.1", "127.0.1", "2130706433", "0x7f000001", "0x7F000001", "0x7f.0.0.1", "0x7f.0x0.0x0.0x1",
        "0177.0.0.1", "0177.1", "017700000001", "0000177.0.0.1", "127.000.000.001", "0.0.0.0", "0",
        "localhost", "localhost.", "LOCALHOST", "127.0.0.1.",
        "[::1]", "[0:0:0:0:0:0:0:1]", "[::]", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[::ffff:0:7f00:1]",
        "[::7f00:1]", "[::127.0.0.1]", "[64:ff9b::7f00:1]", "[64:ff9b::127.0.0.1]", "[64:ff9b:1::7f00:1]",
        "[2002:7f00:1::1]", "[2002:7f00:0001:0:0:0:0:1]",
    ]
    urls = [f"http://{host}:{port}/hook" for host in hosts]
    urls += [f"https://127.0.0.1:{port}/", f"HTTP://127.0.0.1:{port}/", f"http://user:pw@127.0.0.1:{port}/",
             f"http://evil.example@127.0.0.1:{port}/", f"http://127.0.0.1:{port}#@evil.example/",
             f"http://127.0.0.1:{port}?@evil.example/"]
    return urls


ELSEWHERE = [
    "http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/", "http://100.100.100.200/",
    "http://169.254.170.2/", "http://10.0.0.1/", "http://192.168.1.1/", "http://[fe80::1]/",
]


def other_schemes(port):
    return ["file:///etc/passwd", f"gopher://127.0.0.1:{port}/_POST", f"ftp://127.0.0.1:{port}/",
            f"dict://127.0.0.1:{port}/", "data:text/plain,x", f"//127.0.0.1:{port}/"]


@pytest.fixture
def canaries():
    v4 = Target("127.0.0.1")
    try:
        v6 = Target("::1", port=v4.server.server_port)
    except OSError:
        v6 = None
    yield [c for c in (v4, v6) if c]
    for c in (v4, v6):
        if c:
            c.close()


def hits(canaries):
    return sum(len(c.requests) for c in canaries)


def attempt(url):
    """None when the delivery was refused before any connection, else what happened."""
    try:
        status = webhooks.post(url, b"{}", {"Content-Type": "application/json"})
    except webhooks.Refused as e:
        reason = str(e)
        return None if ("not a public address" in reason or "only http" in reason or "not a valid URL" in reason
                        or "cannot be resolved" in reason) else reason
    return f"delivered ({status})"


def test_w1_no_webhook_reaches_this_machine(figures, settings, canaries):
    port = canaries[0].server.server_port
    settings.WEBHOOK_ALLOW = [ipaddress.ip_network("127.0.0.1/32")]
    assert webhooks.post(canaries[0].url + "/control", b"{}", {}) == 200, "the canary does not answer"
    control = hits(canaries)
    for c in canaries:
        c.requests.clear()
    settings.WEBHOOK_ALLOW = []
    direct = this_machine(port) + ELSEWHERE + other_schemes(port)
    wrong = [(url, result) for url in direct if (result := attempt(url)) is not None]
    # An allowed host that redirects to each of them: every hop is checked again.
    redirector = Target(REDIRECTOR)
    settings.WEBHOOK_ALLOW = [ipaddress.ip_network(f"{REDIRECTOR}/32")]
    redirected = 0
    try:
        for code in (301, 302, 303, 307, 308):
            for target in this_machine(port) + other_schemes(port)[:3]:
                redirector.respond = lambda h, target=target, code=code: (code, {"Location": target})
                result = attempt(redirector.url + "/hop")
                redirected += 1
                if result is not None:
                    wrong.append((f"{code} → {target}", result))
    finally:
        redirector.close()
    canary_hits = hits(canaries)
    figures.check("W1", "webhook SSRF matrix", f"{len(direct)} URLs + {redirected} redirects",
                  "0 canary hits (127.0.0.1 and ::1); each refused before connecting",
                  f"{canary_hits} canary hits ({len(canaries)} canaries, control delivery reached {control}); "
                  f"{len(wrong)} not refused" + (f": {wrong[:3]}" if wrong else ""),
                  canary_hits == 0 and control == 1 and not wrong)


def test_w1_the_settings_and_the_test_button_go_through_the_same_guard(figures, server, admin, canaries,
                                                                         monkeypatch):
    port = canaries[0].server.server_port
    attempts = []  # the test button delivers in its request (webhooks.deliver_now), and says how it went
    deliver_now = webhooks.deliver_now

    def recorded(url, fmt, items):
        result = deliver_now(url, fmt, items)
        attempts.append((url, result))
        return result

    monkeypatch.setattr(webhooks, "deliver_now", recorded)
    sample = this_machine(port)[:sized(8, 40)] + ELSEWHERE[:2]
    refused, stored = 0, 0
    for url in sample + other_schemes(port):
        status = admin.post("/api/settings", {"webhook": url})[0]
        if status == 400:
            refused += 1  # not http(s): refused when saved
            continue
        assert status == 200, (url, status)
        stored += 1
        before = len(attempts)
        post_form(admin, "/settings/user/notifications/", {"action": "test"})
        assert len(attempts) > before, f"no delivery attempt for {url}"
    delivered = [url for url, (ok, _) in attempts if ok]
    figures.check("W1-app", "webhook SSRF through the settings and the test button",
                  f"{stored} deliveries + {refused} URLs refused when saved",
                  "0 canary hits; every delivery refused", f"{hits(canaries)} canary hits; {len(delivered)} delivered",
                  hits(canaries) == 0 and not delivered)
