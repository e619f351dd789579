"""Sign-in limits, enumeration, sessions and cookies (battery A1-A6), the code step of two-factor
sign-in (A13) and a trusted proxy's header (A14), through the app in process.

The authorisation matrix (A7) is tests/test_authz_matrix.py; the sign-in flood against a real
server is tests/reader/test_login_flood.py; security changes through a kill -9 are D2
(test_durability.py).
"""
import hashlib
import ipaddress
import random
import re
import statistics
import time

import pytest
from django.test import Client

from accounts import passwords, ratelimit, users
from mangacircus import jsonfile
from tests.conftest import PASSWORD
from tests.reliability.support import ms, read_db, sized
from tests.support import twofactor
from tests.support.app import AppServer

pytestmark = pytest.mark.reliability
clock = twofactor.clock


@pytest.fixture
def hashes(monkeypatch):
    """The number of password hashes computed so far (a list, to read while it grows)."""
    count = [0]
    real = passwords._scrypt

    def counted(*args, **kwargs):
        count[0] += 1
        return real(*args, **kwargs)

    passwords._dummy_hash()  # made once per cost: not one of the checks counted here
    monkeypatch.setattr(passwords, "_scrypt", counted)
    return count


def guesses(client, names, n, forged=False):
    """n wrong sign-ins, names taken in turn; -> ({status: count}, whether every 429 had Retry-After)."""
    statuses, retry_after = {}, True
    for i in range(n):
        headers = {"X-Forwarded-For": f"198.51.100.{i % 250 + 1}"} if forged else {}
        status, answer_headers, _ = client.post("/api/login", {"name": names[i % len(names)], "password": f"guess {i}"},
                                                headers=headers)
        statuses[status] = statuses.get(status, 0) + 1
        if status == 429:
            retry_after = retry_after and int(answer_headers.get("Retry-After") or 0) > 0
    return statuses, retry_after


def test_a1_failed_sign_ins_are_limited_per_account_and_per_address(figures, server, admin, hashes):
    n = sized(60, 200)
    client = server.client()
    before = hashes[0]
    per_account, ok1 = guesses(client, ["admin"], n)
    checked_account = hashes[0] - before
    before = hashes[0]
    forged, ok2 = guesses(client, ["admin"], n, forged=True)
    checked_forged = hashes[0] - before
    ratelimit.reset()
    before = hashes[0]
    invented, ok3 = guesses(client, [f"invented{i}" for i in range(n)], n)
    checked_address = hashes[0] - before
    figures.check("A1", "sign-in limits from one address", f"{n} + {n} + {n} guesses",
                  "≤ 10 checks per account, 0 more with a forged X-Forwarded-For, ≤ 30 per address "
                  "across names; the rest 429 with Retry-After",
                  f"{checked_account} checks {per_account}; forged XFF: {checked_forged} more {forged}; "
                  f"invented names: {checked_address} checks {invented}",
                  checked_account <= 10 and checked_forged == 0 and checked_address <= 30 and ok1 and ok2 and ok3
                  and per_account.get(429) == n - 10 and invented.get(429) == n - 30)


def test_a1_failed_sign_ins_are_limited_per_account_across_addresses(figures, data_dir, library_dir, hashes):
    n = sized(120, 300)
    srv = AppServer(data_dir, library_dir, env={"TRUSTED_PROXIES": "127.0.0.1"}).start()
    try:
        srv.client().signup("admin")
        before = hashes[0]
        statuses, ok = guesses(srv.client(), ["admin"], n, forged=True)  # a trusted proxy: believed
        checked = hashes[0] - before
    finally:
        srv.stop()
    figures.check("A1-spread", "sign-in limit per account across addresses",
                  f"{n} guesses from {min(n, 250)} addresses",
                  "≤ 100 checks per account a day; the rest 429 with Retry-After",
                  f"{checked} checks {statuses}", checked <= 100 and ok and statuses.get(429) == n - 100)


@pytest.mark.timing  # compares the times of sign-ins
def test_a2_unknown_names_and_wrong_passwords_look_and_take_the_same(figures, data_dir, library_dir):
    """Interleaved sign-ins for unknown names and for real accounts with a wrong password, each
    from its own address (through a trusted proxy, so no limit is reached), at a cost (2^14) where
    the hash dominates, as it does at the default 2^17."""
    n = sized(40, 200)
    env = {"TRUSTED_PROXIES": "127.0.0.1", "SCRYPT_LOG_N": "14"}
    srv = AppServer(data_dir, library_dir, env=env).start()
    try:
        admin = srv.client().signup("admin")
        accounts = [f"known{i}" for i in range(n // 90 + 1)]
        for name in accounts:
            assert admin.post("/api/admin/user", {"name": name, "password": PASSWORD})[0] == 200
        rng = random.Random(5)
        trials = [("known", accounts[i % len(accounts)]) for i in range(n)]
        trials += [("unknown", f"nobody{i}") for i in range(n)]
        rng.shuffle(trials)
        times, answers = {"known": [], "unknown": []}, {"known": set(), "unknown": set()}
        client = srv.client()
        for i, (kind, name) in enumerate(trials):
            began = time.perf_counter()
            status, _, body = client.post("/api/login", {"name": name, "password": "not the password"},
                                          headers={"X-Forwarded-For": f"10.{i // 250}.{i % 250}.1"})
            times[kind].append(time.perf_counter() - began)
            answers[kind].add((status, str(body)))
    finally:
        srv.stop()
    known, unknown = statistics.median(times["known"]), statistics.median(times["unknown"])
    difference = abs(known - unknown) / min(known, unknown)
    figures.check("A2", "enumeration by answer and timing", f"{n} + {n} sign-ins",
                  "the same status and body; medians differ by < 10 %",
                  f"answers {sorted(answers['known'])} vs {sorted(answers['unknown'])}; "
                  f"median {ms(known)} vs {ms(unknown)} ({difference:.1%})",
                  answers["known"] == answers["unknown"] and len(answers["known"]) == 1 and difference < 0.10)


def test_a3_a_planted_session_token_is_never_adopted(figures, server, admin):
    n, adopted, accepted = sized(20, 100), 0, 0
    rng = random.Random(6)
    for i in range(n):
        # Every other one is the admin's own token with its last digit changed (never to itself).
        real = admin.cookies["sid"]
        planted = "%064x" % rng.getrandbits(256) if i % 2 else real[:-1] + ("1" if real[-1] == "0" else "0")
        victim = server.client()
        victim.cookies["sid"] = planted
        victim.login("admin")
        adopted += victim.cookies["sid"] == planted
        stranger = server.client()
        stranger.cookies["sid"] = planted
        accepted += stranger.get("/api/me")[0] != 401
    figures.check("A3", "session fixation", f"{n} planted tokens", "a new token every time; the planted one refused",
                  f"{adopted} adopted, {accepted} accepted", adopted == 0 and accepted == 0)


def test_a4_a_stolen_token_stops_working_at_each_revocation(figures, server, admin, reader_user):
    """Sign-out, a password change, an admin revoke and a deletion each end what they should at
    the next request; no raw token is ever written to DATA."""
    issued = []

    def stolen(client):
        issued.append(client.cookies["sid"])
        thief = server.client()
        thief.cookies["sid"] = client.cookies["sid"]
        return thief

    wrong = []
    victim = server.client().login("reader")
    thief = stolen(victim)
    victim.post("/api/logout")
    wrong += ["sign-out"] if thief.get("/api/me")[0] != 401 else []
    laptop = server.client().login("reader")
    thief = stolen(laptop)
    assert reader_user.post("/api/password", {"old": PASSWORD, "new": "another password"})[0] == 200
    wrong += ["password change"] if thief.get("/api/me")[0] != 401 else []
    assert admin.post("/api/admin/user/role", {"name": "reader", "admin": True})[0] == 200
    thief = stolen(reader_user)
    wrong += ["grant"] if thief.get("/api/admin")[0] != 200 else []
    assert admin.post("/api/admin/user/role", {"name": "reader", "admin": False})[0] == 200
    wrong += ["admin revoke"] if thief.get("/api/admin")[0] != 403 else []
    assert admin.post("/api/admin/user/delete", {"name": "reader"})[0] == 200
    wrong += ["deletion"] if thief.get("/api/me")[0] != 401 else []
    issued.append(admin.cookies["sid"])
    jsonfile.flush_all()
    found = [path.name for path in server.data.rglob("*") if path.is_file()
             for token in issued if token.encode() in path.read_bytes()]
    figures.check("A4", "revocation of a stolen token", "4 revocations",
                  "refused at the next request after each; 0 raw tokens in DATA",
                  f"still working after: {wrong or 'none'}; raw tokens found in {found or 'no file'}",
                  not wrong and not found)


COOKIE_CASES = [
    ("default", {}, {"HttpOnly": True, "SameSite=Lax": True, "Secure": False, "Path=/": True}),
    ("COOKIE_SECURE=1", {"COOKIE_SECURE": "1"}, {"HttpOnly": True, "SameSite=Lax": True, "Secure": True}),
    ("SCRIPT_NAME=/manga", {"SCRIPT_NAME": "/manga"}, {"HttpOnly": True, "Path=/manga/": True, "Secure": False}),
]


def test_a5_the_session_cookie_carries_its_flags(figures, data_dir, library_dir):
    wrong, seen = [], []
    for name, env, expected in COOKIE_CASES:
        srv = AppServer(data_dir / name.replace("/", "_"), library_dir, env=env).start()
        try:
            prefix = env.get("SCRIPT_NAME", "")
            _, headers, _ = srv.client().post(prefix + "/api/signup", {"name": "admin", "password": PASSWORD})
        finally:
            srv.stop()
        cookie = next(c for c in headers.get_all("Set-Cookie") if c.startswith("sid="))
        flags = {part.strip() for part in cookie.split(";")[1:] if not part.strip().startswith("expires")}
        seen.append(f"{name}: {'; '.join(sorted(flags))}")
        wrong += [f"{name}: {flag} {'missing' if present else 'present'}"
                  for flag, present in expected.items() if (flag in flags) != present]
    figures.check("A5", "session cookie flags", f"{len(COOKIE_CASES)} configurations",
                  "HttpOnly, SameSite=Lax, Path = the app's root; Secure with COOKIE_SECURE",
                  "; ".join(wrong) if wrong else " | ".join(seen), not wrong)


def test_a6_session_tokens_are_unique_256_bit_and_stored_hashed(figures, server, admin):
    n = sized(200, 1000)
    tokens = [server.client().login("admin").cookies["sid"] for _ in range(n)]
    jsonfile.flush_all()
    raw = (server.data / "db.json").read_bytes()
    stored = read_db(server.data)["sessions"]
    hashed = sum(hashlib.sha256(t.encode()).hexdigest() in stored for t in tokens)
    well_formed = sum(bool(re.fullmatch(r"[0-9a-f]{64}", t)) for t in tokens)
    in_clear = sum(t.encode() in raw for t in tokens)
    figures.check("A6", "session token quality", f"{n} sessions",
                  "all unique, 256 bits (64 hex digits), only their SHA-256 stored",
                  f"{len(set(tokens))} unique, {well_formed} of 64 hex digits, {hashed} stored as SHA-256, "
                  f"{in_clear} in clear", len(set(tokens)) == n == well_formed == hashed and in_clear == 0)


def test_a13_wrong_codes_are_limited_like_wrong_passwords(figures, server, reader_user, clock):
    """Guesses of the code step, with a ticket from a right password: the same limit as passwords,
    forged X-Forwarded-For or not, and the right code refused once it is reached."""
    n = sized(60, 200)
    secret, _ = twofactor.enrol(reader_user, clock)
    ticket = server.client().post("/api/login", {"name": "reader", "password": PASSWORD})[2]["ticket"]
    client, wrong = server.client(), twofactor.other_than(twofactor.code(secret, clock))
    statuses, retry_after = {}, True
    for i in range(n):
        headers = {"X-Forwarded-For": f"198.51.100.{i % 250 + 1}"} if i % 2 else {}
        status, answer_headers, _ = client.post("/api/login/code", {"ticket": ticket, "code": wrong}, headers=headers)
        statuses[status] = statuses.get(status, 0) + 1
        retry_after = retry_after and (status != 429 or int(answer_headers.get("Retry-After") or 0) > 0)
    right = client.post("/api/login/code", {"ticket": ticket, "code": twofactor.code(secret, clock)})[0]
    password = server.client().post("/api/login", {"name": "reader", "password": PASSWORD})[0]
    figures.check("A13", "code guesses after a right password", f"{n} wrong codes, then the right one",
                  "≤ 10 checked (401), the rest 429 with Retry-After; then the right code and the password 429 too",
                  f"{statuses}; right code: {right}; password: {password}",
                  statuses.get(401, 0) <= 10 and statuses.get(429) == n - statuses.get(401, 0) and retry_after
                  and right == 429 and password == 429)


def test_a14_the_sign_in_header_counts_only_from_the_trusted_proxy(figures, start, settings):
    """The same header, naming the admin, from many addresses that are not the proxy (a forged
    X-Forwarded-For naming the proxy included), then from the proxy."""
    n = sized(40, 200)
    settings.TRUSTED_PROXIES = [ipaddress.ip_network("10.0.0.2")]
    settings.REMOTE_USER_HEADER, settings.REMOTE_SIGNUP = "Remote-User", True
    start()
    local = {"REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "localhost:8080"}
    assert Client(**local).post("/api/signup", {"name": "admin", "password": PASSWORD},
                                content_type="application/json").status_code == 200
    spoofed = 0
    for i in range(n):
        where = {"REMOTE_ADDR": f"203.0.113.{i % 250 + 1}" if i % 3 else "127.0.0.1", "HTTP_HOST": "manga.example.org"}
        headers = {"Remote-User": "admin" if i % 2 else f"invented{i}", "X-Forwarded-For": "10.0.0.2"}
        spoofed += Client(**where).get("/api/me", headers=headers).status_code != 401
    made = users.user_count() - 1
    browser = Client(REMOTE_ADDR="10.0.0.2", HTTP_HOST="manga.example.org")
    trusted = [browser.get("/api/me", headers={"Remote-User": "admin"}) for _ in range(n)]
    signed_in = sum(r.status_code == 200 and r.json()["name"] == "admin" for r in trusted)
    sessions_made = sum("sid" in r.cookies for r in trusted)
    figures.check("A14", "the proxy's sign-in header", f"{n} forged from elsewhere, {n} from the proxy",
                  "0 forged accepted, 0 accounts made by them; all from the proxy signed in with 1 session",
                  f"{spoofed} forged accepted, {made} accounts made; from the proxy {signed_in} signed in, "
                  f"{sessions_made} session(s) made",
                  spoofed == 0 and made == 0 and signed_in == n and sessions_made == 1)
