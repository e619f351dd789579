"""50 reading apps signing in with HTTP Basic at once, against a real server (battery A12): each sends
its name and password with every request, as Mihon does, a request every half second. The first
check of each password is a hash (two at a time, the others in a short line); every later one is
remembered, also across a restart of the server (accounts/basic.py). And an app sending Basic for an
account with a second factor (A12b): refused every time, pointing to API keys, for one hash at most."""
import base64
import statistics
import threading
import time

import pytest

from bench.server import Server
from tests.conftest import PASSWORD
from tests.reliability.support import ms, sized
from tests.support.clock import FakeClock
from tests.support.twofactor import enrol

pytestmark = [pytest.mark.reliability, pytest.mark.process, pytest.mark.timing]

USERS = 50
GRACE = 10.0  # seconds in which the first checks may be refused (503) while the hashes run
# 2^15: a hash costs about a tenth of a second here, as on a small server at the default cost.
ENV = {"SCRYPT_LOG_N": "15", "ACCESS_LOG": "0"}


def basic(name):
    return "Basic " + base64.b64encode(f"{name}:{PASSWORD}".encode()).decode()


def household(srv, seconds):
    """Every user asks for the series list every 0.5 s for `seconds`; -> [(seconds since start, status)]."""
    answers, lock = [], threading.Lock()
    started = time.monotonic()

    def app(name):
        client = srv.client()
        while time.monotonic() - started < seconds:
            client.cookies = {}  # Basic with every request, no session cookie
            status = client.get("/komga/api/v1/series?page=0", headers={"Authorization": basic(name)})[0]
            with lock:
                answers.append((time.monotonic() - started, status))
            time.sleep(0.5)  # the app's own pace between requests

    threads = [threading.Thread(target=app, args=(f"app{n}",)) for n in range(USERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_a12_fifty_apps_signing_in_with_basic_at_once_get_through_and_stay_through_a_restart(figures, data_dir,
                                                                                            library_dir):
    srv = Server(data_dir, library_dir, env=ENV).start()
    try:
        admin = srv.client().signup("admin")
        for n in range(USERS):
            assert admin.post("/api/admin/user", {"name": f"app{n}", "password": PASSWORD})[0] == 200
        first = household(srv, sized(15, 40))
        srv.stop()
        srv.start()
        again = household(srv, sized(5, 20))
    finally:
        srv.stop()
    early = [s for t, s in first if t < GRACE and s != 200]
    late = [s for t, s in first if t >= GRACE and s != 200]
    after_restart = [s for _, s in again if s != 200]
    figures.check("A12", "50 apps signing in with Basic at once",
                  f"{USERS} users, {len(first)} requests, then {len(again)} after a restart",
                  f"0 errors after the first {GRACE:g} s; 0 errors after a restart (checks remembered on disk)",
                  f"first {GRACE:g} s: {len(early)} refused ({sorted(set(early))}); after: {len(late)} errors; "
                  f"after the restart: {len(after_restart)} errors of {len(again)}",
                  not late and not after_restart)


def test_a12b_basic_for_an_account_with_a_second_factor_is_refused_at_the_cost_of_one_hash(figures, data_dir,
                                                                                           library_dir):
    n = sized(30, 100)
    srv = Server(data_dir, library_dir, env=ENV).start()
    try:
        admin = srv.client().signup("admin")
        assert admin.post("/api/admin/user", {"name": "reader", "password": PASSWORD})[0] == 200
        enrol(srv.client().login("reader"), FakeClock(start=time.time()))  # the server's own clock: now
        answers = []
        for _ in range(n):
            client = srv.client()  # a new app each time: no session cookie to lean on
            began = time.perf_counter()
            status, _, data = client.get("/komga/api/v1/series?page=0", headers={"Authorization": basic("reader")})
            answers.append((time.perf_counter() - began, status, "API key" in (data or {}).get("error", "")))
    finally:
        srv.stop()
    first, later = answers[0][0], statistics.median(t for t, _, _ in answers[1:])
    refused = sum(status == 401 and hint for _, status, hint in answers)
    figures.check("A12b", "Basic for an account with a second factor", f"{n} requests",
                  "all 401 naming API keys; after the first (a hash), each answered without one (median < 50 ms)",
                  f"{refused} refused with the hint; first {ms(first)}, then median {ms(later)}",
                  refused == n and later < 0.05)
