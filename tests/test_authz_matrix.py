"""Authorisation matrix: every route of the URLconf × {anonymous, user, another user, admin}.

MATRIX has one or more rows per route pattern: (pattern, method, path, JSON body or None,
expected statuses for anonymous, user, other, admin). "user" owns the test data (a notification,
progress), "other" is a second plain user who must not reach it. Rows run through the whole
middleware stack of the app in process (tests/support/app.py).

The URLconf is walked with django.urls.get_resolver(), so a new route without a row here, or a row
for a route that is gone, fails test_it_has_a_row_for_every_route. To add a route, add its row.
POSTs to HTML pages are left out: they carry a CSRF token, and their auth check is the same
decorator as their GET.

A fifth persona, "restricted", is a plain user whom the admin limited to Long Scroll
(reader/access.py), or, in a library of two (Manga, Webtoons), to the library holding it. Every row runs for them too: they get the "other" column's status, except the
rows in RESTRICTED, where Moon Garden is hidden from them and answers exactly as a missing manga
does. Every row that names Moon Garden must be in RESTRICTED, so a new route about a manga cannot
forget the restriction unnoticed.
"""
import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from bench.server import free_port
from clients.komga.ids import book_id, series_id
from mangacircus import jsi18n
from reader import collections, readlists
from tests.conftest import PASSWORD
from tests.reader.komga.apps import basic
from tests.support.app import AppServer
from tests.support.pages import add_notes, wait_for_library

MOON = "Moon%20Garden"
JSI18N = f"/jsi18n/ja.{jsi18n.script('ja')[0]}.js"
NOTE = {
    "id": "matrix1", "t": 1_790_000_000_000, "m": "Moon Garden", "c": "1/2", "text": "Moon Garden · Ch. 2",
    "read": False,
}
CHAPTER = {"m": "Moon Garden", "c": "1/2"}
VOTE = {**CHAPTER, "v": "c0002 Roots [Official]", "value": 1}
PROGRESS = {**CHAPTER, "v": "c0002 Roots [Official]", "p": 1, "n": 2, "done": False, "shift": []}
RELATION = {"a": "Moon Garden", "type": "sequel", "b": "Long Scroll"}
PULSE = {**CHAPTER, "v": "c0002 Roots [Official]", "session": "matrix-session", "seq": 1}

CID = "c" + "m" * 20  # "user"'s private collection, holding Moon Garden (made in `personas`)
RID = "r" + "m" * 20  # "user"'s private read list, holding Moon Garden 1/1 (made in `personas`)
CBL = '<ReadingList><Name>R</Name><Books><Book Series="Long Scroll" Number="1"/></Books></ReadingList>'
PEER = {"name": "matrixpeer", "url": "https://peer.example", "present": "matrix-present-secret-0123456789"}
# The reading apps' routes (/komga/, /opds/): the personas carry the session cookie that Basic gave them.
SID = series_id("Moon Garden")
BID = book_id("Moon Garden", "1/2")
K1 = "komga/api/v1/"
KS, KB = f"/komga/api/v1/series/{SID}", f"/komga/api/v1/books/{BID}"
KC = f"/komga/api/v1/collections/{CID}"
KR, BID1 = f"/komga/api/v1/readlists/{RID}", book_id("Moon Garden", "1/1")

LIB = r"^lib(?:/(?P<rel>[\s\S]*))?$"
THUMB = r"^thumb(?:/(?P<name>[\s\S]*))?$"
KOMGA_NONE = r"komga/^api/v1/(?:age-ratings|sharing-labels)$"
KOMGA_REST = r"komga/^(?P<rest>[\s\S]*)$"
PAGE_THUMB = r"^lib-thumb(?:/(?P<rel>[\s\S]*))?$"

#  pattern                                   method  path                                  body              anon user other admin
MATRIX = [
    ("",                                      "GET",  "/",                                  None,             302, 200, 200, 200),
    ("login/",                                "GET",  "/login/",                            None,             200, 200, 200, 200),
    ("signup/",                               "GET",  "/signup/",                           None,             200, 200, 200, 200),
    ("logout/",                               "GET",  "/logout/",                           None,             405, 405, 405, 405),
    ("login/code/",                           "GET",  "/login/code/",                       None,             302, 302, 302, 302),
    ("login/oidc/",                           "GET",  "/login/oidc/",                       None,             404, 404, 404, 404),  # OIDC_ISSUER unset
    ("login/oidc/callback/",                  "GET",  "/login/oidc/callback/?code=c&state=s", None,           404, 404, 404, 404),
    ("manga/<str:name>/",                     "GET",  f"/manga/{MOON}/",                    None,             302, 200, 200, 200),
    ("manga/<str:name>/",                     "GET",  "/manga/Invented/",                   None,             302, 404, 404, 404),
    ("notifications/",                        "GET",  "/notifications/",                    None,             302, 200, 200, 200),
    ("history/",                              "GET",  "/history/",                          None,             302, 200, 200, 200),
    ("discover/",                             "GET",  "/discover/",                         None,             302, 200, 200, 200),
    ("api/discovery",                         "GET",  "/api/discovery",                     None,             401, 200, 200, 200),
    ("api/discovery/dismiss",                 "POST", "/api/discovery/dismiss",             {"m": "Moon Garden"}, 401, 200, 200, 200),
    ("api/discovery/dismiss",                 "POST", "/api/discovery/dismiss",             {"m": "Invented"}, 401, 404, 404, 404),
    ("settings/",                             "GET",  "/settings/",                         None,             302, 302, 302, 302),
    ("settings/user/profile/",                "GET",  "/settings/user/profile/",            None,             302, 200, 200, 200),
    ("settings/user/profile/two-factor/",     "GET",  "/settings/user/profile/two-factor/", None,             302, 405, 405, 405),
    ("settings/user/profile/passkeys/",       "GET",  "/settings/user/profile/passkeys/",   None,             302, 405, 405, 405),
    ("settings/admin/two-factor/",            "GET",  "/settings/admin/two-factor/",        None,             302, 403, 403, 405),
    ("settings/user/reading/",                "GET",  "/settings/user/reading/",            None,             302, 200, 200, 200),
    ("settings/user/notifications/",          "GET",  "/settings/user/notifications/",      None,             302, 200, 200, 200),
    ("settings/user/clock/",                  "GET",  "/settings/user/clock/",              None,             302, 200, 200, 200),
    ("settings/user/offline/",                "GET",  "/settings/user/offline/",            None,             302, 200, 200, 200),
    # offline reading: the service worker and its fallback page hold nobody's data
    ("sw.js",                                 "GET",  "/sw.js",                             None,             200, 200, 200, 200),
    ("offline/",                              "GET",  "/offline/",                          None,             200, 200, 200, 200),
    # the browser's translations hold nobody's data: the sign-in page needs them too
    ("jsi18n/<slug:lang>.<slug:digest>.js",   "GET",  JSI18N,                               None,             200, 200, 200, 200),
    ("jsi18n/<slug:lang>.<slug:digest>.js",   "GET",  "/jsi18n/xx.0123.js",                 None,             404, 404, 404, 404),
    ("settings/admin/users/",                 "GET",  "/settings/admin/users/",             None,             302, 403, 403, 200),
    ("settings/admin/users/<str:name>/",      "GET",  "/settings/admin/users/other/",       None,             302, 403, 403, 405),
    ("settings/admin/users/<str:name>/delete/", "GET", "/settings/admin/users/other/delete/", None,           302, 403, 403, 200),
    ("settings/admin/users/<str:name>/delete/", "GET", "/settings/admin/users/nobody/delete/", None,          302, 403, 403, 404),
    ("settings/admin/library/",               "GET",  "/settings/admin/library/",           None,             302, 403, 403, 200),
    ("api/local/<str:action>",                "POST", "/api/local/ping",                    {},               401, 401, 401, 401),
    ("api/auth",                              "GET",  "/api/auth",                          None,             200, 200, 200, 200),
    ("api/signup",                            "POST", "/api/signup",                        {"name": "x9", "password": PASSWORD}, 403, 403, 403, 403),
    ("api/login",                             "POST", "/api/login",                         {"name": "nobody", "password": "wrong password"}, 401, 401, 401, 401),
    ("api/login/code",                        "POST", "/api/login/code",                    {"ticket": "forged", "code": "123456"}, 401, 401, 401, 401),
    ("api/logout",                            "POST", "/api/logout",                        {},               401, 200, 200, 200),
    # passkeys: registering needs a session, signing in is public; the finish comes with the begin's cookie (an unknown passkey)
    ("api/passkeys/register/begin",           "POST", "/api/passkeys/register/begin",       {},               401, 200, 200, 200),
    ("api/passkeys/register/finish",          "POST", "/api/passkeys/register/finish",      {"name": "Phone", "credential": {}}, 401, 400, 400, 400),
    ("api/passkeys/login/begin",              "POST", "/api/passkeys/login/begin",          {},               200, 200, 200, 200),
    ("api/passkeys/login/begin",              "POST", "/api/passkeys/login/begin",          {"ticket": "forged"}, 401, 401, 401, 401),
    ("api/passkeys/login/finish",             "POST", "/api/passkeys/login/finish",         {"credential": {}}, 401, 401, 401, 401),
    ("api/me",                                "GET",  "/api/me",                            None,             401, 200, 200, 200),
    ("api/settings",                          "POST", "/api/settings",                      {"skipCovers": True}, 401, 200, 200, 200),
    ("api/password",                          "POST", "/api/password",                      {"old": "x", "new": "short"}, 401, 400, 400, 400),
    ("api/library",                           "GET",  "/api/library",                       None,             401, 200, 200, 200),
    ("api/manga",                             "GET",  f"/api/manga?m={MOON}",               None,             401, 200, 200, 200),
    ("api/manga",                             "GET",  "/api/manga?m=Invented",              None,             401, 404, 404, 404),
    ("api/history",                           "GET",  "/api/history",                       None,             401, 200, 200, 200),
    ("api/history",                           "GET",  "/api/history?limit=0",               None,             401, 400, 400, 400),
    ("api/read",                              "POST", "/api/read",                          CHAPTER,          401, 200, 200, 200),
    ("api/unread",                            "POST", "/api/unread",                        CHAPTER,          401, 200, 200, 200),
    ("api/read/many",                         "POST", "/api/read/many",                     {**CHAPTER, "read": True, "before": "1/2"}, 401, 200, 200, 200),
    ("api/read/many",                         "POST", "/api/read/many",                     {"m": "Invented", "read": False}, 401, 404, 404, 404),
    ("api/read/series",                       "POST", "/api/read/series",                   {"manga": ["Moon Garden"], "read": True}, 401, 200, 200, 200),
    ("api/read/series",                       "POST", "/api/read/series",                   {"manga": ["Invented"], "read": True}, 401, 404, 404, 404),
    ("api/vote",                              "POST", "/api/vote",                          VOTE,             401, 200, 200, 200),
    ("api/follow",                            "POST", "/api/follow",                        {"m": "Moon Garden", "on": True}, 401, 200, 200, 200),
    ("api/follow",                            "POST", "/api/follow",                        {"m": "Invented", "on": True}, 401, 404, 404, 404),
    ("api/notifications",                     "GET",  "/api/notifications",                 None,             401, 200, 200, 200),
    # collections, want to read, ratings: a private collection is its owner's alone (404 to others, admins too)
    ("collections/",                          "GET",  "/collections/",                      None,             302, 200, 200, 200),
    ("collections/<str:cid>/",                "GET",  f"/collections/{CID}/",               None,             302, 200, 404, 404),
    ("api/collections",                       "GET",  "/api/collections",                   None,             401, 200, 200, 200),
    ("api/collections",                       "POST", "/api/collections",                   {"name": "Two", "members": ["Long Scroll"]}, 401, 200, 200, 200),
    ("api/collections",                       "POST", "/api/collections",                   {"name": "Three", "members": ["Moon Garden"]}, 401, 200, 200, 200),
    ("api/collections/<str:cid>",             "GET",  f"/api/collections/{CID}",            None,             401, 200, 404, 404),
    ("api/collections/<str:cid>",             "POST", f"/api/collections/{CID}",            {"summary": "s"}, 401, 200, 404, 404),
    ("api/collections/<str:cid>/add",         "POST", f"/api/collections/{CID}/add",        {"members": ["Long Scroll"]}, 401, 200, 404, 404),
    ("api/collections/<str:cid>/remove",      "POST", f"/api/collections/{CID}/remove",     {"members": ["Long Scroll"]}, 401, 200, 404, 404),
    ("api/collections/<str:cid>/delete",      "POST", "/api/collections/cnothere/delete",   {},               401, 404, 404, 404),
    # read lists: as collections, a private one is its owner's alone
    ("readlists/",                            "GET",  "/readlists/",                        None,             302, 200, 200, 200),
    ("readlists/<str:rid>/",                  "GET",  f"/readlists/{RID}/",                 None,             302, 200, 404, 404),
    ("api/readlists",                         "GET",  "/api/readlists",                     None,             401, 200, 200, 200),
    ("api/readlists",                         "POST", "/api/readlists",                     {"name": "Two", "items": [{"m": "Long Scroll"}]}, 401, 200, 200, 200),
    ("api/readlists/import",                  "POST", "/api/readlists/import",              {"cbl": CBL},     401, 200, 200, 200),
    ("api/readlists/<str:rid>",               "GET",  f"/api/readlists/{RID}",              None,             401, 200, 404, 404),
    ("api/readlists/<str:rid>",               "POST", f"/api/readlists/{RID}",              {"summary": "s"}, 401, 200, 404, 404),
    ("api/readlists/<str:rid>/add",           "POST", f"/api/readlists/{RID}/add",          {"items": [{"m": "Long Scroll"}]}, 401, 200, 404, 404),
    ("api/readlists/<str:rid>/remove",        "POST", f"/api/readlists/{RID}/remove",       {"items": [{"m": "Long Scroll"}]}, 401, 200, 404, 404),
    ("api/readlists/<str:rid>/delete",        "POST", "/api/readlists/rnothere/delete",     {},               401, 404, 404, 404),
    ("api/want",                              "GET",  "/api/want",                          None,             401, 200, 200, 200),
    ("api/want",                              "POST", "/api/want",                          {"m": "Moon Garden", "on": True}, 401, 200, 200, 200),
    ("api/want",                              "POST", "/api/want",                          {"m": "Invented", "on": True}, 401, 404, 404, 404),
    ("api/rating",                            "POST", "/api/rating",                        {"m": "Moon Garden", "stars": 4}, 401, 200, 200, 200),
    ("api/rating",                            "POST", "/api/rating",                        {"m": "Moon Garden", "stars": 9}, 401, 400, 400, 400),
    ("api/notifications/read",                "POST", "/api/notifications/read",            {"id": "matrix1"}, 401, 200, 404, 404),
    ("api/notifications/read",                "POST", "/api/notifications/read",            {"all": True},    401, 200, 200, 200),
    # the Active Reading Clock: off by default, so pulses are refused; export and delete are one's own
    ("api/reading/pulse",                     "POST", "/api/reading/pulse",                 PULSE,            401, 403, 403, 403),
    ("api/reading/export",                    "GET",  "/api/reading/export",                None,             401, 200, 200, 200),
    ("api/reading/delete",                    "POST", "/api/reading/delete",                {"m": "Moon Garden"}, 401, 200, 200, 200),
    ("api/reading/delete",                    "POST", "/api/reading/delete",                {"m": "Invented"}, 401, 404, 404, 404),
    ("api/reading/delete",                    "POST", "/api/reading/delete",                {"all": True, "password": "wrong password"}, 401, 401, 401, 401),
    # Web Push devices: each user reaches only their own (a device id of someone else is not found)
    ("api/push",                              "GET",  "/api/push",                          None,             401, 200, 200, 200),
    ("api/offline/followed",                  "GET",  "/api/offline/followed",              None,             401, 200, 200, 200),
    ("api/push/subscribe",                    "POST", "/api/push/subscribe",                {"subscription": None}, 401, 400, 400, 400),
    ("api/push/unsubscribe",                  "POST", "/api/push/unsubscribe",              {"id": "nope"},   401, 404, 404, 404),
    ("api/push/test",                         "POST", "/api/push/test",                     {"id": "nope"},   401, 404, 404, 404),
    ("api/admin",                             "GET",  "/api/admin",                         None,             401, 403, 403, 200),
    ("api/admin/user",                        "POST", "/api/admin/user",                    {"name": "made", "password": PASSWORD}, 401, 403, 403, 200),
    ("api/admin/user/role",                   "POST", "/api/admin/user/role",               {"name": "nobody", "admin": True}, 401, 403, 403, 404),
    ("api/admin/user/delete",                 "POST", "/api/admin/user/delete",             {"name": "nobody"}, 401, 403, 403, 404),
    ("api/admin/user/access",                 "POST", "/api/admin/user/access",             {"name": "other", "only": None, "excludeTags": []}, 401, 403, 403, 200),
    ("api/admin/user/access",                 "POST", "/api/admin/user/access",             {"name": "nobody", "only": None}, 401, 403, 403, 404),
    ("settings/admin/users/<str:name>/access/", "GET", "/settings/admin/users/other/access/", None,           302, 403, 403, 200),
    ("settings/admin/users/<str:name>/access/", "GET", "/settings/admin/users/nobody/access/", None,          302, 403, 403, 404),
    # ops/urls.py: incidents, health, backups (BACKUP is not set here; no startall)
    ("settings/admin/health/",                "GET",  "/settings/admin/health/",             None,             302, 403, 403, 200),
    ("settings/admin/backups/",               "GET",  "/settings/admin/backups/",            None,             302, 403, 403, 200),
    # imports/urls.py: Settings → Admin → Import; a path that is no file is a 400 for the admin
    ("settings/admin/import/",                "GET",  "/settings/admin/import/",             None,             302, 403, 403, 200),
    ("api/admin/import",                      "POST", "/api/admin/import",                   {"source": "komga", "path": "/nonexistent/database.sqlite"}, 401, 403, 403, 400),
    ("api/admin/health",                      "GET",  "/api/admin/health",                   None,             401, 403, 403, 200),
    ("api/admin/incidents",                   "GET",  "/api/admin/incidents",                None,             401, 403, 403, 200),
    ("api/admin/incidents",                   "POST", "/api/admin/incidents",                {"acknowledge": "all"}, 401, 403, 403, 200),
    ("api/admin/services/restart",            "POST", "/api/admin/services/restart",         {"service": "scraper"}, 401, 403, 403, 503),
    ("api/admin/services/restart",            "POST", "/api/admin/services/restart",         {"service": "shell"}, 401, 403, 403, 400),
    ("api/admin/backup",                      "GET",  "/api/admin/backup",                   None,             401, 403, 403, 200),
    ("api/admin/backup",                      "POST", "/api/admin/backup",                   {"command": "run"}, 401, 403, 403, 400),
    ("api/admin/backup",                      "POST", "/api/admin/backup",                   {"command": "settings", "retention": {"keep": 3, "weeks": 0}}, 401, 403, 403, 200),
    # reader/urls.py: the reader page and its data
    ("read/<str:manga>/<str:book>/<str:chapter>/", "GET", f"/read/{MOON}/1/2/",              None,             302, 200, 200, 200),
    ("read/<str:manga>/<str:book>/<str:chapter>/", "GET", "/read/Invented/1/1/",             None,             302, 404, 404, 404),
    ("api/chapter",                           "GET",  f"/api/chapter?m={MOON}&c=1/2",        None,             401, 200, 200, 200),
    ("api/chapter",                           "GET",  f"/api/chapter?m={MOON}&c=9/9",        None,             401, 404, 404, 404),
    ("api/progress",                          "POST", "/api/progress",                       PROGRESS,         401, 200, 200, 200),
    ("api/progress",                          "POST", "/api/progress",                       {**PROGRESS, "m": "Invented"}, 401, 404, 404, 404),
    # clients/komga/urls.py: the Komga-compatible API (docs/apps.md)
    (K1 + "series",                           "GET",  "/komga/api/v1/series?search=&page=0",  None,             401, 200, 200, 200),
    (K1 + "series/list",                      "POST", "/komga/api/v1/series/list",           {},               401, 200, 200, 200),
    (K1 + "series/new",                       "GET",  "/komga/api/v1/series/new",            None,             401, 200, 200, 200),
    (K1 + "series/updated",                   "GET",  "/komga/api/v1/series/updated",        None,             401, 200, 200, 200),
    (K1 + "series/release-dates",             "GET",  "/komga/api/v1/series/release-dates",  None,             401, 200, 200, 200),
    (K1 + "series/<sid:sid>",                 "GET",  KS,                                    None,             401, 200, 200, 200),
    (K1 + "series/<sid:sid>",                 "GET",  "/komga/api/v1/series/saaaaaaaaaaaaaaaaaaaa", None,      401, 404, 404, 404),
    (K1 + "series/<sid:sid>/books",           "GET",  KS + "/books?unpaged=true",            None,             401, 200, 200, 200),
    (K1 + "series/<sid:sid>/thumbnail",       "GET",  KS + "/thumbnail",                     None,             401, 200, 200, 200),
    (K1 + "series/<sid:sid>/read-progress",   "POST", KS + "/read-progress",                 None,             401, 204, 204, 204),
    (K1 + "series/<sid:sid>/read-progress",   "DELETE", KS + "/read-progress",               None,             401, 204, 204, 204),
    (K1 + "series/<sid:sid>/collections",     "GET",  KS + "/collections",                   None,             401, 200, 200, 200),
    ("komga/api/v2/series/<sid:sid>/read-progress/tachiyomi", "GET", f"/komga/api/v2/series/{SID}/read-progress/tachiyomi", None, 401, 200, 200, 200),
    ("komga/api/v2/series/<sid:sid>/read-progress/tachiyomi", "PUT", f"/komga/api/v2/series/{SID}/read-progress/tachiyomi", {"lastBookNumberSortRead": 1}, 401, 204, 204, 204),
    (K1 + "books",                            "GET",  "/komga/api/v1/books",                 None,             401, 200, 200, 200),
    (K1 + "books/list",                       "POST", "/komga/api/v1/books/list",            {"condition": None}, 401, 200, 200, 200),
    (K1 + "books/latest",                     "GET",  "/komga/api/v1/books/latest",          None,             401, 200, 200, 200),
    (K1 + "books/ondeck",                     "GET",  "/komga/api/v1/books/ondeck",          None,             401, 200, 200, 200),
    (K1 + "books/<bid:bid>",                  "GET",  KB,                                    None,             401, 200, 200, 200),
    (K1 + "books/<bid:bid>",                  "GET",  "/komga/api/v1/books/baaaaaaaaaaaaaaaaaaaa", None,       401, 404, 404, 404),
    (K1 + "books/<bid:bid>/next",             "GET",  KB + "/next",                          None,             401, 404, 404, 404),
    (K1 + "books/<bid:bid>/previous",         "GET",  KB + "/previous",                      None,             401, 200, 200, 200),
    (K1 + "books/<bid:bid>/readlists",        "GET",  KB + "/readlists",                     None,             401, 200, 200, 200),
    (K1 + "books/<bid:bid>/thumbnail",        "GET",  KB + "/thumbnail",                     None,             401, 200, 200, 200),
    (K1 + "books/<bid:bid>/pages",            "GET",  KB + "/pages",                         None,             401, 200, 200, 200),
    (K1 + "books/<bid:bid>/pages/<int:n>",    "GET",  KB + "/pages/1",                       None,             401, 200, 200, 200),
    (K1 + "books/<bid:bid>/pages/<int:n>",    "GET",  KB + "/pages/9",                       None,             401, 400, 400, 400),
    (K1 + "books/<bid:bid>/pages/<int:n>/thumbnail", "GET", KB + "/pages/1/thumbnail",       None,             401, 200, 200, 200),
    (K1 + "books/<bid:bid>/read-progress",    "PATCH", KB + "/read-progress",                {"page": 1},      401, 204, 204, 204),
    (K1 + "books/<bid:bid>/read-progress",    "DELETE", KB + "/read-progress",               None,             401, 204, 204, 204),
    (K1 + "books/<bid:bid>/file",             "GET",  KB + "/file",                          None,             401, 200, 200, 200),
    (K1 + "libraries",                        "GET",  "/komga/api/v1/libraries",             None,             401, 200, 200, 200),
    (K1 + "libraries/<str:lid>",              "GET",  "/komga/api/v1/libraries/mangacircus", None,             401, 200, 200, 200),
    (K1 + "libraries/<str:lid>",              "GET",  "/komga/api/v1/libraries/other",       None,             401, 404, 404, 404),
    (K1 + "genres",                           "GET",  "/komga/api/v1/genres",                None,             401, 200, 200, 200),
    (K1 + "publishers",                       "GET",  "/komga/api/v1/publishers",            None,             401, 200, 200, 200),
    (K1 + "languages",                        "GET",  "/komga/api/v1/languages",             None,             401, 200, 200, 200),
    (K1 + "tags",                             "GET",  "/komga/api/v1/tags",                  None,             401, 200, 200, 200),
    (K1 + "tags/book",                        "GET",  "/komga/api/v1/tags/book",             None,             401, 200, 200, 200),
    (K1 + "tags/series",                      "GET",  "/komga/api/v1/tags/series",           None,             401, 200, 200, 200),
    (KOMGA_NONE,                              "GET",  "/komga/api/v1/age-ratings",           None,             401, 200, 200, 200),
    (K1 + "authors",                          "GET",  "/komga/api/v1/authors",               None,             401, 200, 200, 200),
    (K1 + "authors/names",                    "GET",  "/komga/api/v1/authors/names",         None,             401, 200, 200, 200),
    (K1 + "authors/roles",                    "GET",  "/komga/api/v1/authors/roles",         None,             401, 200, 200, 200),
    ("komga/api/v2/authors",                  "GET",  "/komga/api/v2/authors",               None,             401, 200, 200, 200),
    ("komga/api/v2/authors/names",            "GET",  "/komga/api/v2/authors/names",         None,             401, 200, 200, 200),
    ("komga/api/v2/authors/roles",            "GET",  "/komga/api/v2/authors/roles",         None,             401, 200, 200, 200),
    (K1 + "collections",                      "GET",  "/komga/api/v1/collections",           None,             401, 200, 200, 200),
    (K1 + "collections",                      "POST", "/komga/api/v1/collections",           {"name": "K", "ordered": False, "seriesIds": []}, 401, 200, 200, 200),
    (K1 + "collections/<cid:cid>",            "GET",  KC,                                    None,             401, 200, 404, 404),
    (K1 + "collections/<cid:cid>",            "PATCH", KC,                                   {"name": "Renamed"}, 401, 204, 404, 404),
    (K1 + "collections/<cid:cid>",            "DELETE", "/komga/api/v1/collections/c" + "z" * 20, None,       401, 404, 404, 404),
    (K1 + "collections/<cid:cid>/series",     "GET",  KC + "/series",                        None,             401, 200, 404, 404),
    (K1 + "collections/<cid:cid>/thumbnail",  "GET",  KC + "/thumbnail",                     None,             401, 200, 404, 404),
    (K1 + "readlists",                        "GET",  "/komga/api/v1/readlists",             None,             401, 200, 200, 200),
    (K1 + "readlists",                        "POST", "/komga/api/v1/readlists",             {"name": "K", "bookIds": []}, 401, 200, 200, 200),
    (K1 + "readlists/<rid:rid>",              "GET",  KR,                                    None,             401, 200, 404, 404),
    # the rows run in order: from here on RID holds Moon Garden 1/1 and 1/2
    (K1 + "readlists/<rid:rid>",              "PATCH", KR,                                   {"name": "Renamed", "bookIds": [BID1, BID]}, 401, 204, 404, 404),
    (K1 + "readlists/<rid:rid>",              "DELETE", "/komga/api/v1/readlists/r" + "z" * 20, None,         401, 404, 404, 404),
    (K1 + "readlists/<rid:rid>/books",        "GET",  KR + "/books",                         None,             401, 200, 404, 404),
    (K1 + "readlists/<rid:rid>/books/<bid:bid>/next", "GET", KR + f"/books/{BID1}/next",     None,             401, 200, 404, 404),
    (K1 + "readlists/<rid:rid>/books/<bid:bid>/previous", "GET", KR + f"/books/{BID}/previous", None,          401, 200, 404, 404),
    (K1 + "readlists/<rid:rid>/thumbnail",    "GET",  KR + "/thumbnail",                     None,             401, 200, 404, 404),
    ("komga/api/v2/users/me",                 "GET",  "/komga/api/v2/users/me",              None,             401, 200, 200, 200),
    ("komga/api/logout",                      "POST", "/komga/api/logout",                   None,             401, 204, 204, 204),
    # KMReader asks before signing in; the answer is an empty object
    (K1 + "client-settings/global/list",      "GET",  "/komga/api/v1/client-settings/global/list", None,       200, 200, 200, 200),
    (KOMGA_REST,                              "GET",  "/komga/sse/v1/events",                None,             401, 404, 404, 404),
    # clients/opds/urls.py: the OPDS catalog
    ("opds/",                                 "GET",  "/opds/",                              None,             401, 200, 200, 200),
    ("opds/series",                           "GET",  "/opds/series",                        None,             401, 200, 200, 200),
    ("opds/recent",                           "GET",  "/opds/recent",                        None,             401, 200, 200, 200),
    ("opds/continue",                         "GET",  "/opds/continue",                      None,             401, 200, 200, 200),
    ("opds/followed",                         "GET",  "/opds/followed",                      None,             401, 200, 200, 200),
    ("opds/collections",                      "GET",  "/opds/collections",                   None,             401, 200, 200, 200),
    ("opds/collections/<cid:cid>",            "GET",  f"/opds/collections/{CID}",            None,             401, 200, 404, 404),
    ("opds/readlists",                        "GET",  "/opds/readlists",                     None,             401, 200, 200, 200),
    ("opds/readlists/<rid:rid>",              "GET",  f"/opds/readlists/{RID}",              None,             401, 200, 404, 404),
    ("opds/genres",                           "GET",  "/opds/genres",                        None,             401, 200, 200, 200),
    ("opds/genres/<path:name>",               "GET",  "/opds/genres/Invented",               None,             401, 404, 404, 404),
    ("opds/tags",                             "GET",  "/opds/tags",                          None,             401, 200, 200, 200),
    ("opds/tags/<path:name>",                 "GET",  "/opds/tags/Invented",                 None,             401, 404, 404, 404),
    ("opds/search",                           "GET",  "/opds/search?q=moon",                 None,             401, 200, 200, 200),
    ("opds/search.xml",                       "GET",  "/opds/search.xml",                    None,             401, 200, 200, 200),
    ("opds/series/<sid:sid>",                 "GET",  f"/opds/series/{SID}",                 None,             401, 200, 200, 200),
    ("opds/series/<sid:sid>/thumbnail",       "GET",  f"/opds/series/{SID}/thumbnail",       None,             401, 200, 200, 200),
    ("opds/books/<bid:bid>/file",             "GET",  f"/opds/books/{BID}/file",             None,             401, 200, 200, 200),
    ("opds/books/<bid:bid>/pages/<int:n>",    "GET",  f"/opds/books/{BID}/pages/0",          None,             401, 200, 200, 200),
    # clients/opds/v2_urls.py: the OPDS 2.0 catalog
    ("opds/v2/",                              "GET",  "/opds/v2/",                           None,             401, 200, 200, 200),
    ("opds/v2/series",                        "GET",  "/opds/v2/series",                     None,             401, 200, 200, 200),
    ("opds/v2/recent",                        "GET",  "/opds/v2/recent",                     None,             401, 200, 200, 200),
    ("opds/v2/continue",                      "GET",  "/opds/v2/continue",                   None,             401, 200, 200, 200),
    ("opds/v2/followed",                      "GET",  "/opds/v2/followed",                   None,             401, 200, 200, 200),
    ("opds/v2/collections",                   "GET",  "/opds/v2/collections",                None,             401, 200, 200, 200),
    ("opds/v2/collections/<cid:cid>",         "GET",  f"/opds/v2/collections/{CID}",         None,             401, 200, 404, 404),
    ("opds/v2/readlists",                     "GET",  "/opds/v2/readlists",                  None,             401, 200, 200, 200),
    ("opds/v2/readlists/<rid:rid>",           "GET",  f"/opds/v2/readlists/{RID}",           None,             401, 200, 404, 404),
    ("opds/v2/genres",                        "GET",  "/opds/v2/genres",                     None,             401, 200, 200, 200),
    ("opds/v2/genres/<path:name>",            "GET",  "/opds/v2/genres/Invented",            None,             401, 404, 404, 404),
    ("opds/v2/tags",                          "GET",  "/opds/v2/tags",                       None,             401, 200, 200, 200),
    ("opds/v2/tags/<path:name>",              "GET",  "/opds/v2/tags/Invented",              None,             401, 404, 404, 404),
    ("opds/v2/search",                        "GET",  "/opds/v2/search?query=moon",          None,             401, 200, 200, 200),
    ("opds/v2/series/<sid:sid>",              "GET",  f"/opds/v2/series/{SID}",              None,             401, 200, 200, 200),
    ("opds/v2/books/<bid:bid>/manifest",      "GET",  f"/opds/v2/books/{BID}/manifest",      None,             401, 200, 200, 200),
    # Settings → Apps, and downloads as CBZ
    ("settings/user/apps/",                   "GET",  "/settings/user/apps/",                None,             302, 200, 200, 200),
    ("settings/admin/apps/",                  "GET",  "/settings/admin/apps/",               None,             302, 403, 403, 200),
    ("download/<str:manga>/<str:book>/<str:chapter>/", "GET", f"/download/{MOON}/1/2/",       None,             302, 200, 200, 200),
    ("download/<str:manga>/<str:book>/<str:chapter>/", "GET", f"/download/{MOON}/1/9/",       None,             302, 404, 404, 404),
    ("download/<str:manga>/<str:book>/",      "GET",  f"/download/{MOON}/1/",                None,             302, 200, 200, 200),
    # library/urls.py: page images, cover thumbnails, "scan now"
    (LIB,                                     "GET",  f"/lib/{MOON}/b01%20Spring/c0001%20Seeds/001.png", None, 401, 200, 200, 200),
    # A signature authorises nothing in the reader itself: /lib/ checks the session (docs/proxy.md).
    (LIB,                                     "GET",  f"/lib/{MOON}/b01%20Spring/c0001%20Seeds/001.png?e=4102444800&s=forged", None, 401, 200, 200, 200),
    (LIB,                                     "GET",  f"/lib/{MOON}/manga.json",             None,             401, 404, 404, 404),
    (LIB,                                     "GET",  "/lib/..%2F..%2Fdata%2Fdb.json",       None,             401, 404, 404, 404),
    (PAGE_THUMB,                              "GET",  f"/lib-thumb/{MOON}/b01%20Spring/c0001%20Seeds/001.png", None, 401, 200, 200, 200),
    (PAGE_THUMB,                              "GET",  f"/lib-thumb/{MOON}/manga.json",       None,             401, 404, 404, 404),
    (PAGE_THUMB,                              "GET",  "/lib-thumb/..%2F..%2Fdata%2Fdb.json", None,             401, 404, 404, 404),
    (PAGE_THUMB,                              "GET",  "/lib-thumb/Invented/c1/001.png",      None,             401, 404, 404, 404),
    (THUMB,                                   "GET",  f"/thumb/{MOON}",                      None,             401, 200, 200, 200),
    (THUMB,                                   "GET",  "/thumb/Invented",                     None,             401, 404, 404, 404),
    # The form the reader hands out, naming the thumbnail's file (any well-formed name: the current cover).
    (THUMB,                                   "GET",  f"/thumb/{MOON}/{'0' * 32}.webp",      None,             401, 200, 200, 200),
    (THUMB,                                   "GET",  f"/thumb/{MOON}/db.json",              None,             401, 404, 404, 404),
    ("api/admin/rescan",                      "POST", "/api/admin/rescan",                   {"full": False},  401, 403, 403, 200),
    ("api/admin/renames",                     "GET",  "/api/admin/renames",                  None,             401, 403, 403, 200),
    ("api/admin/renames/undo",                "POST", "/api/admin/renames/undo",             {"id": "nope"},   401, 403, 403, 404),
    # peers/urls.py: the peer API takes a peer's secret and never a session; the admin's peer screens
    ("api/peer/catalog",                      "GET",  "/api/peer/catalog",                   None,             401, 401, 401, 401),
    ("api/peer/page",                         "GET",  f"/api/peer/page?m={MOON}&v=b01%20Spring/c0001%20Seeds&f=001.png", None, 401, 401, 401, 401),
    ("settings/admin/peers/",                 "GET",  "/settings/admin/peers/",              None,             302, 403, 403, 200),
    ("api/admin/peers",                       "GET",  "/api/admin/peers",                    None,             401, 403, 403, 200),
    ("api/admin/peers",                       "POST", "/api/admin/peers",                    PEER,             401, 403, 403, 200),
    ("api/admin/peers/<str:name>",            "POST", "/api/admin/peers/matrixpeer",         {"share": "none"}, 401, 403, 403, 200),
    ("api/admin/peers/<str:name>",            "POST", "/api/admin/peers/nobody",             {"enabled": False}, 401, 403, 403, 404),
    ("api/admin/peers/<str:name>/test",       "POST", "/api/admin/peers/nobody/test",        {},               401, 403, 403, 404),
    ("api/admin/peers/<str:name>/catalog",    "GET",  "/api/admin/peers/nobody/catalog",     None,             401, 403, 403, 404),
    # scraper/urls.py: the admin screen and the proxy to the daemon (not running here: 503)
    ("settings/admin/scraper/",               "GET",  "/settings/admin/scraper/",            None,             302, 403, 403, 302),
    ("settings/admin/scraper/<slug:tab>/",    "GET",  "/settings/admin/scraper/queue/",      None,             302, 403, 403, 200),
    ("settings/admin/scraper/<slug:tab>/",    "GET",  "/settings/admin/scraper/nothing/",    None,             302, 403, 403, 404),
    ("api/admin/scraper/<path:path>",         "GET",  "/api/admin/scraper/status",           None,             401, 403, 403, 503),
    ("api/admin/scraper/<path:path>",         "POST", "/api/admin/scraper/jobs/x/cancel",    {},               401, 403, 403, 503),
    ("api/admin/scraper/<path:path>",         "GET",  "/api/admin/scraper/no.such/route",    None,             401, 403, 403, 404),
    ("api/admin/scraper/<path:path>",         "GET",  "/api/admin/scraper/account/follows?user=user", None,    401, 403, 403, 404),
    # Settings → User → MangaDex: each user's own account, kept by the daemon (not running here: 503)
    ("settings/user/mangadex/",               "GET",  "/settings/user/mangadex/",            None,             302, 200, 200, 200),
    ("api/mangadex/account",                  "GET",  "/api/mangadex/account",               None,             401, 503, 503, 503),
    ("api/mangadex/account",                  "POST", "/api/mangadex/account",               {},               401, 503, 503, 503),
    ("api/mangadex/account/disconnect",       "POST", "/api/mangadex/account/disconnect",    {},               401, 503, 503, 503),
    ("api/mangadex/follows",                  "GET",  "/api/mangadex/follows",               None,             401, 403, 403, 503),
    ("api/mangadex/read-markers",             "POST", "/api/mangadex/read-markers",          {},               401, 503, 503, 503),
    # the catalog's curator screens and API: admins only (the rows run in order: each admin change bumps rev)
    ("settings/admin/catalog/",               "GET",  "/settings/admin/catalog/",            None,             302, 403, 403, 200),
    ("settings/admin/catalog/groups/<str:group_id>/", "GET", "/settings/admin/catalog/groups/nogroup/", None,  302, 403, 403, 404),
    ("settings/admin/catalog/proposals/",     "GET",  "/settings/admin/catalog/proposals/",  None,             302, 403, 403, 200),
    ("settings/admin/catalog/history/",       "GET",  "/settings/admin/catalog/history/",    None,             302, 403, 403, 200),
    ("settings/admin/catalog/manga/<str:name>/", "GET", f"/settings/admin/catalog/manga/{MOON}/", None,        302, 403, 403, 200),
    ("settings/admin/catalog/manga/<str:name>/", "GET", "/settings/admin/catalog/manga/Invented/", None,       302, 403, 403, 404),
    ("api/admin/catalog",                     "GET",  "/api/admin/catalog",                  None,             401, 403, 403, 200),
    ("api/admin/catalog/relations",           "POST", "/api/admin/catalog/relations",        {"rev": 0, **RELATION}, 401, 403, 403, 200),
    ("api/admin/catalog/relations/delete",    "POST", "/api/admin/catalog/relations/delete", {"rev": 1, **RELATION}, 401, 403, 403, 200),
    ("api/admin/catalog/groups",              "POST", "/api/admin/catalog/groups",           {"rev": 2, "name": "G", "members": ["Moon Garden"]}, 401, 403, 403, 200),
    ("api/admin/catalog/groups/move",         "POST", "/api/admin/catalog/groups/move",      {"rev": 3, "id": "nope", "member": "x", "to": 0}, 401, 403, 403, 404),
    ("api/admin/catalog/groups/delete",       "POST", "/api/admin/catalog/groups/delete",    {"rev": 3, "id": "nope"}, 401, 403, 403, 404),
    ("api/admin/catalog/overrides",           "POST", "/api/admin/catalog/overrides",        {"rev": 3, "m": "Moon Garden", "tags": ["x"]}, 401, 403, 403, 200),
    ("api/admin/catalog/overrides",           "POST", "/api/admin/catalog/overrides",        {"rev": 3, "m": "Moon Garden"}, 401, 403, 403, 409),
    ("api/admin/catalog/proposals",           "POST", "/api/admin/catalog/proposals",        {"proposals": []}, 401, 403, 403, 200),
    ("api/admin/catalog/proposals/decide",    "POST", "/api/admin/catalog/proposals/decide", {"rev": 4, "id": "nope", "accept": True}, 401, 403, 403, 404),
    # metadata/urls.py: matching manga to the metadata providers, admins only
    ("settings/admin/metadata/",              "GET",  "/settings/admin/metadata/",           None,             302, 403, 403, 200),
    ("settings/admin/metadata/covers/<str:file>", "GET", "/settings/admin/metadata/covers/nothere.png", None,  302, 403, 403, 404),
    ("api/admin/metadata",                    "GET",  "/api/admin/metadata",                 None,             401, 403, 403, 200),
    ("api/admin/metadata/accept",             "POST", "/api/admin/metadata/accept",          {"m": "Invented", "provider": "anilist", "id": "1"}, 401, 403, 403, 404),
    ("api/admin/metadata/accept-above",       "POST", "/api/admin/metadata/accept-above",    {"score": 0.9},   401, 403, 403, 200),
    ("api/admin/metadata/set-aside",          "POST", "/api/admin/metadata/set-aside",       {"m": "Invented"}, 401, 403, 403, 404),
    ("api/admin/metadata/search-again",       "POST", "/api/admin/metadata/search-again",    {"m": "Invented"}, 401, 403, 403, 404),
    # trackers/urls.py: each user's own tracker connections (AniList and MyAnimeList are off: no client ids)
    ("settings/user/apps/trackers/",          "GET",  "/settings/user/apps/trackers/",       None,             302, 405, 405, 405),
    ("settings/user/apps/trackers/<str:key>/connect/", "GET", "/settings/user/apps/trackers/anilist/connect/", None, 302, 404, 404, 404),
    ("settings/user/apps/trackers/<str:key>/connect/", "GET", "/settings/user/apps/trackers/mangaupdates/connect/", None, 302, 404, 404, 404),
    ("settings/user/apps/trackers/<str:key>/callback/", "GET", "/settings/user/apps/trackers/anilist/callback/?code=c&state=s", None, 302, 404, 404, 404),
    ("settings/user/apps/trackers/<str:key>/callback/", "GET", "/settings/user/apps/trackers/mangaupdates/callback/?code=c&state=s", None, 302, 302, 302, 302),
    ("api/trackers",                          "GET",  "/api/trackers",                       None,             401, 200, 200, 200),
    ("api/trackers/binding",                  "POST", "/api/trackers/binding",               {"tracker": "mangaupdates", "m": "Moon Garden", "id": "123"}, 401, 200, 200, 200),
    ("api/trackers/binding",                  "POST", "/api/trackers/binding",               {"tracker": "mangaupdates", "m": "Invented", "id": "123"}, 401, 404, 404, 404),
    ("api/trackers/binding",                  "POST", "/api/trackers/binding",               {"tracker": "anilist", "m": "Moon Garden", "id": "1"}, 401, 404, 404, 404),
]
PERSONAS = ("anonymous", "user", "other", "admin")
FRESH_SESSION = {"/api/logout", "/komga/api/logout"}  # rows that end the session they use run on a session of their own
# (method, path) → the status for the restricted persona, where it differs from "other"'s.
RESTRICTED = {
    ("POST", "/api/trackers/binding"): 404,
    ("GET", f"/manga/{MOON}/"): 404,
    ("GET", f"/api/manga?m={MOON}"): 404,
    ("POST", "/api/read"): 404,
    ("POST", "/api/unread"): 404,
    ("POST", "/api/read/many"): 404,
    ("POST", "/api/read/series"): 404,
    ("POST", "/api/vote"): 404,
    ("POST", "/api/follow"): 404,
    ("POST", "/api/reading/delete"): 404,
    ("GET", f"/read/{MOON}/1/2/"): 404,
    ("GET", f"/api/chapter?m={MOON}&c=1/2"): 404,
    ("POST", "/api/progress"): 404,
    ("GET", f"/lib/{MOON}/b01%20Spring/c0001%20Seeds/001.png"): 404,
    ("GET", f"/lib/{MOON}/b01%20Spring/c0001%20Seeds/001.png?e=4102444800&s=forged"): 404,  # a signature changes nothing
    ("GET", f"/thumb/{MOON}"): 404,
    ("GET", f"/thumb/{MOON}/{'0' * 32}.webp"): 404,  # the link cookies are never given to a restricted user
    ("GET", f"/lib-thumb/{MOON}/b01%20Spring/c0001%20Seeds/001.png"): 404,
    ("GET", f"/download/{MOON}/1/2/"): 404,
    ("GET", f"/download/{MOON}/1/"): 404,
    ("POST", "/api/discovery/dismiss"): 404,
    ("POST", "/api/collections"): 404,  # the row naming Moon Garden; the other creates a collection
    ("POST", "/api/want"): 404,
    ("POST", "/api/rating"): 404,
}
ALWAYS_AS_OTHER = {  # rows naming Moon Garden whose answer does not depend on seeing it
    ("GET", f"/api/peer/page?m={MOON}&v=b01%20Spring/c0001%20Seeds&f=001.png"),  # a peer's secret only: 401 first
    ("POST", "/api/reading/pulse"),  # the reading clock is off: 403 before any lookup
    ("GET", f"/lib/{MOON}/manga.json"),  # not an image: 404 either way
    ("GET", f"/lib-thumb/{MOON}/manga.json"),
    ("GET", f"/thumb/{MOON}/db.json"),  # not a thumbnail's name: 404 either way
    ("GET", f"/api/chapter?m={MOON}&c=9/9"),  # no such chapter: 404 either way
    ("GET", f"/download/{MOON}/1/9/"),
    # the curators' routes: admins only, so 403 before any lookup
    ("GET", f"/settings/admin/catalog/manga/{MOON}/"),
    ("POST", "/api/admin/catalog/groups"),
    ("POST", "/api/admin/catalog/overrides"),
    ("POST", "/api/admin/catalog/relations"),
    ("POST", "/api/admin/catalog/relations/delete"),
}


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
def one_library():
    """Asked for by a test: the restricted persona is limited to a library (Webtoons, holding Long
    Scroll) rather than to a manga, with Moon Garden in the other library (Manga)."""
    return True


@pytest.fixture
def server(request, data_dir, library_dir):
    """A server whose scraper daemon is certainly not running (a closed port)."""
    env = {"SCRAPER_URL": f"http://127.0.0.1:{free_port()}"}
    library = library_dir
    if "one_library" in request.fixturenames:
        webtoons = library_dir.parent / "webtoons"
        webtoons.mkdir()
        (library_dir / "Long Scroll").rename(webtoons / "Long Scroll")
        env.update(LIBRARY="", LIBRARIES=f"Manga={library_dir};Webtoons={webtoons}")
        library = None
    srv = AppServer(data_dir, library, env=env).start()
    yield srv
    srv.stop()


@pytest.fixture
def personas(request, server, admin, monkeypatch):
    for name in ("user", "other"):
        assert admin.post("/api/admin/user", {"name": name, "password": PASSWORD})[0] == 200
    wait_for_library(admin, 2)
    add_notes(server, "user", [NOTE])
    made, new_id = iter([CID]), collections.new_id
    monkeypatch.setattr(collections, "new_id", lambda: next(made, None) or new_id())
    status, _, data = server.client().login("user").post("/api/collections", {"name": "Mine", "members": ["Moon Garden"]})
    assert (status, data.get("id")) == (200, CID), data
    made_list, new_list_id = iter([RID]), readlists.new_id
    monkeypatch.setattr(readlists, "new_id", lambda: next(made_list, None) or new_list_id())
    status, _, data = server.client().login("user").post("/api/readlists", {"name": "Mine",
                                                                          "items": [{"m": "Moon Garden", "c": "1/1"}]})
    assert (status, data.get("id")) == (200, RID), data

    def signed_in(name):
        """Signed in on the web, and in the apps' API (its session cookie, from Basic)."""
        client = server.client().login(name)
        assert client.get("/komga/api/v2/users/me", headers={"Authorization": basic(name)})[0] == 200
        return client

    assert admin.post("/api/admin/user", {"name": "restricted", "password": PASSWORD})[0] == 200
    rule = {"libraries": ["Webtoons"]} if "one_library" in request.fixturenames else {"only": ["Long Scroll"]}
    assert admin.post("/api/admin/user/access", {"name": "restricted", **rule})[0] == 200
    return {"anonymous": lambda: server.client(), "admin": lambda: signed_in("admin"),
            "user": lambda: signed_in("user"), "other": lambda: signed_in("other"),
            "restricted": lambda: signed_in("restricted")}


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


def _restricted_status(method, path, body, other):
    if SID in path or BID in path:
        return 404  # the apps' routes for Moon Garden, the series or one of its books
    if (method, path) in RESTRICTED and "Moon" in (path + str(body)):
        return RESTRICTED[(method, path)]
    return other


def test_every_row_naming_a_manga_says_what_the_restricted_user_gets():
    naming = {(method, path) for _, method, path, body, *_ in MATRIX if "Moon" in path + str(body)}
    assert sorted(naming - set(RESTRICTED) - ALWAYS_AS_OTHER) == []


def test_it_answers_every_route_for_a_restricted_user_as_if_the_hidden_manga_did_not_exist(server, personas):
    _check_restricted(personas)


def test_it_answers_every_route_for_a_user_limited_to_one_library_as_if_the_other_did_not_exist(one_library, server,
                                                                                                 personas):
    # the library of Moon Garden itself is hidden too, in the apps' API
    _check_restricted(personas, {("GET", "/komga/api/v1/libraries/mangacircus"): 404})


def _check_restricted(personas, hidden=None):
    kept = personas["restricted"]()
    wrong = []
    for pattern, method, path, body, _anon, _user, other, _admin in MATRIX:
        client = personas["restricted"]() if path in FRESH_SESSION else kept
        expected = (hidden or {}).get((method, path)) or _restricted_status(method, path, body, other)
        got = client.request(method, path, body=body)[0]
        if got != expected:
            wrong.append(f"{method} {path} {body}: {got}, expected {expected}")
    assert wrong == []
