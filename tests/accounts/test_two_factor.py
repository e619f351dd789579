"""Two-factor sign-in (docs/accounts.md, "Two-factor sign-in"): set up in Settings → Profile, then
asked for after the password on /api/login and on the sign-in page; codes computed by pyotp from the
secret the page shows, on a clock the test moves."""
import re
from urllib.parse import urlencode

import orjson

from accounts import totp
from mangacircus import jsonfile
from tests.conftest import PASSWORD
from tests.support import twofactor
from tests.support.forms import post_form
from tests.support.twofactor import PROFILE, TWO_FACTOR, code, enrol, other_than, recovery_codes

clock = twofactor.clock


def login(server, body):
    return server.client().post("/api/login", {"name": "reader", "password": PASSWORD, **body})


def test_it_asks_for_the_code_after_the_password_and_signs_in_with_it(server, reader_user, clock):
    secret, _ = enrol(reader_user, clock)
    status, _, data = login(server, {})
    assert status == 401 and data["codeNeeded"] is True and data["error"].startswith("enter the code")
    client = server.client()
    status, _, answer = client.post("/api/login/code", {"ticket": data["ticket"], "code": code(secret, clock)})
    assert (status, answer) == (200, {"name": "reader"})
    assert client.get("/api/me")[0] == 200
    clock.advance(30)
    assert login(server, {"code": code(secret, clock)})[0] == 200  # or all in one request


def test_it_gives_no_session_before_the_code(server, reader_user, clock):
    enrol(reader_user, clock)
    client = server.client()
    status, headers, _ = client.post("/api/login", {"name": "reader", "password": PASSWORD})
    assert status == 401 and "sid" not in client.cookies and not headers.get_all("Set-Cookie")
    assert client.get("/api/me")[0] == 401


def test_it_refuses_a_wrong_code_a_used_one_and_one_outside_the_window(server, reader_user, clock):
    secret, _ = enrol(reader_user, clock)
    assert login(server, {"code": other_than(code(secret, clock))})[0] == 401
    assert login(server, {"code": code(secret, clock, steps=-3)})[0] == 401  # 90 s old
    assert login(server, {"code": code(secret, clock, steps=3)})[0] == 401  # 90 s ahead
    now = code(secret, clock)
    assert login(server, {"code": now})[0] == 200
    status, _, data = login(server, {"code": now})  # the same code again
    assert status == 401 and "used already" in data["error"]
    assert login(server, {"code": code(secret, clock, steps=-1)})[0] == 401  # older than the last used
    assert login(server, {"code": code(secret, clock, steps=1)})[0] == 200  # the next one, a drifting phone


def test_it_takes_each_recovery_code_once(server, reader_user, clock):
    _, codes = enrol(reader_user, clock)
    assert login(server, {"code": codes[0].lower().replace("-", " ")})[0] == 200  # case and dashes do not matter
    assert login(server, {"code": codes[0]})[0] == 401
    assert login(server, {"code": codes[1]})[0] == 200
    assert "8 recovery codes left" in reader_user.get(PROFILE)[2].decode()


def test_it_keeps_only_hashes_of_the_recovery_codes_and_logs_no_secret(server, reader_user, clock, caplog):
    secret, codes = enrol(reader_user, clock)
    jsonfile.flush_all()
    raw = (server.data / "db.json").read_bytes()
    assert not any(c.encode() in raw or c.replace("-", "").encode() in raw for c in codes)
    assert len(orjson.loads(raw)["twofactor"]["users"]["reader"]["recovery"]) == 10
    assert secret not in caplog.text and not any(c in caplog.text for c in codes)


def test_it_counts_wrong_codes_in_the_sign_in_rate_limit(server, reader_user, clock):
    secret, _ = enrol(reader_user, clock)
    ticket = login(server, {})[2]["ticket"]
    client = server.client()
    wrong = other_than(code(secret, clock))
    statuses = [client.post("/api/login/code", {"ticket": ticket, "code": wrong})[0] for _ in range(10)]
    assert statuses == [401] * 10
    status, headers, data = client.post("/api/login/code", {"ticket": ticket, "code": code(secret, clock)})
    assert status == 429 and int(headers["Retry-After"]) > 0 and "too many attempts" in data["error"]
    assert login(server, {})[0] == 429  # the password step shares the limit


def test_it_refuses_a_forged_or_stale_ticket(server, reader_user, clock):
    secret, _ = enrol(reader_user, clock)
    ticket = login(server, {})[2]["ticket"]
    forged = ticket[:-2] + ("AA" if not ticket.endswith("AA") else "BB")
    status, _, data = server.client().post("/api/login/code", {"ticket": forged, "code": code(secret, clock)})
    assert status == 401 and "name and password again" in data["error"]
    assert server.client().post("/api/login/code", {"ticket": "x", "code": 5})[0] == 400
    assert server.client().post("/api/login/code", {"code": "123456"})[0] == 400


def test_it_signs_in_on_the_page_in_two_steps(server, reader_user, clock):
    secret, _ = enrol(reader_user, clock)
    browser = server.client()
    status, _, html = post_form(browser, "/login/?next=/history/", {"name": "reader", "password": PASSWORD,
                                                                  "next": "/history/"})
    assert status == 200 and b'name="ticket"' in html and "sid" not in browser.cookies
    ticket = re.search(rb'name="ticket" value="([^"]+)"', html).group(1).decode()
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1).decode()

    def send(value):
        body = urlencode({"csrfmiddlewaretoken": token, "ticket": ticket, "next": "/history/", "code": value})
        return browser.request("POST", "/login/code/", raw=body.encode(),
                               headers={"Content-Type": "application/x-www-form-urlencoded"})

    status, _, page = send(other_than(code(secret, clock)))
    assert status == 401 and b"wrong code" in page and b'name="ticket"' in page
    real, ticket = ticket, ticket[:-2] + ("AA" if not ticket.endswith("AA") else "BB")
    status, _, page = send(code(secret, clock))
    assert status == 401 and b"name and password again" in page and b'name="password"' in page  # back to step 1
    ticket = real
    status, headers, _ = send(code(secret, clock))
    assert (status, headers["Location"]) == (302, "/history/")
    assert browser.get("/api/me")[2]["name"] == "reader"


def test_it_turns_off_with_a_code_and_then_asks_for_none(server, reader_user, clock):
    secret, _ = enrol(reader_user, clock)
    assert post_form(reader_user, PROFILE, {"action": "off", "code": "nonsense"}, action=TWO_FACTOR)[0] == 302
    assert totp.enabled("reader")  # a wrong code changes nothing
    assert post_form(reader_user, PROFILE, {"action": "off", "code": code(secret, clock)}, action=TWO_FACTOR)[0] == 302
    assert not totp.enabled("reader") and login(server, {})[0] == 200


def test_it_makes_new_recovery_codes_that_replace_the_old(server, reader_user, clock):
    secret, old = enrol(reader_user, clock)
    post_form(reader_user, PROFILE, {"action": "recovery", "code": code(secret, clock)}, action=TWO_FACTOR)
    new = recovery_codes(reader_user.get(PROFILE)[2].decode())
    assert len(new) == 10 and not set(new) & set(old)
    assert login(server, {"code": old[0]})[0] == 401
    assert login(server, {"code": new[0]})[0] == 200


def test_it_refuses_a_wrong_first_code_and_stays_off(server, reader_user, clock):
    post_form(reader_user, PROFILE, {"action": "start"}, action=TWO_FACTOR)
    status, headers, _ = post_form(reader_user, PROFILE, {"action": "confirm", "code": "12345x"}, action=TWO_FACTOR)
    assert status == 302 and not totp.enabled("reader")
    assert "not the app&#x27;s current one" in reader_user.get(PROFILE)[2].decode()
    assert login(server, {})[0] == 200
