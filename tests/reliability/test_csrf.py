"""Cross-site requests and safe GETs (battery C1, C2, C3), through the app in process.

The routes come from the authorisation matrix (tests/test_authz_matrix.py), so a new route is
covered here as soon as it has its row there. Each case compares db.json before and after.
"""
import json

import pytest

from mangacircus import jsonfile
from tests import test_authz_matrix as matrix
from tests.reliability.support import read_db
from tests.test_authz_matrix import MATRIX, NOTE, PERSONAS

pytestmark = pytest.mark.reliability
# The matrix's fixtures: its server (no scraper daemon) and the four personas with their test data.
server, personas = matrix.server, matrix.personas

MUTATING = [(path, body) for _, method, path, body, *_ in MATRIX if method == "POST" and path.startswith("/api/")]
# The apps' routes (/komga/, /opds/) are JSON APIs, not pages: C4 holds them to 415 for any body but JSON.
PAGES = sorted({path for _, method, path, *_ in MATRIX if method == "GET" and not path.startswith(
    ("/api/", "/lib", "/thumb", "/komga/", "/opds/"))})
GETS = [(path, expected) for _, method, path, _, *expected in MATRIX if method == "GET"]


def saved(server):
    jsonfile.flush_all()
    return read_db(server.data)


FORMS = [
    ("text/plain", b'{"name": "admin", "password": "x", "skipCovers": true, "m": "Moon Garden", "c": "1/2"}'),
    ("application/x-www-form-urlencoded", b"name=made&password=correct+horse&m=Moon+Garden&c=1%2F2&all=true"),
    ("multipart/form-data; boundary=xyz",
     b'--xyz\r\nContent-Disposition: form-data; name="name"\r\n\r\nmade\r\n--xyz--\r\n'),
]


def test_c1_form_posts_change_nothing(figures, server, personas):
    """text/plain, urlencoded and multipart POSTs (what a cross-site HTML form can send) to every
    mutating /api/ route and, without a CSRF token, to every page; and a sign-in by GET."""
    admin = personas["admin"]()
    before, wrong, sent = saved(server), [], 0
    for path, _ in MUTATING:
        for content_type, raw in FORMS:
            status = admin.request("POST", path, raw=raw, headers={"Content-Type": content_type})[0]
            sent += 1
            if status != 415:
                wrong.append((path, content_type, status))
    for path in PAGES:
        for content_type, raw in FORMS[1:]:
            status = admin.request("POST", path, raw=raw, headers={"Content-Type": content_type})[0]
            sent += 1
            if status not in (403, 405):
                wrong.append((path, content_type, status))
    visitor = personas["anonymous"]()
    status, headers, _ = visitor.get("/api/login?name=admin&password=correct+horse")
    signed_in = any(c.startswith("sid=") for c in headers.get_all("Set-Cookie") or [])
    changed = sorted(k for k, v in saved(server).items() if v != before.get(k))
    figures.check("C1", "cross-site form posts", f"{sent} POSTs ({len(MUTATING)} API routes, {len(PAGES)} pages) "
                  "+ a GET sign-in", "415 (API) or 403 (pages, no CSRF token); db.json unchanged; no GET sign-in",
                  f"{len(wrong)} other answers; sections changed: {changed or 'none'}; GET /api/login: {status}, "
                  f"session {'issued' if signed_in else 'none'}" + (f": {wrong[:3]}" if wrong else ""),
                  not wrong and not changed and not signed_in)


def test_c2_cross_site_and_foreign_origin_json_posts_are_refused(figures, server, personas):
    admin = personas["admin"]()
    here = f"127.0.0.1:{server.port}"
    markings = [
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "cross-site", "Origin": f"http://{here}"},
        {"Sec-Fetch-Site": "same-site", "Origin": f"http://sub.localhost:{server.port}"},
        {"Origin": "http://evil.example"},
        {"Origin": f"https://{here}"},
        {"Origin": f"http://127.0.0.1:{server.port + 1}"},
        {"Origin": f"http://{here}.evil.example"},
        {"Origin": "null"},
    ]
    before, wrong, sent = saved(server), [], 0
    for path, body in MUTATING:
        for headers in markings:
            status = admin.post(path, body, headers=headers)[0]
            sent += 1
            if status != 403:
                wrong.append((path, headers, status))
    changed = sorted(k for k, v in saved(server).items() if v != before.get(k))
    figures.check("C2", "Sec-Fetch-Site and Origin on JSON POSTs", f"{sent} POSTs ({len(markings)} markings)",
                  "403 for cross-site, a foreign Origin, or another scheme or port; db.json unchanged",
                  f"{len(wrong)} other answers; sections changed: {changed or 'none'}"
                  + (f": {wrong[:3]}" if wrong else ""), not wrong and not changed)


def only_notes_of_the_opened_chapter_marked_read(before, after):
    """The documented exception (docs/api.md, GET /api/chapter): opening a chapter marks that
    chapter's notifications read. Whether the difference is only that."""
    if {k: v for k, v in before.items() if k != "notes"} != {k: v for k, v in after.items() if k != "notes"}:
        return False
    for user, notes in after["notes"].items():
        for old, new in zip(before["notes"].get(user, []), notes):
            if old != new and not (new == {**old, "read": True} and (new["m"], new["c"]) == (NOTE["m"], NOTE["c"])):
                return False
    return True


def test_c3_get_routes_change_nothing_in_db_json(figures, server, personas):
    clients = {name: make() for name, make in personas.items()}
    before = saved(server)
    sent = 0
    for path, _ in GETS:
        for persona in PERSONAS:
            clients[persona].get(path)
            sent += 1
    after = saved(server)
    changed = sorted(k for k, v in after.items() if v != before.get(k))
    exception = changed == ["notes"] and only_notes_of_the_opened_chapter_marked_read(before, after)
    figures.check("C3", "GET routes are safe", f"{sent} GETs ({len(GETS)} rows × {len(PERSONAS)} personas)",
                  "db.json unchanged, but for the documented exception: GET /api/chapter marks that "
                  "chapter's notifications read",
                  f"sections changed: {changed or 'none'}" + (" (the documented exception only)" if exception else ""),
                  not changed or exception)


APP_WRITES = [(method, path, body) for _, method, path, body, *_ in MATRIX
              if method in ("POST", "PATCH", "DELETE") and path.startswith("/komga/")]


def test_c4_an_origin_with_user_info_or_more_than_an_origin_and_odd_content_types_are_refused(figures, server,
                                                                                              personas):
    """Origins a browser never sends but a parser could read as this server (user info before the
    host, a path, a query), on every mutating /api/ route and every /komga/ write; and on the /komga/
    writes the content types a no-cors fetch can send, without any Origin."""
    admin = personas["admin"]()
    here = f"127.0.0.1:{server.port}"
    origins = [f"http://evil@{here}", f"http://evil:secret@{here}", f"http://{here}/", f"http://{here}/evil",
               f"http://{here}?evil", f"http://{here}#evil"]
    before, wrong, sent = saved(server), [], 0
    for path, body in MUTATING:
        for origin in origins:
            status = admin.post(path, body, headers={"Origin": origin})[0]
            sent += 1
            if status != 403:
                wrong.append((path, origin, status))
    for method, path, body in APP_WRITES:
        for origin in origins:
            status = admin.request(method, path, body=body, headers={"Origin": origin})[0]
            sent += 1
            if status != 403:
                wrong.append((method, path, origin, status))
        for content_type in ("application/json, text/plain", "text/plain", "text/plain, application/json"):
            raw = b"" if body is None else json.dumps(body).encode()
            status = admin.request(method, path, raw=raw, headers={"Content-Type": content_type})[0]
            sent += 1
            if status != 415:
                wrong.append((method, path, content_type, status))
    changed = sorted(k for k, v in saved(server).items() if v != before.get(k))
    figures.check("C4", "Origin with user info or a path; /komga/ content types", f"{sent} writes "
                  f"({len(MUTATING)} API routes, {len(APP_WRITES)} app writes, {len(origins)} origins)",
                  "403 for each origin, 415 for each content type but JSON; db.json unchanged",
                  f"{len(wrong)} other answers; sections changed: {changed or 'none'}"
                  + (f": {wrong[:3]}" if wrong else ""), not wrong and not changed)
