"""A local HTTP server answering as Komga's REST API does (the DTOs of Komga's
interfaces/api/rest/dto: UserDto, LibraryDto, SeriesDto, BookDto with ReadProgressDto, CollectionDto,
ReadListDto), for one user signed in with Basic; built from tests/imports/conftest.py's books."""
import base64
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .conftest import MOON_1, MOON_2

ROOT = "/komga/books"
USER, PASSWORD = "alice@example.org", "komga-secret"


def page(items):
    return {"content": items, "totalElements": len(items), "totalPages": 1, "number": 0, "size": len(items)}


def book(bid, series, sid, rel, number, pages, progress=None):
    return {"id": bid, "seriesId": sid, "seriesTitle": series, "libraryId": "L1", "name": rel.rsplit("/", 1)[-1],
            "url": f"{ROOT}/{rel}", "number": number, "media": {"pagesCount": pages, "status": "READY"},
            "metadata": {"number": str(number), "title": ""}, "readProgress": progress}


def answers():
    moon = {"id": "S1", "libraryId": "L1", "name": "Moon Garden", "url": f"{ROOT}/Moon Garden",
            "metadata": {"title": "Moon Garden (Deluxe)", "titleLock": True, "summary": "Four seasons.",
                         "summaryLock": True, "readingDirection": "LEFT_TO_RIGHT", "readingDirectionLock": False,
                         "tags": ["quiet"], "tagsLock": True, "alternateTitles": [], "alternateTitlesLock": False}}
    scroll = {"id": "S2", "libraryId": "L1", "name": "Long Scroll", "url": f"{ROOT}/Long Scroll",
              "metadata": {"title": "Long Scroll", "titleLock": False}}
    done = {"page": 3, "completed": True, "lastModified": "2026-11-30T12:00:00Z", "readDate": "2026-11-30T12:00:00Z"}
    started = {"page": 2, "completed": False, "lastModified": "2026-11-30T12:00:00Z"}
    books = [book("B1", "Moon Garden", "S1", MOON_1, 1, 3, done),
             book("B2", "Moon Garden", "S1", MOON_2, 2, 4, started),
             book("B3", "Long Scroll", "S2", "Long Scroll/Long Scroll 003.cbz", 3, 2),
             book("B4", "Moon Garden", "S1", "../../etc/passwd.cbz", 9, 1, started)]
    return {
        "/api/v2/users/me": {"id": "U1", "email": USER, "roles": ["ADMIN", "FILE_DOWNLOAD"]},
        "/api/v1/libraries": [{"id": "L1", "name": "Manga", "root": ROOT}],
        "/api/v1/series?unpaged=true": page([moon, scroll]),
        "/api/v1/books?unpaged=true": page(books),
        "/api/v1/collections?unpaged=true": page([{"id": "C1", "name": "Favourites", "ordered": True,
                                                   "seriesIds": ["S2", "S1"]}]),
        "/api/v1/readlists?unpaged=true": page([{"id": "R1", "name": "Summer reading", "summary": "",
                                                 "bookIds": ["B3", "B1"]}]),
    }


class KomgaRest:
    def __init__(self, data=None):
        data = data or answers()
        token = "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                if self.headers.get("Authorization") != token:
                    return self.reply(401, {"error": "Unauthorized"})
                found = data.get(self.path)
                self.reply(200, found) if found is not None else self.reply(404, {"error": "Not Found"})

            def reply(self, status, body):
                raw = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args):
                """Quiet: a test's output shows its failures, not each request of the fixture server."""

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()
