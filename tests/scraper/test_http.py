"""The client handed to sources, against the fake site in its hostile modes."""
import email.utils
import threading
import time

import pytest

from scraper.errors import NotFound, Parked, Refused, Transient
from scraper.http import USER_AGENT, HttpClient, Limits
from scraper.watchdog import Progress
from tests.scraper import fakesite
from tests.scraper.conftest import FAST
from tests.scraper.fake_source import FakeSource
from tests.scraper.fakesite import FakeSite

IMG = "/img/s1c1/1.png"


def make_client(limits=FAST, pace=0.0):
    client = HttpClient(limits, Progress(), threading.Event(), pace_for=lambda source: pace)
    client.worker = threading.get_ident()
    return client


@pytest.fixture
def http(site):
    return make_client().for_source(FakeSource(site.url))


def test_it_fetches_with_a_descriptive_user_agent(http, site):
    response = http.get(site.url + IMG)
    assert response.status == 200
    assert response.body == fakesite.png(__import__("zlib").crc32(IMG.encode()) % 1000)
    assert site.user_agents == {USER_AGENT}


def test_it_waits_for_retry_after_in_seconds(http, site):
    site.script[IMG] = [fakesite.status(429, {"Retry-After": "1"})]
    assert http.get(site.url + IMG).status == 200
    first, second = site.times(IMG)
    assert second - first >= 1.0


def test_it_waits_for_retry_after_as_an_http_date(http, site):
    when = time.time() + 2
    site.script[IMG] = [fakesite.status(429, {"Retry-After": email.utils.formatdate(when, usegmt=True)})]
    assert http.get(site.url + IMG).status == 200
    assert time.time() >= int(when)  # the date has whole seconds
    assert site.hits[IMG] == 2


def test_it_parks_the_job_past_the_cap_instead_of_waiting(http, site):
    site.script[IMG] = [fakesite.status(429, {"Retry-After": "86400"})]
    started = time.time()
    with pytest.raises(Parked) as info:
        http.get(site.url + IMG)
    assert info.value.until >= (started + 86400) * 1000 - 1000
    assert site.hits[IMG] == 1
    with pytest.raises(Parked):  # the source stays blocked: no second request
        http.get(site.url + IMG)
    assert site.hits[IMG] == 1


def test_it_backs_off_on_429_without_a_header_then_gives_up(site):
    http = make_client(Limits(retries=4, retry_base=0.02)).for_source(FakeSource(site.url))
    site.always[IMG] = fakesite.status(429)
    with pytest.raises(Transient, match="after 5 tries"):
        http.get(site.url + IMG)
    assert site.hits[IMG] == 5


def test_it_retries_5xx_and_succeeds(http, site):
    site.script[IMG] = [fakesite.status(503), fakesite.status(502), fakesite.status(500)]
    assert http.get(site.url + IMG).status == 200
    assert site.hits[IMG] == 4


@pytest.mark.parametrize("action", [fakesite.truncate, fakesite.chunked_cut])
def test_it_detects_a_cut_body_and_fetches_again(http, site, action):
    site.script[IMG] = [action]
    body = http.get(site.url + IMG).body
    assert site.hits[IMG] == 2
    assert body.startswith(b"\x89PNG") and body.endswith(b"IEND\xaeB`\x82")


def test_it_stops_an_endless_body_at_the_cap(http, site):
    site.always[IMG] = fakesite.endless
    with pytest.raises(Refused, match="cap"):
        http.get(site.url + IMG)
    assert site.hits[IMG] == 1


def test_it_refuses_a_declared_huge_body_before_reading_it(http, site):
    site.always[IMG] = fakesite.declared(5 << 30)
    started = time.monotonic()
    with pytest.raises(Refused, match="5120 MiB declared"):
        http.get(site.url + IMG)
    assert time.monotonic() - started < 1.5  # the server would keep the body coming for 2 s


def test_it_gives_up_on_a_slow_drip_at_the_page_deadline(site):
    http = make_client(Limits(read_timeout=2, deadline=1, retries=1, retry_base=0.01)).for_source(FakeSource(site.url))
    site.always[IMG] = fakesite.drip(0.1)
    started = time.monotonic()
    with pytest.raises(Transient, match="deadline"):
        http.get(site.url + IMG)
    assert site.hits[IMG] == 2
    assert time.monotonic() - started < 4


def test_it_gives_up_on_silence_at_the_read_idle_timeout(site):
    release = threading.Event()
    http = make_client(Limits(read_timeout=0.5, deadline=10, retries=0)).for_source(FakeSource(site.url))
    site.always[IMG] = fakesite.hang(release)
    started = time.monotonic()
    with pytest.raises(Transient, match="timed out"):
        http.get(site.url + IMG)
    release.set()
    assert time.monotonic() - started < 2


def test_it_stops_a_redirect_loop_after_five_hops(http, site):
    site.always["/a"] = fakesite.redirect("/b")
    site.always["/b"] = fakesite.redirect(site.url + "/a")
    with pytest.raises(Refused, match="more than 5 redirects"):
        http.get(site.url + "/a")
    assert site.hits["/a"] + site.hits["/b"] == 6


@pytest.mark.parametrize("target", ["CANARY", "http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/x",
                                    "http://2130706433/x", "file:///etc/passwd", "ftp://example.org/x"])
def test_it_refuses_redirects_to_private_addresses_and_other_schemes(http, site, target):
    canary = FakeSite().start()
    try:
        site.always[IMG] = fakesite.redirect(target.replace("CANARY", canary.url + "/canary"))
        with pytest.raises(Refused):
            http.get(site.url + IMG)
        assert sum(canary.hits.values()) == 0
    finally:
        canary.stop()


def test_it_refuses_loopback_to_a_source_not_configured_for_it(site):
    normal = make_client().for_source(FakeSource(""))  # no private_hosts
    with pytest.raises(Refused, match="loopback, private or link-local"):
        normal.get(site.url + IMG)
    assert site.hits[IMG] == 0


def test_it_reports_a_missing_page_as_not_found(http, site):
    with pytest.raises(NotFound):
        http.get(site.url + "/img/nope/1.png")


def test_it_paces_requests_of_a_source(site):
    http = make_client(pace=0.3).for_source(FakeSource(site.url))
    for _ in range(3):
        http.get(site.url + IMG)
    times = site.times(IMG)
    assert all(b - a >= 0.3 for a, b in zip(times, times[1:]))


def test_it_sends_one_request_at_a_time_across_threads(site):
    client = make_client()
    site.page_delay = 0.05
    threads = [threading.Thread(target=lambda: client.for_source(FakeSource(site.url)).get(site.url + IMG))
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert site.hits[IMG] == 4
    assert site.max_inflight == 1
