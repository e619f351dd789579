"""Opening another server's SQLite database for an import: read-only, and refused before a byte of
it is trusted when it is not one, is too large, or is damaged (docs/import.md, "Refused input")."""
import sqlite3
import time
from pathlib import Path

from django.utils.translation import gettext as _

from mangacircus.errors import Invalid, TooLarge

MAX_BYTES = 4 * 1024 ** 3  # far beyond a real Komga or Kavita database (metadata, no images)
SECONDS = 60  # a query that runs longer is stopped: a crafted view could run for ever
HEADER = b"SQLite format 3\x00"


def open_readonly(path, max_bytes=None, seconds=None):
    """A connection to the database at `path` that cannot write it (mode=ro, query_only) and runs
    none of its triggers' or views' functions (trusted_schema off); Invalid or TooLarge otherwise."""
    path = Path(path)
    limit = max_bytes or MAX_BYTES
    try:
        size = path.stat().st_size
        with open(path, "rb") as f:
            head = f.read(len(HEADER))
    except OSError as e:
        raise Invalid(_("cannot read %(path)s: %(error)s") % {"path": path, "error": e.strerror or e}) from None
    if not path.is_file():
        raise Invalid(_("%(path)s is not a file") % {"path": path})
    if size > limit:
        raise TooLarge(_("%(path)s is %(size)s bytes, more than the %(limit)s an import reads")
                       % {"path": path, "size": f"{size:,}", "limit": f"{limit:,}"})
    if head != HEADER:
        raise Invalid(_("%(path)s is not an SQLite database (it does not start as one)") % {"path": path})
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
        conn.execute("PRAGMA query_only = ON")
        conn.execute("PRAGMA trusted_schema = OFF")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as e:
        raise Invalid(_("%(path)s cannot be read as an SQLite database: %(error)s")
                      % {"path": path, "error": e}) from None
    deadline = time.monotonic() + (seconds or SECONDS)
    conn.set_progress_handler(lambda: 1 if time.monotonic() > deadline else 0, 10_000)
    return conn


def tables(conn):
    """{table name: {column names}} (upper-cased), views left out."""
    found = {}
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        found[name.upper()] = {row[1].upper() for row in conn.execute(f'PRAGMA table_info("{name}")')}
    return found


def require(found, what, needed):
    """Invalid naming the first table or column of `needed` ({table: {columns}}) that is missing."""
    for table, columns in needed.items():
        if table not in found:
            raise Invalid(_("this is not a %(what)s database: it has no table %(table)s")
                          % {"what": what, "table": table})
        missing = sorted(set(columns) - found[table])
        if missing:
            raise Invalid(_("this is not a %(what)s database it can read: %(table)s has no column %(column)s")
                          % {"what": what, "table": table, "column": missing[0]})


def rows(conn, sql, params=()):
    """The rows of a query, as a message rather than a traceback when the database is damaged."""
    try:
        return conn.execute(sql, params).fetchall()
    except sqlite3.OperationalError as e:
        if "interrupted" in str(e):
            raise Invalid(_("reading the database took longer than %(seconds)s s, so it was stopped")
                          % {"seconds": SECONDS}) from None
        raise Invalid(_("the database cannot be read: %(error)s") % {"error": e}) from None
    except sqlite3.DatabaseError as e:
        raise Invalid(_("the database is damaged: %(error)s") % {"error": e}) from None
