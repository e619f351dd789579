"""Path traversal and hostile ids (battery P1, P2, P3).

P1 runs the payloads of tests/library/test_lib_traversal.py (~40 ways to write "../" and the file
name's end, × 4 targets) against /lib/ and /thumb/, with and without a session; P2 puts hostile
ids into m, c and v of every route that takes them; P3 sends a foreign Host. In process, except
P3's raw request lines, which need a real socket.
"""
import http.client
from urllib.parse import quote

import pytest

from bench.server import Server
from mangacircus import jsonfile, middleware
from tests.library.test_lib_traversal import UP, payloads, raw_get, targets
from tests.reliability.support import raw_exchange, read_db, status_of
from tests.support.app import AppServer
from tests.support.pages import wait_for_library

pytestmark = pytest.mark.reliability


def sweep(server, paths, cookie, marker):
    """GET each path raw: (requests sent, [(path, status) that are wrong])."""
    sent, wrong = 0, []
    for path in paths:
        try:
            status, body = raw_get(server, path, cookie)
        except http.client.InvalidURL:
            continue  # a path the client itself refuses to send
        sent += 1
        expected = (400, 404) if cookie else (400, 401)
        if status not in expected or marker in body:
            wrong.append((path, status))
    return sent, wrong


def test_p1_no_path_reaches_a_file_outside_the_pages(figures, server, reader_user, data_dir, tmp_path):
    wait_for_library(reader_user, 2)
    cookie = f"sid={reader_user.cookies['sid']}"
    sent, wrong = 0, []
    for ups, rest, marker in targets(tmp_path, data_dir):
        lib = payloads(ups, rest)
        for path_set in (lib, ["/thumb/" + p[len("/lib/"):] for p in lib]):
            for session in (None, cookie):
                n, bad = sweep(server, path_set, session, marker)
                sent, wrong = sent + n, wrong + bad
    figures.check("P1", "traversal matrix on /lib/ and /thumb/", f"{sent} requests",
                  "0 × 200 or target bytes, 0 × 5xx; without a session 401 (or 400)",
                  f"{len(wrong)} wrong" + (f": {wrong[:3]}" if wrong else ""), sent >= 600 and not wrong)


# Hostile values for an id field: traversal forms, absolute paths, NUL, a look-alike of a real id,
# oversized, and every JSON type that is not a string.
HOSTILE = [up * 3 + "data/db.json" for up in UP] + [
    "/etc/passwd", "Moon Garden/../Long Scroll", "Moon Garden\0", "1/1/../../x", "..", ".", "", " ",
    "moon garden", "Moon Garden ", "x" * 10_000, 1, 1.5, True, None, [], {}, ["Moon Garden"], {"m": "Moon Garden"},
]
VALID = {"m": "Moon Garden", "c": "1/2", "v": "c0002 Roots [Official]"}
# Each route that takes ids, with the body its other fields need (None: a GET taking them in the URL).
ROUTES = [
    ("/api/progress", {"p": 0, "n": 2, "done": False, "shift": []}, "mcv"),
    ("/api/vote", {"value": 1}, "mcv"),
    ("/api/reading/pulse", {"session": "rel-session", "seq": 1, "activeMs": 1000}, "mcv"),
    ("/api/read", {}, "mc"),
    ("/api/unread", {}, "mc"),
    ("/api/follow", {"on": True}, "m"),
    ("/api/reading/delete", {}, "m"),
    ("/api/notifications/read", {}, "id"),
    ("/api/manga", None, "m"),
    ("/api/chapter", None, "mcv"),
    ("/manga/{m}/", None, "m"),
    ("/read/{m}/{b}/{c}/", None, "mbc"),
]


def requests_for(route, body, fields, value):
    """(method, path, JSON body) with `value` in each of the route's id fields in turn."""
    keys = ["id"] if fields == "id" else list(fields)
    for key in keys:
        ids = {**VALID, "b": "1", key: value}
        if body is not None:
            yield "POST", route, {**body, **{k: ids[k] for k in keys}}
        elif not isinstance(value, str) or (key == "v" and not value):
            continue  # a URL carries only text; GET /api/chapter without v shows the top-ranked version
        elif "{" in route:
            yield "GET", route.format(**{k: quote(ids[k] if k != "c" else ids[k].split("/")[-1], safe="")
                                          for k in ("m", "b", "c")}), None
        else:
            yield "GET", route + "?" + "&".join(f"{k}={quote(ids[k], safe='')}" for k in keys), None


def test_p2_hostile_ids_get_400_or_404_and_add_nothing_to_db_json(figures, server, admin, reader_user):
    wait_for_library(reader_user, 2)
    assert reader_user.post("/api/settings", {"readingClock": True})[0] == 200
    jsonfile.flush_all()
    before = read_db(server.data)
    sent, wrong = 0, []
    for route, body, fields in ROUTES:
        for value in HOSTILE:
            for method, path, payload in requests_for(route, body, fields, value):
                try:
                    status = reader_user.request(method, path, body=payload)[0]
                except http.client.InvalidURL:
                    continue
                sent += 1
                too_long = len(path.encode()) > middleware.MAX_URL  # 414: the address, not the id, is refused
                if status not in (400, 404) and not (too_long and status == 414):
                    wrong.append((method, path[:60], repr(payload)[:80], status))
    jsonfile.flush_all()
    after = read_db(server.data)
    grown = {key: after[key] for key in after if after[key] != before.get(key)}
    figures.check("P2", "hostile ids in m, c, v, id of every route taking them", f"{sent} requests",
                  "400 or 404 only; db.json gains nothing",
                  f"{len(wrong)} other answers; sections changed: {sorted(grown) or 'none'}"
                  + (f": {wrong[:3]}" if wrong else ""),
                  sent >= 500 and not wrong and not grown)


FOREIGN = "evil.example"
PAGES = ["/", "/login/", "/manga/Moon%20Garden/", "/settings/", "/notifications/", "/read/Moon%20Garden/1/2/",
         "/api/auth", "/api/me", "/nowhere", "/lib/x.png"]


@pytest.mark.process
def test_p3_a_foreign_host_is_never_written_back(figures, data_dir, library_dir):
    """With ALLOWED_HOSTS=* (the default) a foreign Host, an absolute request line or an
    X-Forwarded-Host is answered, but no answer names the foreign host."""
    srv = Server(data_dir, library_dir, env={"ACCESS_LOG": "0"}).start()
    echoed, errors, sent = [], [], 0
    try:
        admin = srv.client().signup("admin")
        for cookie in ("", f"Cookie: sid={admin.cookies['sid']}\r\n"):
            for path in PAGES:
                for head in (f"GET {path} HTTP/1.1\r\nHost: {FOREIGN}\r\n",
                             f"GET http://{FOREIGN}{path} HTTP/1.1\r\nHost: 127.0.0.1:{srv.port}\r\n",
                             f"GET http://{FOREIGN}{path} HTTP/1.1\r\nHost: {FOREIGN}\r\n",
                             f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Forwarded-Host: {FOREIGN}\r\n"):
                    answer = raw_exchange(srv.port, (head + cookie + "Connection: close\r\n\r\n").encode())
                    sent += 1
                    if FOREIGN.encode() in answer:
                        echoed.append(head.split("\r\n")[0])
                    if (status_of(answer) or 500) >= 500:
                        errors.append((head.split("\r\n")[0], status_of(answer)))
    finally:
        srv.stop()
    figures.check("P3", "foreign Host header, absolute request line", f"{sent} requests",
                  "0 answers naming the foreign host, 0 × 5xx",
                  f"{len(echoed)} echoed, {len(errors)} × 5xx or no answer"
                  + (f": {echoed[:2]} {errors[:2]}" if echoed or errors else ""),
                  not echoed and not errors)


def test_p3_with_allowed_hosts_set_every_route_refuses_a_foreign_host(figures, data_dir, library_dir):
    strict = AppServer(data_dir, library_dir, env={"ALLOWED_HOSTS": "127.0.0.1,localhost"}).start()
    try:
        answers = {p: strict.client().get(p, headers={"Host": FOREIGN})[0] for p in PAGES}
    finally:
        strict.stop()
    answered = sorted(p for p, status in answers.items() if status != 400)
    figures.check("P3-hosts", "foreign Host with ALLOWED_HOSTS set", f"{len(answers)} routes", "400 on every route",
                  f"{len(answers) - len(answered)} × 400; answered: {answered}", not answered)
