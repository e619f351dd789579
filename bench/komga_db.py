"""A Komga `database.sqlite` made as Komga makes it: its own Flyway migrations, in version order,
with the placeholders its build gives them, then rows as Komga writes them (docs/import.md).

The migrations are copied under tests/imports/komga_migrations/ (README there: repository and
commit). Komga stores a file's address as `Path.toUri().toURL()` and dates as UTC text.
"""
import sqlite3
from pathlib import Path
from urllib.parse import quote

MIGRATIONS = Path(__file__).resolve().parent.parent / "tests" / "imports" / "komga_migrations"
# komga/build.gradle.kts, flyway { placeholders = … }
PLACEHOLDERS = {"library-file-hashing": "true", "library-scan-startup": "false",
                "delete-empty-collections": "true", "delete-empty-read-lists": "true"}
STAMP = "2026-11-30 10:00:00.000"


def file_url(path, folder=False):
    return "file://" + quote(str(path)) + ("/" if folder else "")


def migrate(path):
    """An empty Komga database at `path`, at the newest migration copied."""
    conn = sqlite3.connect(path)
    for sql in sorted(MIGRATIONS.glob("V*.sql"), key=lambda p: int(p.name[1:].split("__")[0])):
        text = sql.read_text(encoding="utf-8")
        for name, value in PLACEHOLDERS.items():
            text = text.replace("${" + name + "}", value)
        conn.executescript(text)
    conn.commit()
    return conn


class Komga:
    """Rows as Komga's DAOs insert them (ids are Komga's TSID strings; here readable ones)."""

    def __init__(self, path, root="/komga/books"):
        self.conn = migrate(path)
        self.root = root
        self.series = {}
        self.insert("LIBRARY", ID="LIB1", CREATED_DATE=STAMP, LAST_MODIFIED_DATE=STAMP, NAME="Manga",
                    ROOT=file_url(root, folder=True))

    def insert(self, table, **columns):
        names = ", ".join(columns)
        marks = ", ".join("?" * len(columns))
        self.conn.execute(f"INSERT INTO {table} ({names}) VALUES ({marks})", tuple(columns.values()))

    def user(self, uid, email, admin=False):
        self.insert("USER", ID=uid, CREATED_DATE=STAMP, LAST_MODIFIED_DATE=STAMP, EMAIL=email,
                    PASSWORD="{bcrypt}$2a$10$x", SHARED_ALL_LIBRARIES=1)
        for role in (("ADMIN",) if admin else ()) + ("FILE_DOWNLOAD", "PAGE_STREAMING"):
            self.insert("USER_ROLE", USER_ID=uid, ROLE=role)

    def book(self, bid, series, rel, number, pages, title=None):
        """A book at `rel` below the library's root, in the series folder named `series`."""
        if series not in self.series:
            sid = f"S{len(self.series) + 1}"
            self.series[series] = sid
            self.insert("SERIES", ID=sid, CREATED_DATE=STAMP, LAST_MODIFIED_DATE=STAMP, FILE_LAST_MODIFIED=STAMP,
                        NAME=series, URL=file_url(f"{self.root}/{series}", folder=True), LIBRARY_ID="LIB1",
                        BOOK_COUNT=0)
            self.insert("SERIES_METADATA", CREATED_DATE=STAMP, LAST_MODIFIED_DATE=STAMP, STATUS="ONGOING",
                        TITLE=title or series, TITLE_SORT=title or series, SERIES_ID=sid)
        sid = self.series[series]
        name = rel.rpartition("/")[2].rpartition(".")[0]
        self.insert("BOOK", ID=bid, CREATED_DATE=STAMP, LAST_MODIFIED_DATE=STAMP, FILE_LAST_MODIFIED=STAMP, NAME=name,
                    URL=file_url(f"{self.root}/{rel}"), SERIES_ID=sid, FILE_SIZE=1000, NUMBER=number, LIBRARY_ID="LIB1")
        self.insert("BOOK_METADATA", CREATED_DATE=STAMP, LAST_MODIFIED_DATE=STAMP, NUMBER=str(number),
                    NUMBER_SORT=float(number), TITLE=name, BOOK_ID=bid)
        self.insert("MEDIA", MEDIA_TYPE="application/zip", STATUS="READY", CREATED_DATE=STAMP,
                    LAST_MODIFIED_DATE=STAMP, BOOK_ID=bid, PAGE_COUNT=pages)

    def edit_series(self, series, title=None, summary=None, direction=None, tags=()):
        """What an admin's edit of a series' metadata leaves: the value, and its field locked."""
        sid = self.series[series]
        for column, value in (("TITLE", title), ("SUMMARY", summary), ("READING_DIRECTION", direction)):
            if value is not None:
                self.conn.execute(f"UPDATE SERIES_METADATA SET {column} = ?, {column}_LOCK = 1 WHERE SERIES_ID = ?",
                                  (value, sid))
        if tags:
            self.conn.execute("UPDATE SERIES_METADATA SET TAGS_LOCK = 1 WHERE SERIES_ID = ?", (sid,))
            for tag in tags:
                self.insert("SERIES_METADATA_TAG", TAG=tag, SERIES_ID=sid)

    def book_at_url(self, bid, series, url, number):
        """A book whose stored address is `url` as given (hostile fixtures)."""
        self.book(bid, series, "placeholder.cbz", number, 1)
        self.conn.execute("UPDATE BOOK SET URL = ? WHERE ID = ?", (url, bid))

    def progress(self, bid, uid, page, completed, when="2026-11-30 12:00:00.000"):
        """Komga's page counts from 1."""
        self.insert("READ_PROGRESS", BOOK_ID=bid, USER_ID=uid, CREATED_DATE=when, LAST_MODIFIED_DATE=when, PAGE=page,
                    COMPLETED=int(completed), READ_DATE=when if completed else None)

    def collection(self, cid, name, series=(), ordered=False):
        """A collection of the series named `series` (made by book()), in that order, as Komga numbers them."""
        self.insert("COLLECTION", ID=cid, NAME=name, ORDERED=int(ordered), SERIES_COUNT=len(series),
                    CREATED_DATE=STAMP, LAST_MODIFIED_DATE=STAMP)
        for number, name in enumerate(series):
            self.insert("COLLECTION_SERIES", COLLECTION_ID=cid, SERIES_ID=self.series[name], NUMBER=number)

    def readlist(self, rid, name, books=()):
        """A read list of the books with these ids (made by book()), in that order."""
        self.insert("READLIST", ID=rid, NAME=name, BOOK_COUNT=len(books), CREATED_DATE=STAMP, LAST_MODIFIED_DATE=STAMP)
        for number, bid in enumerate(books):
            self.insert("READLIST_BOOK", READLIST_ID=rid, BOOK_ID=bid, NUMBER=number)

    def close(self):
        self.conn.commit()
        self.conn.close()
