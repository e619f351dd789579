"""Authorisation matrix: every route of the URLconf × {anonymous, user, another user, admin}.

MATRIX has one or more rows per route pattern: (pattern, method, path, JSON body or None,
expected statuses for anonymous, user, other, admin). "user" owns the test data (a notification,
progress), "other" is a second plain user who must not reach it. Rows run through the whole
middleware stack of the app in process (tests/support/app.py).

The URLconf is walked with django.urls.get_resolver(), so a new route without a row here, or a row
for a route that is gone, fails test_it_has_a_row_for_every_route. To add a route, add its row.
POSTs to HTML pages are left out: they carry a CSRF token, and their auth check is the same
decorator as their GET.
"""
import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from bench.server import free_port
from tests.conftest import PASSWORD
from tests.support.app import AppServer
from tests.support.pages import add_notes, wait_for_library

MOON = "Moon%20Garden"
NOTE = {
    "id": "matrix1", "t": 1_790_000_000_000, "m": "Moon Garden", "c": "1/2", "text": "Moon Garden · Ch. 2",
    "read": False,
}
CHAPTER = {"m": "Moon Garden", "c": "1/2"}
VOTE = {**CHAPTER, "v": "c0002 Roots [Official]", "value": 1}
PROGRESS = {**CHAPTER, "v": "c0002 Roots [Official]", "p": 1, "n": 2, "done": False, "shift": []}
PULSE = {**CHAPTER, "v": "c0002 Roots [Official]", "session": "matrix-session", "seq": 1}

LIB = r"^lib(?:/(?P<rel>[\s\S]*))?$"
THUMB = r"^thumb(?:/(?P<name>[\s\S]*))?$"

#  pattern                                   method  path                                  body              anon user other admin
MATRIX = [
    ("",                                      "GET",  "/",                                  None,             302, 200, 200, 200),
    ("login/",                                "GET",  "/login/",                            None,             200, 200, 200, 200),
    ("signup/",                               "GET",  "/signup/",                           None,             302, 302, 302, 302),
    ("logout/",                               "GET",  "/logout/",                           None,             405, 405, 405, 405),
    ("manga/<str:name>/",                     "GET",  f"/manga/{MOON}/",                    None,             302, 200, 200, 200),
    ("manga/<str:name>/",                     "GET",  "/manga/Invented/",                   None,             302, 404, 404, 404),
    ("notifications/",                        "GET",  "/notifications/",                    None,             302, 200, 200, 200),
    ("settings/",                             "GET",  "/settings/",                         None,             302, 302, 302, 302),
    ("settings/user/profile/",                "GET",  "/settings/user/profile/",            None,             302, 200, 200, 200),
    ("settings/user/reading/",                "GET",  "/settings/user/reading/",            None,             302, 200, 200, 200),
    ("settings/user/notifications/",          "GET",  "/settings/user/notifications/",      None,             302, 200, 200, 200),
    ("settings/user/clock/",                  "GET",  "/settings/user/clock/",              None,             302, 200, 200, 200),
    ("settings/admin/users/",                 "GET",  "/settings/admin/users/",             None,             302, 403, 403, 200),
    ("settings/admin/users/<str:name>/",      "GET",  "/settings/admin/users/other/",       None,             302, 403, 403, 405),
    ("settings/admin/users/<str:name>/delete/", "GET", "/settings/admin/users/other/delete/", None,           302, 403, 403, 200),
    ("settings/admin/users/<str:name>/delete/", "GET", "/settings/admin/users/nobody/delete/", None,          302, 403, 403, 404),
    ("settings/admin/library/",               "GET",  "/settings/admin/library/",           None,             302, 403, 403, 200),
    ("api/local/<str:action>",                "POST", "/api/local/ping",                    {},               401, 401, 401, 401),
    ("api/auth",                              "GET",  "/api/auth",                          None,             200, 200, 200, 200),
    ("api/signup",                            "POST", "/api/signup",                        {"name": "x9", "password": PASSWORD}, 403, 403, 403, 403),
    ("api/login",                             "POST", "/api/login",                         {"name": "nobody", "password": "wrong password"}, 401, 401, 401, 401),
    ("api/logout",                            "POST", "/api/logout",                        {},               401, 200, 200, 200),
    ("api/me",                                "GET",  "/api/me",                            None,             401, 200, 200, 200),
    ("api/settings",                          "POST", "/api/settings",                      {"skipCovers": True}, 401, 200, 200, 200),
    ("api/password",                          "POST", "/api/password",                      {"old": "x", "new": "short"}, 401, 400, 400, 400),
    ("api/library",                           "GET",  "/api/library",                       None,             401, 200, 200, 200),
    ("api/manga",                             "GET",  f"/api/manga?m={MOON}",               None,             401, 200, 200, 200),
    ("api/manga",                             "GET",  "/api/manga?m=Invented",              None,             401, 404, 404, 404),
    ("api/read",                              "POST", "/api/read",                          CHAPTER,          401, 200, 200, 200),
    ("api/unread",                            "POST", "/api/unread",                        CHAPTER,          401, 200, 200, 200),
    ("api/vote",                              "POST", "/api/vote",                          VOTE,             401, 200, 200, 200),
    ("api/follow",                            "POST", "/api/follow",                        {"m": "Moon Garden", "on": True}, 401, 200, 200, 200),
    ("api/follow",                            "POST", "/api/follow",                        {"m": "Invented", "on": True}, 401, 404, 404, 404),
    ("api/notifications",                     "GET",  "/api/notifications",                 None,             401, 200, 200, 200),
    ("api/notifications/read",                "POST", "/api/notifications/read",            {"id": "matrix1"}, 401, 200, 404, 404),
    ("api/notifications/read",                "POST", "/api/notifications/read",            {"all": True},    401, 200, 200, 200),
    # the Active Reading Clock: off by default, so pulses are refused; export and delete are one's own
    ("api/reading/pulse",                     "POST", "/api/reading/pulse",                 PULSE,            401, 403, 403, 403),
    ("api/reading/export",                    "GET",  "/api/reading/export",                None,             401, 200, 200, 200),
    ("api/reading/delete",                    "POST", "/api/reading/delete",                {"m": "Moon Garden"}, 401, 200, 200, 200),
    ("api/reading/delete",                    "POST", "/api/reading/delete",                {"m": "Invented"}, 401, 404, 404, 404),
    ("api/reading/delete",                    "POST", "/api/reading/delete",                {"all": True, "password": "wrong password"}, 401, 401, 401, 401),
    ("api/admin",                             "GET",  "/api/admin",                         None,             401, 403, 403, 200),
    ("api/admin/user",                        "POST", "/api/admin/user",                    {"name": "made", "password": PASSWORD}, 401, 403, 403, 200),
    ("api/admin/user/role",                   "POST", "/api/admin/user/role",               {"name": "nobody", "admin": True}, 401, 403, 403, 404),
    ("api/admin/user/delete",                 "POST", "/api/admin/user/delete",             {"name": "nobody"}, 401, 403, 403, 404),
    # reader/read_urls.py: the reader page and its data
    ("read/<str:manga>/<str:book>/<str:chapter>/", "GET", f"/read/{MOON}/1/2/",              None,             302, 200, 200, 200),
    ("read/<str:manga>/<str:book>/<str:chapter>/", "GET", "/read/Invented/1/1/",             None,             302, 404, 404, 404),
    ("api/chapter",                           "GET",  f"/api/chapter?m={MOON}&c=1/2",        None,             401, 200, 200, 200),
    ("api/chapter",                           "GET",  f"/api/chapter?m={MOON}&c=9/9",        None,             401, 404, 404, 404),
    ("api/progress",                          "POST", "/api/progress",                       PROGRESS,         401, 200, 200, 200),
    ("api/progress",                          "POST", "/api/progress",                       {**PROGRESS, "m": "Invented"}, 401, 404, 404, 404),
    # library/urls.py: page images, cover thumbnails, "scan now"
    (LIB,                                     "GET",  f"/lib/{MOON}/b01%20Spring/c0001%20Seeds/001.png", None, 401, 200, 200, 200),
    # A signature authorises nothing in the reader itself: /lib/ checks the session (docs/proxy.md).
    (LIB,                                     "GET",  f"/lib/{MOON}/b01%20Spring/c0001%20Seeds/001.png?e=4102444800&s=forged", None, 401, 200, 200, 200),
    (LIB,                                     "GET",  f"/lib/{MOON}/manga.json",             None,             401, 404, 404, 404),
    (LIB,                                     "GET",  "/lib/..%2F..%2Fdata%2Fdb.json",       None,             401, 404, 404, 404),
    (THUMB,                                   "GET",  f"/thumb/{MOON}",                      None,             401, 200, 200, 200),
    (THUMB,                                   "GET",  "/thumb/Invented",                     None,             401, 404, 404, 404),
    ("api/admin/rescan",                      "POST", "/api/admin/rescan",                   {"full": False},  401, 403, 403, 200),
    # scraper/urls.py: the admin screen and the proxy to the daemon (not running here: 503)
    ("settings/admin/scraper/",               "GET",  "/settings/admin/scraper/",            None,             302, 403, 403, 302),
    ("settings/admin/scraper/<slug:tab>/",    "GET",  "/settings/admin/scraper/queue/",      None,             302, 403, 403, 200),
    ("settings/admin/scraper/<slug:tab>/",    "GET",  "/settings/admin/scraper/nothing/",    None,             302, 403, 403, 404),
    ("api/admin/scraper/<path:path>",         "GET",  "/api/admin/scraper/status",           None,             401, 403, 403, 503),
    ("api/admin/scraper/<path:path>",         "POST", "/api/admin/scraper/jobs/x/cancel",    {},               401, 403, 403, 503),
    ("api/admin/scraper/<path:path>",         "GET",  "/api/admin/scraper/no.such/route",    None,             401, 403, 403, 404),
]
PERSONAS = ("anonymous", "user", "other", "admin")
FRESH_SESSION = {"/api/logout"}  # rows that end the session they use run on a session of their own


def url_patterns(resolver=None, prefix=""):
    """Every route of the URLconf as its pattern string ("manga/<str:name>/")."""
    found = []
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            found += url_patterns(entry, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            found.append(prefix + str(entry.pattern))
    return found


def test_it_has_a_row_for_every_route():
    routes = set(url_patterns())
    rows = {row[0] for row in MATRIX}
    assert sorted(routes - rows) == [], "routes without a row in MATRIX"
    assert sorted(rows - routes) == [], "rows in MATRIX for routes that do not exist"


@pytest.fixture
def server(data_dir, library_dir):
    """A server whose scraper daemon is certainly not running (a closed port)."""
    srv = AppServer(data_dir, library_dir, env={"SCRAPER_URL": f"http://127.0.0.1:{free_port()}"}).start()
    yield srv
    srv.stop()


@pytest.fixture
def personas(server, admin):
    for name in ("user", "other"):
        assert admin.post("/api/admin/user", {"name": name, "password": PASSWORD})[0] == 200
    wait_for_library(admin, 2)
    add_notes(server, "user", [NOTE])
    return {"anonymous": lambda: server.client(), "admin": lambda: server.client().login("admin"),
            "user": lambda: server.client().login("user"), "other": lambda: server.client().login("other")}


def test_it_answers_every_route_with_the_expected_status_for_each_persona(server, personas):
    clients = {name: make() for name, make in personas.items()}
    wrong = []
    for pattern, method, path, body, *expected in MATRIX:
        for persona, status in zip(PERSONAS, expected):
            client = personas[persona]() if path in FRESH_SESSION else clients[persona]
            got = client.request(method, path, body=body)[0]
            if got != status:
                wrong.append(f"{method} {path} as {persona}: {got}, expected {status}")
    assert wrong == []
