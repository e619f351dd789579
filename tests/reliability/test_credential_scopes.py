"""Each kind of credential reaches what docs/apps.md says and nothing more (battery A10): every row of
the authorisation matrix (tests/test_authz_matrix.py) is sent with one credential of the admin at a
time, presented every way a client could present it (as the `sid` cookie, the apps' session cookie,
X-Auth-Token, X-API-Key, a Bearer header, X-Local-Admin), through the app in process.

- web session (the sign-in form's `sid`): every route but the apps' (/komga/, /opds/), as the admin;
- app session from an API key, app session from the password (HTTP Basic), the API key itself: the
  apps' routes as the admin, and everything else as if anonymous;
- a peer's bearer secret: the peer API only;
- the local-admin token: /api/local/ only.
"""
import pytest

from accounts import apikeys
from peers import store as peers
from tests import test_authz_matrix as matrix
from tests.reader.komga.apps import basic
from tests.test_authz_matrix import FRESH_SESSION, MATRIX

pytestmark = pytest.mark.reliability
server, personas = matrix.server, matrix.personas

APP_ROUTES = ("/komga/", "/opds/")
PEER_SECRET = "matrix-accepted-secret-0123456789abcdef"
NAMED_ONCE = {"/komga/api/v1/collections", "/komga/api/v1/readlists"}  # a name is taken once: each makes its own
PEER_ANSWERS = {"/api/peer/catalog": 200}  # the peer shares nothing: its catalog is empty, a page is not there
# Public and answered by the ceremony's cookie, which the row before set in the matrix's clients; a
# fresh client without it gets 400 whatever credential it carries, and no credential opens it.
NEEDS_THE_BEGIN = {"/api/passkeys/login/finish"}


def app_session(server, headers):
    client = server.client()
    status = client.get("/komga/api/v2/users/me", headers=headers)[0]
    assert status == 200, status
    return client.cookies["MC-KOMGA-SESSION"]


def every_way(token):
    """A token presented as each credential a route might take."""
    return {"cookies": {"sid": token, "MC-KOMGA-SESSION": token},
            "headers": {"X-Auth-Token": token, "X-API-Key": token, "Authorization": f"Bearer {token}",
                        "X-Local-Admin": token}}


def credentials(server):
    from mangacircus import localadmin

    key = apikeys.create("admin", "scope matrix")
    peers.add("scopepeer", "https://peer.example", "scope-present-secret-0123456789", accept=PEER_SECRET)
    web = server.client().login("admin").cookies["sid"]
    return {
        "web session": every_way(web),
        "app session from a key": every_way(app_session(server, {"X-API-Key": key})),
        "app session from Basic": every_way(app_session(server, {"Authorization": basic("admin")})),
        "API key": every_way(key),
        "peer bearer": every_way(PEER_SECRET),
        "local-admin token": every_way(localadmin.token()),
    }


def expected(kind, path, anonymous, admin):
    app_route = path.startswith(APP_ROUTES)
    if kind == "web session":
        return anonymous if app_route else admin
    if kind in ("app session from a key", "app session from Basic", "API key"):
        return admin if app_route else anonymous
    if kind == "peer bearer":
        return PEER_ANSWERS.get(path, 404 if path.startswith("/api/peer/") else anonymous)
    return 200 if path == "/api/local/ping" else anonymous


def test_a10_each_credential_reaches_its_own_routes_only(figures, server, personas):
    kinds = credentials(server)
    wrong, sent = [], 0
    for _pattern, method, path, body, anonymous, _user, _other, admin in MATRIX:
        if path in FRESH_SESSION or path in NEEDS_THE_BEGIN:
            continue  # they end the session they use; the other rows of their prefix cover their scope
        for kind, way in kinds.items():
            client = server.client()
            client.cookies = dict(way["cookies"])
            named = method == "POST" and path in NAMED_ONCE
            sent_body = {**body, "name": f"{body['name']} ({kind})"} if named else body
            status = client.request(method, path, body=sent_body, headers=dict(way["headers"]))[0]
            sent += 1
            want = expected(kind, path, anonymous, admin)
            if status != want:
                wrong.append(f"{method} {path} with the {kind}: {status}, expected {want}")
    rows = len(MATRIX) - len(FRESH_SESSION)
    figures.check("A10", "credential scopes", f"{sent} requests ({rows} matrix rows × {len(kinds)} credentials)",
                  "web session: all but the apps' routes; app sessions and API keys: the apps' routes only; "
                  "peer bearer: the peer API only; local-admin token: /api/local/ only",
                  f"{len(wrong)} answers out of scope" + (f": {wrong[:4]}" if wrong else ""), not wrong)
