"""Importing a Kavita database (imports/kavita.py): what it reads (pages read, finished, the UTC
time, paths below the library's folder, ratings, want-to-read, collections), the dry run that
changes nothing, the import, a second import that changes nothing, and `manage.py import kavita`."""
import datetime
import json

import pytest

from imports import kavita
from tests.support.pages import wait_for_library

from . import support
from .kavita_db import standard
from .support import db_json, lines
from .test_import_command import manage


def ms(text):
    return int(datetime.datetime.fromisoformat(text).replace(tzinfo=datetime.UTC).timestamp() * 1000)


@pytest.fixture
def kavita_db(tmp_path):
    return standard(tmp_path / "kavita.db")


def plan_of(admin, path, apply=False, **more):
    return support.plan_of(admin, "kavita", path, apply, **more)


def test_the_source_holds_users_progress_ratings_wants_and_collections_as_kavita_has_them(kavita_db):
    source = kavita.read(kavita_db)
    assert [(u["key"], u["label"], u["name"], u["admin"]) for u in source.users.values()] == [
        ("1", "alice", "alice", True), ("2", "bob", "bob", False), ("3", "dan@home", "dan@home", False)]
    progress = {(p["user"], p["path"]): p for p in source.progress}
    moon_1 = progress[("1", "Moon Garden/Moon Garden v01 c001.cbz")]
    assert (moon_1["page"], moon_1["pages"], moon_1["done"], moon_1["number"]) == (2, 3, True, "1")
    assert moon_1["t"] == ms("2026-11-30T12:00:00.123456")  # LastModifiedUtc, not the local LastModified
    moon_2 = progress[("1", "Moon Garden/c0002 Roots.cbz")]
    assert (moon_2["page"], moon_2["done"], moon_2["t"]) == (1, False, ms("2026-12-01T08:30:00"))
    assert progress[("2", "Long Scroll/Long Scroll 003.cbz")]["page"] == 0
    assert progress[("2", "Long Scroll/Long Scroll v02.cbz")]["number"] == ""      # Kavita's -100000
    assert progress[("1", "Moon Garden/Specials/Moon Garden SP01.cbz")]["number"] == ""  # a special
    assert ("2", "Moon Garden/c0002 Roots.cbz") not in progress  # PagesRead 0: marked unread there
    assert len(source.progress) == 7
    assert source.skipped == [
        {"kind": "progress", "what": "Moon Garden / passwd.cbz", "reason": "its path has a '..' in it"},
        {"kind": "progress", "what": "Moon Garden / Moon Garden 010.cbz",
         "reason": "it is not inside its library's folders"}]
    assert [(r["user"], r["series"]["name"], r["stars"]) for r in source.ratings] == [
        ("1", "Moon Garden", 5), ("1", "Star Sea", 3), ("2", "Moon Garden", 1)]  # bob's unrated 0 is not one
    assert [(w["user"], w["series"]["name"]) for w in source.wants] == [("1", "Star Sea"), ("2", "Moon Garden")]
    assert [(c["owner"], c["name"], [s["name"] for s in c["series"]], c["ordered"], c["shared"], c["summary"])
            for c in source.collections] == [
        ("1", "Favourites", ["Long Scroll", "Moon Garden", "Star Sea"], False, True, "The best ones."),
        ("2", "Later", ["Moon Garden"], False, False, "")]
    assert source.ignored == []
    [summer] = source.readlists
    assert (summer["owner"], summer["name"], summer["shared"]) == ("1", "Summer reading", False)
    assert [(b["path"], b["series"]) for b in summer["books"]] == [
        ("Moon Garden/Moon Garden v01 c001.cbz", "Moon Garden"), ("Long Scroll/Long Scroll 003.cbz", "Long Scroll")]


@pytest.mark.parametrize("value, number", [(1.0, "1"), (2.5, "2.5"), (10.100000381469727, "10.1"),
                                           (-100000.0, ""), ("-100000", ""), ("0", ""), (0.0, "0"), (None, "")])
def test_chapter_numbers_and_kavitas_no_number(value, number):
    assert kavita.chapter_number(value) == number


@pytest.mark.parametrize("rating, stars", [(0.4, 1), (1.0, 1), (2.5, 3), (4.4, 4), (4.5, 5), (5.0, 5), (7, 5)])
def test_a_rating_becomes_one_to_five_stars(rating, stars):
    assert kavita.stars(rating) == stars


def test_the_dry_run_lists_what_is_matched_created_and_not_found_and_changes_nothing(server, admin, kavita_db):
    wait_for_library(admin, 2)
    before = db_json(server)
    plan = plan_of(admin, kavita_db)
    assert plan["counts"] == {"matched": 0, "created": 11, "unchanged": 0, "not_found": 10, "not_imported": 0}
    assert plan["changes"] == 11
    created = lines(plan, "created")
    assert ("user alice", "account alice", "a new account; its one-time password is shown once, after the import "
            "(an admin there: not made an admin here)") in created
    assert {("alice: Moon Garden/Moon Garden v01 c001.cbz", "alice: Moon Garden · Ch. 1", "by file path; finished"),
            ("alice: Moon Garden/c0002 Roots.cbz", "alice: Moon Garden · Ch. 2", "by file path; page 2 of 4"),
            ("bob: Long Scroll/Long Scroll 003.cbz", "bob: Long Scroll · Ch. 3",
             "by series name and number; page 1 of 2"),
            ("rating: Moon Garden by alice", "Moon Garden: 5 of 5", "rated there"),
            ("rating: Moon Garden by bob", "Moon Garden: 1 of 5", "rated there"),
            ("want to read: Moon Garden by bob", "bob's want to read: Moon Garden", "on the list there"),
            ("collection Favourites", "shared collection Favourites", "2 manga"),
            ("collection Later", "bob's collection Later", "1 manga")} <= created
    not_found = lines(plan, "not_found")
    assert ("user dan@home", "", "no account can be named dan@home: name must be 1-32 letters, digits, '.', '-' "
            "or '_', starting with a letter or digit") in not_found
    assert {("dan@home: Moon Garden/Moon Garden v01 c001.cbz", "", "its user is not in the database"),
            ("bob: Star Sea/Star Sea 01.cbz", "", "no file Star Sea/Star Sea 01.cbz here, and no manga named Star Sea"),
            ("bob: Long Scroll/Long Scroll v02.cbz", "", "no chapter of Long Scroll has its id, and it has no number"),
            ("alice: Moon Garden/Specials/Moon Garden SP01.cbz", "",
             "no chapter of Moon Garden has its id, and it has no number"),
            ("progress: Moon Garden / passwd.cbz", "", "its path has a '..' in it"),
            ("progress: Moon Garden / Moon Garden 010.cbz", "", "it is not inside its library's folders"),
            ("rating: Star Sea", "", "no manga named Star Sea"),
            ("want to read: Star Sea", "", "no manga named Star Sea"),
            ("collection Favourites: Star Sea", "", "no manga named Star Sea that alice may see")} <= not_found
    assert ("read list Summer reading", "alice's read list Summer reading", "2 chapter(s)") in lines(plan, "created")
    assert plan["not_imported"] == []
    after = db_json(server)
    assert after["users"] == before["users"] and after.get("progress", {}) == before.get("progress", {})
    assert not (server.data.parent / "backups").exists()


def test_the_import_writes_everything_and_a_second_import_changes_nothing(server, admin, kavita_db):
    from reader import collections, ratings, wanttoread

    wait_for_library(admin, 2)
    done = plan_of(admin, kavita_db, apply=True)
    assert done["written"] == 3 and [a["name"] for a in done["accounts"]] == ["alice", "bob"]
    assert (done["collections"], done["ratings"], done["wants"]) == (2, 2, 1)
    data = db_json(server)
    assert data["users"]["alice"]["admin"] is False
    alice = data["progress"]["alice"]["Moon Garden"]
    assert (alice["1/1"]["p"], alice["1/1"]["n"], alice["1/1"]["done"]) == (2, 3, True)
    assert (alice["0/2"]["p"], alice["0/2"]["done"], alice["0/2"]["t"]) == (1, False, ms("2026-12-01T08:30:00"))
    assert data["progress"]["bob"]["Long Scroll"]["1/3"]["p"] == 0
    assert ratings.rating("alice", "Moon Garden")["mine"] == 5 and ratings.rating("bob", "Moon Garden")["mine"] == 1
    assert wanttoread.listed("bob") == ["Moon Garden"]
    items = {c["name"]: c for c in collections.all_items()}
    assert (items["Favourites"]["owner"], items["Favourites"]["shared"], items["Favourites"]["members"]) == (
        "alice", True, ["Long Scroll", "Moon Garden"])
    assert items["Favourites"]["summary"] == "The best ones."
    assert (items["Later"]["owner"], items["Later"]["shared"], items["Later"]["members"]) == ("bob", False,
                                                                                             ["Moon Garden"])

    again = plan_of(admin, kavita_db)
    assert again["changes"] == 0 and again["counts"]["unchanged"] == 9 and again["counts"]["matched"] == 2
    second = plan_of(admin, kavita_db, apply=True)
    assert second["backup"] is None and second["written"] == 0 and second["accounts"] == []
    now = db_json(server)
    assert (now["users"], now["progress"], now["collections"]) == (data["users"], data["progress"], data["collections"])


def test_a_user_there_maps_to_an_existing_account(server, admin, kavita_db):
    wait_for_library(admin, 2)
    plan = plan_of(admin, kavita_db, names={"dan@home": "admin"})
    assert ("user dan@home", "account admin", "an account of that name exists") in lines(plan, "matched")
    assert ("dan@home: Moon Garden/Moon Garden v01 c001.cbz", "admin: Moon Garden · Ch. 1",
            "by file path; page 1 of 3") in lines(plan, "created")


@pytest.mark.process
def test_the_command_line_dry_run_then_import_then_again(data_dir, library_dir, kavita_db):
    dry = manage(data_dir, library_dir, "kavita", "--db", str(kavita_db))
    assert dry.returncode == 0, dry.stderr
    assert f"Import from kavita ({kavita_db}): dry run, nothing was changed." in dry.stdout
    assert "  0 matched, 11 created, 0 already so here, 10 not found, 0 not imported." in dry.stdout
    assert "  progress: Moon Garden / passwd.cbz: its path has a '..' in it" in dry.stdout
    assert "  read list Summer reading → alice's read list Summer reading: 2 chapter(s)" in dry.stdout
    assert "Run again with --apply to make these 11 change(s), after a backup." in dry.stdout
    assert not (data_dir / "db.json").exists() or "alice" not in (data_dir / "db.json").read_text()

    done = manage(data_dir, library_dir, "kavita", "--db", str(kavita_db), "--apply", "--user", "dan@home=dan")
    assert done.returncode == 0, done.stderr
    assert ("Imported: 3 new account(s), 4 position(s), 0 metadata override(s), 2 collection(s), 1 read list(s), "
            "2 rating(s), 1 want-to-read.") in done.stdout
    data = json.loads((data_dir / "db.json").read_text())
    assert sorted(data["users"]) == ["alice", "bob", "dan"] and data["progress"]["dan"]["Moon Garden"]["1/1"]["p"] == 0

    again = manage(data_dir, library_dir, "kavita", "--db", str(kavita_db), "--apply", "--user", "dan@home=dan")
    assert again.returncode == 0, again.stderr
    assert "Nothing was changed: everything is already here." in again.stdout
    assert json.loads((data_dir / "db.json").read_text()) == data


@pytest.mark.process
def test_the_command_line_refuses_what_is_not_a_kavita_database(data_dir, library_dir, tmp_path):
    junk = tmp_path / "kavita.db"
    junk.write_text("not a database")
    done = manage(data_dir, library_dir, "kavita", "--db", str(junk), "--apply")
    assert done.returncode != 0 and f"{junk} is not an SQLite database (it does not start as one)" in done.stderr
    assert not (data_dir / "db.json").exists()
