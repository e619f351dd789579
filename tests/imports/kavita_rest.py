"""A local HTTP server answering as Kavita's REST API does, for one user's API key, built from
tests/imports/conftest.py's books as tests/imports/kavita_db.py's `standard` holds them for alice.

The routes and shapes follow https://github.com/Kareadita/Kavita at commit
ed7e9d4a6e85c2ec04803ca86fb3d2b5ca15581a (v0.8.3.16, 2024-10-24), the version kavita_db.py follows:
API/Controllers/PluginController.cs (POST /api/Plugin/authenticate?apiKey=&pluginName= answers an
API/DTOs/UserDto.cs whose `token` is a JWT with the user's roles as `role` claims,
API/Services/TokenService.cs), UsersController.cs (get-preferences: API/DTOs/UserPreferencesDto.cs),
LibraryController.cs (libraries: LibraryDto.cs with its `folders`), SeriesController.cs (all-v2:
SeriesDto.cs with the user's pagesRead, userRating and hasUserRated; volumes?seriesId=: VolumeDto.cs
with ChapterDto.cs, their MangaFileDto.cs files and the user's pagesRead and lastReadingProgressUtc;
series-by-collection), WantToReadController.cs (v2), CollectionController.cs (GET:
Collection/AppUserCollectionDto.cs with its owner's user name) and ReadingListController.cs (lists:
ReadingLists/ReadingListDto.cs, which names no owner; items: ReadingLists/ReadingListItemDto.cs).
ASP.NET Core writes them in camelCase, a DateTime without a zone (Kavita's are unspecified-kind) and
a paged list as a plain list with a `Pagination` header (API/Extensions/HttpExtensions.cs,
API/Helpers/PagedList.cs, API/Helpers/UserParams.cs: PageSize 0 is all); an unknown API key is a 401
(API/Middleware/SecurityMiddleware.cs)."""
import base64
import json
import math
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from .conftest import MOON_1, MOON_2

FOLDER = "/data/manga"
USER, API_KEY = "alice", "7f1e2c4a-3b5d-4e6f-8a9b-0c1d2e3f4a5b"
NEVER = "0001-01-01T00:00:00"  # DateTime.MinValue: a chapter the user never opened
NO_NUMBER, SPECIALS = -100000, 100000


def _b64(data):
    return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()


TOKEN = ".".join((_b64({"alg": "HS512", "typ": "JWT"}),
                  _b64({"name": USER, "nameid": "1", "role": ["Admin", "Pleb", "Login"], "nbf": 1796036400,
                        "exp": 1796900400, "iat": 1796036400}), "c2lnbmF0dXJl"))


def series(sid, name, pages_read=0, rating=0.0, rated=False, original=None):
    return {"id": sid, "name": name, "originalName": original or name, "localizedName": "", "sortName": name,
            "pages": 0, "coverImageLocked": False, "pagesRead": pages_read, "latestReadDate": NEVER,
            "lastChapterAdded": NEVER, "userRating": rating, "hasUserRated": rated, "format": 1, "created": NEVER,
            "nameLocked": False, "sortNameLocked": False, "localizedNameLocked": False, "wordCount": 0,
            "libraryId": 1, "libraryName": "Manga", "folderPath": f"{FOLDER}/{name}", "lowestFolderPath": None}


def chapter(cid, file_path, number, pages, pages_read=0, read_utc=NEVER, special=False, volume=0):
    number = NO_NUMBER if number is None or special else number
    name = file_path.rpartition("/")[2]
    range_ = name.rpartition(".")[0] if special else str(number)
    return {"id": cid, "range": range_, "number": range_, "minNumber": float(number), "maxNumber": float(number),
            "sortOrder": float(number), "pages": pages, "isSpecial": special, "title": range_,
            "files": [{"id": cid, "filePath": file_path, "pages": pages, "bytes": 1000, "format": 1,
                       "created": NEVER, "extension": ".cbz"}],
            "pagesRead": pages_read, "lastReadingProgressUtc": read_utc,
            "lastReadingProgress": read_utc if read_utc == NEVER else read_utc.replace("T12", "T14"),
            "coverImageLocked": False, "volumeId": volume, "titleName": "", "summary": "", "ageRating": 0}


def volume(vid, sid, number, chapters):
    return {"id": vid, "minNumber": float(number), "maxNumber": float(number), "name": str(number),
            "number": number, "pages": sum(c["pages"] for c in chapters),
            "pagesRead": sum(c["pagesRead"] for c in chapters), "seriesId": sid,
            "chapters": [{**c, "volumeId": vid} for c in chapters]}


def reading_list(rid, title, promoted=False):
    return {"id": rid, "title": title, "summary": "", "promoted": promoted, "coverImageLocked": False,
            "startingYear": 0, "startingMonth": 0, "endingYear": 0, "endingMonth": 0}


def item(iid, order, cid, sid, series_name, rid):
    return {"id": iid, "order": order, "chapterId": cid, "seriesId": sid, "seriesName": series_name,
            "seriesFormat": 1, "pagesRead": 0, "pagesTotal": 0, "libraryId": 1, "libraryName": "Manga",
            "readingListId": rid}


def answers():
    """alice (an admin) finished Moon Garden 1, read two pages of chapter 2, a page of a file whose path
    climbs out with '..' and of one outside the library's folder, and two pages of a special; a page
    of Long Scroll 3, which Kavita knows under another file name (found by number), and none of its
    volume 2 (marked unread); five pages of Star Sea, which is not here. Ratings, want-to-read, her
    two collections and one bob promoted, her reading list and one bob promoted."""
    moon, scroll, star = (series(1, "Moon Garden", 8, 4.5, True), series(2, "Long Scroll", 1),
                          series(3, "Star Sea", 5, 3.0, True))
    return {
        "preferences": {"readingDirection": 0, "collapseSeriesRelationships": False, "locale": "en"},
        "libraries": [{"id": 1, "name": "Manga", "lastScanned": NEVER, "type": 0, "folders": [FOLDER],
                       "folderWatching": True, "libraryFileTypes": [1], "excludePatterns": []}],
        "series": [scroll, moon, star],  # by sort name, as all-v2 sorts them
        "volumes": {
            1: [volume(1, 1, 1, [chapter(11, f"{FOLDER}/{MOON_1}", 1, 3, 3, "2026-11-30T12:00:00.1234567")]),
                volume(2, 1, NO_NUMBER, [
                    chapter(12, f"{FOLDER}/{MOON_2}", 2, 4, 2, "2026-12-01T08:30:00"),
                    chapter(17, f"{FOLDER}/../../etc/passwd.cbz", 9, 9, 1, "2026-11-30T12:00:00"),
                    chapter(18, "/elsewhere/Moon Garden/Moon Garden 010.cbz", 10, 9, 1, "2026-11-30T12:00:00")]),
                volume(3, 1, SPECIALS, [chapter(16, f"{FOLDER}/Moon Garden/Specials/Moon Garden SP01.cbz", None, 5,
                                                2, "2026-11-30T12:00:00", special=True)])],
            2: [volume(4, 2, 1, [chapter(13, f"{FOLDER}/Long Scroll/Long Scroll 003.cbz", 3, 2, 1,
                                         "2026-11-30T12:00:00")]),
                volume(5, 2, 2, [chapter(14, f"{FOLDER}/Long Scroll/Long Scroll v02.cbz", None, 6)])],
            3: [volume(6, 3, NO_NUMBER, [chapter(15, f"{FOLDER}/Star Sea/Star Sea 01.cbz", 1, 10, 5,
                                                 "2026-11-30T12:00:00")])]},
        "wants": [moon, star],
        "collections": [
            {"id": 1, "title": "Favourites", "summary": "The best ones.", "promoted": True, "ageRating": 0,
             "owner": USER, "source": 0},
            {"id": 2, "title": "Later", "summary": "", "promoted": False, "ageRating": 0, "owner": USER, "source": 0},
            {"id": 3, "title": "Staff picks", "summary": "", "promoted": True, "ageRating": 0, "owner": "bob",
             "source": 0}],
        "members": {1: [scroll, moon, star], 2: [moon], 3: [scroll]},
        "lists": [reading_list(2, "Book club", promoted=True), reading_list(1, "Summer reading")],
        "own_lists": [1],
        "items": {1: [item(1, 0, 11, 1, "Moon Garden", 1), item(2, 1, 13, 2, "Long Scroll", 1)],
                  2: [item(3, 0, 15, 3, "Star Sea", 2), item(4, 1, 12, 1, "Moon Garden", 2)]},
    }


class KavitaRest:
    """The server; `raw` (status, content type, bytes) answers every request instead, `redirects` maps
    a request's path and query to the Location of a 307. `requests` lists what it was asked."""

    def __init__(self, data=None, raw=None, redirects=None):
        data = data or answers()
        owner = self
        self.requests = []

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                self.answer("GET")

            def do_POST(self):
                self.answer("POST")

            def answer(self, method):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                owner.requests.append((method, self.path))
                if raw is not None:
                    return self.reply(*raw)
                if self.path in (redirects or {}):
                    self.send_response(307)
                    self.send_header("Location", redirects[self.path])
                    self.send_header("Content-Length", "0")
                    return self.end_headers()
                parts = urlsplit(self.path)
                query = {k: v[0] for k, v in parse_qs(parts.query).items()}
                if (method, parts.path) == ("POST", "/api/Plugin/authenticate"):
                    if query.get("apiKey") != API_KEY or not query.get("pluginName"):
                        return self.json(401, "Unauthorized")
                    return self.json(200, {"username": USER, "email": f"{USER}@example.org", "token": TOKEN,
                                           "refreshToken": "refresh", "apiKey": API_KEY, "kavitaVersion": "0.8.3.16"})
                if self.headers.get("Authorization") != f"Bearer {TOKEN}":
                    return self.json(401, "Unauthorized")
                if parts.path in FILTERED and not isinstance(json.loads(body or b"null"), dict):
                    return self.json(400, {"errors": {"": ["A non-empty request body is required."]}})
                found = route(data, method, parts.path, query)
                if found is None:
                    return self.json(404, None)
                if isinstance(found, Paged):
                    return self.json(200, *found.page(query))
                self.json(200, found)

            def json(self, status, body, headers=None):
                self.reply(status, "application/json; charset=utf-8", json.dumps(body).encode(), headers)

            def reply(self, status, kind, raw, headers=None):
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(raw)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args):
                """Quiet: a test's output shows its failures, not each request of the fixture server."""

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_port
        self.url = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


FILTERED = {"/api/Series/all-v2", "/api/want-to-read/v2"}  # they take a FilterV2Dto as their body


class Paged(list):
    def page(self, query):
        """(one page, its Pagination header) as PagedList.CreateAsync cuts it."""
        number, size = int(query.get("PageNumber") or 1), int(query.get("PageSize") or 0) or 2 ** 31 - 1
        header = {"currentPage": number, "itemsPerPage": size, "totalItems": len(self),
                  "totalPages": math.ceil(len(self) / size)}
        return self[(number - 1) * size:number * size], {"Pagination": json.dumps(header)}


def route(data, method, path, query):
    def number(name):
        return int(query[name]) if query.get(name, "").isdigit() else None

    if method == "GET":
        return {"/api/Users/get-preferences": lambda: data["preferences"],
                "/api/Library/libraries": lambda: data["libraries"],
                "/api/Series/volumes": lambda: data["volumes"].get(number("seriesId"), []),
                "/api/Collection": lambda: data["collections"],
                "/api/Series/series-by-collection": lambda: Paged(data["members"].get(number("collectionId"), [])),
                "/api/ReadingList/items": lambda: data["items"].get(number("readingListId"), []),
                }.get(path, lambda: None)()
    if path in FILTERED:
        return Paged(data["series"] if path == "/api/Series/all-v2" else data["wants"])
    if path == "/api/ReadingList/lists":
        promoted = query.get("includePromoted", "true").lower() != "false"
        return Paged(r for r in data["lists"] if promoted or r["id"] in data["own_lists"])
    return None
