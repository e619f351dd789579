"""Hostile input for the Kavita import: what is not a Kavita database, a damaged one, one without
Kavita's tables or columns, text that is not UTF-8, file paths that climb out of the library. Each
is refused or skipped with a message and changes nothing; the database is never written."""
import hashlib
import json
import sqlite3

import pytest

from imports import kavita
from mangacircus.errors import Invalid, TooLarge
from tests.support.pages import wait_for_library

from .kavita_db import SCHEMA, Kavita, create, standard


@pytest.fixture
def kavita_db(tmp_path):
    return standard(tmp_path / "kavita.db")


def refused(path, **kw):
    with pytest.raises((Invalid, TooLarge)) as e:
        kavita.read(path, **kw)
    return e.value.message


def test_a_file_that_is_not_a_database_is_refused_by_its_first_bytes(tmp_path):
    text = tmp_path / "kavita.db"
    text.write_text("Id,UserName\n1,alice\n")
    assert refused(text) == f"{text} is not an SQLite database (it does not start as one)"
    assert refused(tmp_path / "missing.db").startswith(f"cannot read {tmp_path / 'missing.db'}")


def test_a_damaged_database_is_refused(tmp_path, kavita_db):
    damaged = tmp_path / "damaged.db"
    data = bytearray(kavita_db.read_bytes())
    data[100:] = b"\xff" * (len(data) - 100)  # the header stays, every page after it is noise
    damaged.write_bytes(bytes(data))
    message = refused(damaged)
    assert "damaged" in message or "cannot be read" in message


def test_a_huge_database_is_refused_by_its_size(kavita_db):
    size = kavita_db.stat().st_size
    assert refused(kavita_db, max_bytes=size - 1) == (
        f"{kavita_db} is {size:,} bytes, more than the {size - 1:,} an import reads")


def test_a_database_without_kavitas_tables_or_columns_is_refused_naming_what_is_missing(tmp_path, kavita_db):
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE notes (id integer)").connection.commit()
    assert refused(other) == "this is not a Kavita database: it has no table ASPNETUSERS"
    assert refused(_without_table(tmp_path, "MangaFile")) == (
        "this is not a Kavita database: it has no table MANGAFILE")
    conn = sqlite3.connect(kavita_db)
    conn.execute('ALTER TABLE "AppUserProgresses" DROP COLUMN "PagesRead"')
    conn.commit()
    conn.close()
    assert refused(kavita_db) == "this is not a Kavita database it can read: APPUSERPROGRESSES has no column PAGESREAD"


def _without_table(tmp_path, table):
    path = tmp_path / f"no-{table}.db"
    conn = sqlite3.connect(path)
    create(conn, {name: columns for name, columns in SCHEMA.items() if name != table})
    conn.commit()
    conn.close()
    return path


def test_the_optional_tables_may_be_missing(tmp_path):
    """An older Kavita: no ratings, collections or reading lists, want-to-read on the series."""
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    optional = {"AppUserRating", "AppUserWantToRead", "AppUserCollection", "AppUserCollectionSeries", "ReadingList",
                "ReadingListItem", "AspNetRoles", "AspNetUserRoles"}
    create(conn, {name: columns for name, columns in SCHEMA.items() if name not in optional})
    conn.execute('ALTER TABLE "Series" ADD COLUMN "AppUserId" INTEGER NULL')
    conn.execute('INSERT INTO "AspNetUsers" ("UserName", "EmailConfirmed", "AgeRestriction", "RowVersion", "Created",'
                 ' "CreatedUtc", "LastActive", "LastActiveUtc") VALUES (\'alice\', 1, 0, 0, \'\', \'\', \'\', \'\')')
    conn.execute('INSERT INTO "Series" ("Name", "Format", "Pages", "LibraryId", "AppUserId", "Created", "LastModified",'
                 ' "CreatedUtc", "LastModifiedUtc") VALUES (\'Moon Garden\', 1, 0, 1, 1, \'\', \'\', \'\', \'\')')
    conn.commit()
    conn.close()
    source = kavita.read(path)
    assert source.users["1"]["admin"] is False
    assert source.wants == [{"user": "1", "series": {"name": "Moon Garden", "title": None}}]
    assert (source.ratings, source.collections, source.ignored) == ([], [], [])


def test_text_that_is_not_utf8_is_refused_with_a_message(tmp_path):
    path = tmp_path / "latin1.db"
    k = Kavita(path)
    k.conn.execute('INSERT INTO "AspNetUsers" ("UserName", "EmailConfirmed", "AgeRestriction", "RowVersion", '
                   '"Created", "CreatedUtc", "LastActive", "LastActiveUtc") '
                   "VALUES (CAST(X'E96C6F6469' AS TEXT), 1, 0, 0, '', '', '', '')")
    k.close()
    assert refused(path).startswith("the database cannot be read: Could not decode to UTF-8")


@pytest.mark.parametrize("file_path, why", [
    ("/data/manga/../../etc/passwd.cbz", "its path has a '..' in it"),
    ("/data/manga/Moon Garden/../../../etc/passwd.cbz", "its path has a '..' in it"),
    ("/data/manga-other/Moon Garden/v01.cbz", "it is not inside its library's folders"),
    ("/elsewhere/Moon Garden/v01.cbz", "it is not inside its library's folders"),
    ("Moon Garden/v01.cbz", "it is not inside its library's folders"),
    ("/data/manga", "it is not inside its library's folders"),
    ("/data/manga/Moon\x00Garden.cbz", "it has no file path"),
    (None, "it has no file path"),
])
def test_file_paths_outside_the_library_are_skipped_with_their_reason(file_path, why):
    assert kavita.relative_path(file_path, ["/data/manga", "/data/../etc"]) == (None, why)


def test_the_relative_path_is_below_the_innermost_folder_that_holds_the_file():
    folders = ["/data", "/data/manga/", "D:\\Comics"]
    assert kavita.relative_path("/data/manga/Moon Garden/v01.cbz", folders) == ("Moon Garden/v01.cbz", None)
    assert kavita.relative_path("D:/Comics/Star Sea/01.cbz", folders) == ("Star Sea/01.cbz", None)


def test_a_refused_file_changes_nothing_and_the_database_is_never_written(server, admin, kavita_db, tmp_path):
    wait_for_library(admin, 2)
    digest = hashlib.sha256(kavita_db.read_bytes()).hexdigest()
    assert admin.post("/api/admin/import", {"source": "kavita", "path": str(kavita_db), "apply": True})[0] == 200
    assert hashlib.sha256(kavita_db.read_bytes()).hexdigest() == digest
    assert not (kavita_db.parent / "kavita.db-journal").exists()
    from mangacircus import db

    db.flush_now()
    before = (server.data / "db.json").read_bytes()
    text = tmp_path / "not.db"
    text.write_text("hello")
    status, _, body = admin.post("/api/admin/import", {"source": "kavita", "path": str(text), "apply": True})
    assert (status, body["error"]) == (400, f"{text} is not an SQLite database (it does not start as one)")
    db.flush_now()
    assert json.loads((server.data / "db.json").read_bytes()) == json.loads(before)
