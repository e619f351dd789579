"""library/webhooks.py against real loopback servers: SSRF refusals, redirects, formats, rate limit."""
import ipaddress
import json
import time

import pytest

from mangacircus import netguard
from reader import webhooks
from tests.reader.webhook_target import Target

ITEMS = [
    {"manga": "Moon Garden", "chapter": "1/3", "text": "Moon Garden · Ch. 3: Leaves", "url": "read/Moon%20Garden/1/3/"},
]


@pytest.fixture
def target():
    t = Target()
    yield t
    t.close()


@pytest.fixture
def allow_loopback(settings):
    settings.WEBHOOK_ALLOW = [ipaddress.ip_network("127.0.0.1/32")]
    return settings


@pytest.mark.parametrize("host", [
    "127.0.0.1", "localhost", "localhost.", "0x7f000001", "2130706433", "127.1", "::1", "::ffff:127.0.0.1",
    "169.254.169.254", "10.0.0.1", "192.168.1.10", "172.16.0.1", "100.64.0.1", "fd00:ec2::254", "fe80::1",
    "0.0.0.0", "224.0.0.1",
])
def test_it_refuses_hosts_that_are_not_public(settings, host):
    settings.WEBHOOK_ALLOW = []
    with pytest.raises(webhooks.Refused):
        webhooks.resolve(host, 80)


def test_it_lets_an_allowlisted_name_or_network_through(settings):
    settings.WEBHOOK_ALLOW = ["localhost", ipaddress.ip_network("10.0.0.0/8")]
    assert webhooks.resolve("localhost", 80)[1] in ("127.0.0.1", "::1")
    assert webhooks.resolve("10.1.2.3", 80)[1] == "10.1.2.3"
    with pytest.raises(webhooks.Refused):
        webhooks.resolve("192.168.0.1", 80)


def test_it_never_reaches_a_canary_without_the_allowlist(settings, target):
    settings.WEBHOOK_ALLOW = []
    for url in (target.url, target.url.replace("127.0.0.1", "localhost"), "file:///etc/passwd", "gopher://127.0.0.1/"):
        with pytest.raises(webhooks.Refused):
            webhooks.post(url, b"x", {})
    assert target.requests == []


def test_it_checks_every_redirect(allow_loopback, target):
    canary = Target("127.0.0.2")
    try:
        target.respond = lambda h: (302, {"Location": canary.url + "/stolen"})
        with pytest.raises(webhooks.Refused, match="not a public address"):
            webhooks.post(target.url + "/hook", b"x", {})
        assert len(target.requests) == 1 and canary.requests == []
        target.respond = lambda h: (307, {"Location": "/again"})
        with pytest.raises(webhooks.Refused, match="redirects"):
            webhooks.post(target.url, b"x", {})
        assert len(target.requests) == 1 + 1 + webhooks.MAX_REDIRECTS
    finally:
        canary.close()


def test_it_gives_up_at_the_timeout(allow_loopback, target, monkeypatch):
    monkeypatch.setattr(webhooks, "TIMEOUT", 1.0)
    target.respond = lambda h: (time.sleep(3), (None, {}))[1]
    start = time.monotonic()
    with pytest.raises(webhooks.Refused):
        webhooks.post(target.url, b"x", {})
    assert time.monotonic() - start < 2


@pytest.mark.parametrize("fmt", ["ntfy", "gotify", "json"])
def test_it_sends_each_format(allow_loopback, target, fmt):
    allow_loopback.PUBLIC_URL = "https://manga.example"
    body, headers = webhooks.message(fmt, ITEMS)
    assert webhooks.post(target.url + "/topic", body, headers) == 200
    method, path, got, received = target.requests[0]
    assert (method, path) == ("POST", "/topic")
    if fmt == "ntfy":
        assert received.decode() == "Moon Garden · Ch. 3: Leaves"
        assert got["Title"] == "1 new chapter" and got["Click"] == "https://manga.example/read/Moon%20Garden/1/3/"
    else:
        payload = json.loads(received)
        assert payload["title"] == "1 new chapter" and payload["message"] == "Moon Garden · Ch. 3: Leaves"
        if fmt == "gotify":
            assert payload["priority"] == 5
        else:
            assert payload["items"] == [{"manga": "Moon Garden", "chapter": "1/3",
                                         "url": "https://manga.example/read/Moon%20Garden/1/3/"}]


def test_it_delivers_at_most_once_per_interval_and_merges(allow_loopback, target, monkeypatch):
    monkeypatch.setattr(webhooks, "MIN_INTERVAL", 0.6)
    sender = webhooks.Sender()
    sender.thread.start()
    try:
        sender.queue("alice", target.url, "json", ITEMS)
        deadline = time.monotonic() + 5
        while not target.requests and time.monotonic() < deadline:
            time.sleep(0.01)
        first = time.monotonic()
        sender.queue("alice", target.url, "json", [{**ITEMS[0], "chapter": "1/4", "text": "four"}])
        sender.queue("alice", target.url, "json", [{**ITEMS[0], "chapter": "1/5", "text": "five"}])
        while len(target.requests) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert time.monotonic() - first >= 0.5
        assert len(target.requests) == 2
        assert [i["chapter"] for i in json.loads(target.requests[1][3])["items"]] == ["1/4", "1/5"]
    finally:
        sender.stop()


@pytest.mark.parametrize("literal", ["::7f00:1", "::ffff:0:7f00:1", "64:ff9b::7f00:1", "2002:7f00:1::1"])
def test_it_refuses_a_delivery_to_an_ipv6_literal_that_embeds_loopback(settings, monkeypatch, literal):
    settings.WEBHOOK_ALLOW = []
    connections = []
    real = netguard.socket.create_connection
    monkeypatch.setattr(netguard.socket, "create_connection", lambda *a, **k: (connections.append(a), real(*a, **k))[1])
    sender = webhooks.Sender()
    sender.thread.start()
    try:
        sender.queue("alice", f"http://[{literal}]:8080/hook", "json", ITEMS)
        deadline = time.monotonic() + 5
        while not sender.sent and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        sender.stop()
    [(user, result)] = sender.sent
    assert user == "alice" and "not a public address" in result
    assert connections == []
