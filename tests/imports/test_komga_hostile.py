"""Hostile input: what is not a Komga database, a damaged or huge one, text that is not UTF-8, book
addresses that climb out of the library. Each is refused with a message and changes nothing; the
database itself is never written."""
import hashlib
import json
import sqlite3

import pytest

from bench.komga_db import Komga, migrate
from imports import komga, sqlite
from mangacircus.errors import Invalid, TooLarge
from tests.support.pages import wait_for_library


def refused(path, **kw):
    with pytest.raises((Invalid, TooLarge)) as e:
        komga.read(path, **kw)
    return e.value.message


def test_a_file_that_is_not_a_database_is_refused_by_its_first_bytes(tmp_path):
    text = tmp_path / "database.sqlite"
    text.write_text("id,email\n1,alice@example.org\n")
    assert refused(text) == f"{text} is not an SQLite database (it does not start as one)"
    assert refused(tmp_path / "missing.sqlite").startswith(f"cannot read {tmp_path / 'missing.sqlite'}")
    assert refused(tmp_path) .startswith(f"cannot read {tmp_path}")


def test_a_damaged_database_is_refused(tmp_path, komga_db):
    damaged = tmp_path / "damaged.sqlite"
    data = bytearray(komga_db.read_bytes())
    data[100:len(data)] = b"\xff" * (len(data) - 100)  # the header stays, every page after it is noise
    damaged.write_bytes(bytes(data))
    message = refused(damaged)
    assert "damaged" in message or "cannot be read" in message


def test_a_huge_database_is_refused_by_its_size_before_it_is_opened(komga_db):
    size = komga_db.stat().st_size
    assert refused(komga_db, max_bytes=size - 1) == (
        f"{komga_db} is {size:,} bytes, more than the {size - 1:,} an import reads")


def test_a_database_of_another_program_is_refused_naming_what_is_missing(tmp_path):
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE notes (id integer)").connection.commit()
    assert refused(other) == "this is not a Komga database: it has no table USER"
    older = tmp_path / "older.sqlite"
    conn = migrate(older)
    conn.execute("ALTER TABLE READ_PROGRESS DROP COLUMN COMPLETED")
    conn.commit()
    assert refused(older) == "this is not a Komga database it can read: READ_PROGRESS has no column COMPLETED"


def test_text_that_is_not_utf8_is_refused_with_a_message(tmp_path):
    path = tmp_path / "latin1.sqlite"
    k = Komga(path)
    k.conn.execute("INSERT INTO USER (ID, EMAIL, PASSWORD) VALUES ('U1', CAST(X'E96C6F6469' AS TEXT), 'x')")
    k.close()
    assert refused(path).startswith("the database cannot be read: Could not decode to UTF-8")


def test_a_query_that_runs_too_long_is_stopped(komga_db):
    conn = sqlite.open_readonly(komga_db, seconds=0.2)
    endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"
    with pytest.raises(Invalid, match="took longer than"):
        sqlite.rows(conn, endless)
    with pytest.raises(sqlite3.OperationalError, match="readonly|query_only"):
        conn.execute("DELETE FROM USER")


@pytest.mark.parametrize("url, why", [
    ("file:///komga/books/../../etc/passwd.cbz", "its path has a '..' in it"),
    ("file:///komga/books/%2E%2E/etc/passwd.cbz", "its path has a '..' in it"),
    ("file:///elsewhere/Moon%20Garden/v01.cbz", "it is not inside its library's folder"),
    ("http://example.org/Moon%20Garden/v01.cbz", "its address is not a file URL"),
    ("file:///komga/books/", "it is its library's folder itself"),
])
def test_book_addresses_outside_the_library_are_not_found_with_their_reason(url, why):
    assert komga.relative_path(url, "file:///komga/books/") == (None, why)


def test_the_relative_path_of_a_book_is_its_path_below_the_root():
    assert komga.relative_path("file:///komga/books/Moon%20Garden/v%C3%A9.cbz", "file:///komga/books/") == (
        "Moon Garden/vé.cbz", None)


def test_a_refused_file_changes_nothing_and_the_database_is_never_written(server, admin, komga_db, tmp_path):
    wait_for_library(admin, 2)
    digest = hashlib.sha256(komga_db.read_bytes()).hexdigest()
    assert admin.post("/api/admin/import", {"source": "komga", "path": str(komga_db), "apply": True})[0] == 200
    assert hashlib.sha256(komga_db.read_bytes()).hexdigest() == digest
    assert not (komga_db.parent / "database.sqlite-journal").exists()
    from mangacircus import db

    db.flush_now()
    before = (server.data / "db.json").read_bytes()
    text = tmp_path / "not.sqlite"
    text.write_text("hello")
    status, _, body = admin.post("/api/admin/import", {"source": "komga", "path": str(text), "apply": True})
    assert (status, body["error"]) == (400, f"{text} is not an SQLite database (it does not start as one)")
    status, _, body = admin.post("/api/admin/import", {"source": "calibre", "path": str(text)})
    assert (status, body["error"]) == (400, "unknown source 'calibre': it is one of kavita, komga, mihon")
    db.flush_now()
    assert json.loads((server.data / "db.json").read_bytes()) == json.loads(before)
