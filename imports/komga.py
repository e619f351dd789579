"""Reading a Komga server's `database.sqlite` (docs/import.md, "Komga"): its users, each book's read
progress with the book's file path below its library's root, and what is not imported.

Komga writes a book's URL as `Path.toUri().toURL()` ("file:///books/Moon%20Garden/v01.cbz"), its
dates as UTC, and a page number from 1; progress here counts pages from 0.
"""
import datetime
import re
from pathlib import PurePosixPath
from urllib.parse import unquote, urlsplit

from . import sqlite
from .source import Source

NEEDED = {
    "USER": {"ID", "EMAIL"},
    "LIBRARY": {"ID", "ROOT"},
    "SERIES": {"ID", "NAME", "LIBRARY_ID"},
    "BOOK": {"ID", "URL", "SERIES_ID", "LIBRARY_ID", "NUMBER"},
    "READ_PROGRESS": {"BOOK_ID", "USER_ID", "PAGE", "COMPLETED", "LAST_MODIFIED_DATE"},
}

PROGRESS = """
SELECT r.USER_ID, b.URL, l.ROOT, s.NAME, {title}, {number}, b.NUMBER, r.PAGE, r.COMPLETED,
       r.LAST_MODIFIED_DATE, {pages}
FROM READ_PROGRESS r JOIN BOOK b ON b.ID = r.BOOK_ID JOIN SERIES s ON s.ID = b.SERIES_ID
JOIN LIBRARY l ON l.ID = b.LIBRARY_ID {joins}
"""


def read(path, max_bytes=None):
    """The Source of the Komga database at `path`."""
    conn = sqlite.open_readonly(path, max_bytes)
    try:
        found = sqlite.tables(conn)
        sqlite.require(found, "Komga", NEEDED)
        source = Source("komga", str(path))
        admins = _admins(conn, found)
        for user_id, email in sqlite.rows(conn, "SELECT ID, EMAIL FROM USER ORDER BY EMAIL"):
            source.add_user(str(user_id), str(email), suggest_name(str(email)), user_id in admins)
        for row in sqlite.rows(conn, _progress_sql(found)):
            _add_progress(source, row)
        _overrides(conn, found, source)
        _collections(conn, found, source)
        _readlists(conn, found, source)
        return source
    finally:
        conn.close()


def _admins(conn, found):
    if "USER_ROLE" in found:
        return {r[0] for r in sqlite.rows(conn, "SELECT USER_ID FROM USER_ROLE WHERE ROLE = 'ADMIN'")}
    if "ROLE_ADMIN" in found["USER"]:
        return {r[0] for r in sqlite.rows(conn, "SELECT ID FROM USER WHERE ROLE_ADMIN")}
    return set()


def _progress_sql(found):
    joins, title, number, pages = [], "NULL", "NULL", "NULL"
    if {"SERIES_ID", "TITLE"} <= found.get("SERIES_METADATA", set()):
        joins.append("LEFT JOIN SERIES_METADATA sm ON sm.SERIES_ID = s.ID")
        title = "sm.TITLE"
    if {"BOOK_ID", "NUMBER"} <= found.get("BOOK_METADATA", set()):
        joins.append("LEFT JOIN BOOK_METADATA bm ON bm.BOOK_ID = b.ID")
        number = "bm.NUMBER"
    if {"BOOK_ID", "PAGE_COUNT"} <= found.get("MEDIA", set()):
        joins.append("LEFT JOIN MEDIA m ON m.BOOK_ID = b.ID")
        pages = "m.PAGE_COUNT"
    return PROGRESS.format(title=title, number=number, pages=pages, joins=" ".join(joins))


def _add_progress(source, row):
    user_id, url, root, series, title, number, book_number, page, completed, modified, pages = row
    what = f"{series} / {_file_name(url)}"
    rel, why = relative_path(url, root)
    if rel is None:
        source.skip("progress", what, why)
        return
    try:
        page = max(0, int(page) - 1)
        pages = int(pages) if pages else None
    except (TypeError, ValueError):
        source.skip("progress", what, "its page is not a number")
        return
    source.add_progress(str(user_id), path=rel, series=str(series), title=str(title) if title else None,
                        number=str(number if number not in (None, "") else book_number or ""),
                        page=page, pages=pages, done=bool(completed), t=parse_date(modified))


def _file_name(url):
    return unquote(str(url).rstrip("/").rpartition("/")[2])


def relative_path(url, root):
    """(the book's path below its library's root, None) or (None, why)."""
    book, base = _path_of(url), _path_of(root)
    if book is None or base is None:
        return None, "its address is not a file URL"
    if ".." in book.parts or ".." in base.parts:
        return None, "its path has a '..' in it"
    try:
        rel = book.relative_to(base)
    except ValueError:
        return None, "it is not inside its library's folder"
    if not rel.parts:
        return None, "it is its library's folder itself"
    return rel.as_posix(), None


def _path_of(url):
    if not isinstance(url, str):
        return None
    parts = urlsplit(url)
    if parts.scheme != "file":
        return None
    path = unquote(parts.path)
    if "\x00" in path:
        return None
    return PurePosixPath(path)


def parse_date(value):
    """Komga's date (text "2024-05-01 10:00:00.123" or "…T…", or ms) as ms since the epoch, UTC; 0
    when it cannot be read (the stored position then wins, progress.merged)."""
    if isinstance(value, (int, float)):
        return int(value)
    try:
        when = datetime.datetime.fromisoformat(str(value).replace(" ", "T").rstrip("Z"))
    except ValueError:
        return 0
    return int(when.replace(tzinfo=when.tzinfo or datetime.UTC).timestamp() * 1000)


DIRECTIONS = {"LEFT_TO_RIGHT": "ltr", "RIGHT_TO_LEFT": "rtl", "VERTICAL": "ttb", "WEBTOON": "ttb"}
LOCKS = {"TITLE", "TITLE_LOCK", "SUMMARY", "SUMMARY_LOCK", "READING_DIRECTION", "READING_DIRECTION_LOCK",
         "TAGS_LOCK", "ALTERNATE_TITLES_LOCK", "SERIES_ID"}


def _overrides(conn, found, source):
    """The series metadata a Komga admin edited by hand: Komga locks each field so edited (…_LOCK),
    and only locked fields become catalog overrides here."""
    if not LOCKS <= found.get("SERIES_METADATA", set()):
        return
    tags, alt = {}, {}
    if {"TAG", "SERIES_ID"} <= found.get("SERIES_METADATA_TAG", set()):
        for sid, tag in sqlite.rows(conn, "SELECT SERIES_ID, TAG FROM SERIES_METADATA_TAG ORDER BY TAG"):
            tags.setdefault(sid, []).append(str(tag))
    if {"TITLE", "SERIES_ID"} <= found.get("SERIES_METADATA_ALTERNATE_TITLE", set()):
        for sid, title in sqlite.rows(conn, "SELECT SERIES_ID, TITLE FROM SERIES_METADATA_ALTERNATE_TITLE"):
            alt.setdefault(sid, []).append(str(title))
    query = ("SELECT s.ID, s.NAME, m.TITLE, m.TITLE_LOCK, m.SUMMARY, m.SUMMARY_LOCK, m.READING_DIRECTION,"
             " m.READING_DIRECTION_LOCK, m.TAGS_LOCK, m.ALTERNATE_TITLES_LOCK FROM SERIES s"
             " JOIN SERIES_METADATA m ON m.SERIES_ID = s.ID ORDER BY s.NAME")
    for sid, name, title, t_lock, summary, s_lock, direction, d_lock, tag_lock, alt_lock in sqlite.rows(conn, query):
        fields = {}
        if t_lock and title:
            fields["title"] = str(title)
        if s_lock and summary:
            fields["description"] = str(summary)
        if d_lock and direction in DIRECTIONS:
            fields["direction"] = DIRECTIONS[direction]
        if tag_lock and tags.get(sid):
            fields["tags"] = tags[sid]
        if alt_lock and alt.get(sid):
            fields["altTitles"] = alt[sid]
        if fields:
            source.add_override(str(name), fields)


def _collections(conn, found, source):
    """Komga's collections belong to the whole server (its admins make them): shared ones here."""
    if not ({"ID", "NAME", "ORDERED"} <= found.get("COLLECTION", set())
            and {"COLLECTION_ID", "SERIES_ID", "NUMBER"} <= found.get("COLLECTION_SERIES", set())):
        return
    title = "sm.TITLE" if {"SERIES_ID", "TITLE"} <= found.get("SERIES_METADATA", set()) else "NULL"
    join = "LEFT JOIN SERIES_METADATA sm ON sm.SERIES_ID = s.ID" if title != "NULL" else ""
    members = {}
    query = (f"SELECT cs.COLLECTION_ID, s.NAME, {title} FROM COLLECTION_SERIES cs JOIN SERIES s ON s.ID = cs.SERIES_ID"
             f" {join} ORDER BY cs.COLLECTION_ID, cs.NUMBER")
    for cid, name, series_title in sqlite.rows(conn, query):
        members.setdefault(cid, []).append({"name": str(name), "title": str(series_title) if series_title else None})
    for cid, name, ordered in sqlite.rows(conn, "SELECT ID, NAME, ORDERED FROM COLLECTION ORDER BY NAME"):
        source.add_collection(None, str(name), members.get(cid, []), ordered=bool(ordered), shared=True)


def _readlists(conn, found, source):
    """Komga's read lists belong to the whole server, as its collections do: shared ones here, each
    book found as its read progress is (its file path, then series and number)."""
    if not ({"ID", "NAME"} <= found.get("READLIST", set())
            and {"READLIST_ID", "BOOK_ID", "NUMBER"} <= found.get("READLIST_BOOK", set())):
        return
    summary = "r.SUMMARY" if "SUMMARY" in found["READLIST"] else "NULL"
    number = "bm.NUMBER" if {"BOOK_ID", "NUMBER"} <= found.get("BOOK_METADATA", set()) else "NULL"
    join = "LEFT JOIN BOOK_METADATA bm ON bm.BOOK_ID = b.ID" if number != "NULL" else ""
    books = {}
    query = (f"SELECT rb.READLIST_ID, b.URL, l.ROOT, s.NAME, {number}, b.NUMBER FROM READLIST_BOOK rb"
             f" JOIN BOOK b ON b.ID = rb.BOOK_ID JOIN SERIES s ON s.ID = b.SERIES_ID"
             f" JOIN LIBRARY l ON l.ID = b.LIBRARY_ID"
             f" {join} ORDER BY rb.READLIST_ID, rb.NUMBER")
    for rid, url, root, series, meta_number, book_number in sqlite.rows(conn, query):
        rel, _ = relative_path(url, root)
        books.setdefault(rid, []).append({
            "path": rel, "series": str(series), "title": None, "what": f"{series} / {_file_name(url)}",
            "number": str(meta_number if meta_number not in (None, "") else book_number or "")})
    for rid, name, text in sqlite.rows(conn, f"SELECT r.ID, r.NAME, {summary} FROM READLIST r ORDER BY r.NAME"):
        source.add_readlist(None, str(name), books.get(rid, []), shared=True, summary=str(text or ""))


def suggest_name(email):
    """The account name a Komga user gets here: the e-mail's local part, in the letters a name may
    hold (accounts.users.NAME_RE)."""
    local = email.partition("@")[0]
    name = re.sub(r"[^\w.-]+", "-", local).strip("-._")[:32]
    return name or "komga-user"
