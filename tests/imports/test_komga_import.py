"""Settings → Admin → Import of a Komga database: the dry run changes nothing and says what will be
matched, created and not found, with reasons; the import backs up first and writes through the
owners; a second import changes nothing."""

from tests.conftest import PASSWORD
from tests.support.pages import wait_for_library

from . import support
from .support import db_json, lines


def plan_of(admin, path, apply=False, **more):
    return support.plan_of(admin, "komga", path, apply, **more)


def test_the_dry_run_lists_what_is_matched_created_and_not_found_and_changes_nothing(server, admin, komga_db):
    wait_for_library(admin, 2)
    before = db_json(server)
    plan = plan_of(admin, komga_db)
    assert plan["counts"] == {"matched": 0, "created": 8, "unchanged": 0, "not_found": 5, "not_imported": 0}
    assert plan["changes"] == 8
    created = lines(plan, "created")
    assert ("user alice@example.org", "account alice", "a new account; its one-time password is shown once, after "
            "the import (an admin there: not made an admin here)") in created
    assert ("alice@example.org: Moon Garden/Moon Garden v01 c001.cbz", "alice: Moon Garden · Ch. 1",
            "by file path; finished") in created
    assert ("alice@example.org: Moon Garden/c0002 Roots.cbz", "alice: Moon Garden · Ch. 2",
            "by file path; page 2 of 4") in created
    assert ("bob@example.org: Long Scroll/Long Scroll 003.cbz", "bob: Long Scroll · Ch. 3",
            "by series name and number; page 1 of 2") in created
    assert lines(plan, "not_found") == {
        ("bob@example.org: Star Sea/Star Sea 01.cbz", "",
         "no file Star Sea/Star Sea 01.cbz here, and no manga named Star Sea"),
        ("progress: Moon Garden / passwd.cbz", "", "its path has a '..' in it"),
        ("metadata: Star Sea", "", "no manga named Star Sea"),
        ("collection Favourites: Star Sea", "", "no manga named Star Sea"),
        ("read list Summer reading: Star Sea / Star Sea 01.cbz", "",
         "no file Star Sea/Star Sea 01.cbz here, and no manga named Star Sea")}
    assert ("metadata: Moon Garden", "catalog override of Moon Garden",
            "edited by hand there: title, description, direction, tags") in created
    assert ("collection Favourites", "shared collection Favourites",
            "2 manga; the admins edit it here, as a collection of the whole server") in created
    assert ("read list Summer reading", "shared read list Summer reading",
            "2 chapter(s); the admins edit it here, as a list of the whole server") in created
    assert plan["not_imported"] == []
    after = db_json(server)
    assert after["users"] == before["users"] and after.get("progress", {}) == before.get("progress", {})
    assert not (server.data.parent / "backups").exists()


def test_the_import_backs_up_then_writes_and_a_second_import_changes_nothing(server, admin, komga_db):
    wait_for_library(admin, 2)
    done = plan_of(admin, komga_db, apply=True)
    assert done["written"] == 3 and [a["name"] for a in done["accounts"]] == ["alice", "bob"]
    assert done["backup"].startswith(str(server.data.parent / "backups")) and done["backup"].endswith(".tar.gz")
    data = db_json(server)
    assert data["users"]["alice"]["admin"] is False
    alice = data["progress"]["alice"]["Moon Garden"]
    assert (alice["1/1"]["p"], alice["1/1"]["n"], alice["1/1"]["done"]) == (2, 3, True)
    assert (alice["0/2"]["p"], alice["0/2"]["done"], alice["0/2"]["v"]) == (1, False, "c0002 Roots.cbz")
    assert data["progress"]["bob"]["Long Scroll"]["1/3"]["p"] == 0
    assert done["overrides"] == 1 and done["collections"] == 1
    [favourites] = data["collections"].values()
    assert (favourites["name"], favourites["owner"], favourites["shared"], favourites["ordered"]) == (
        "Favourites", None, True, True)
    assert favourites["members"] == ["Long Scroll", "Moon Garden"]  # in Komga's order; Star Sea is not here
    [summer] = data["readlists"].values()
    assert (summer["owner"], summer["shared"]) == (None, True)
    assert summer["items"] == [["Long Scroll", "1/3"], ["Moon Garden", "1/1"]]  # by number, then by file path
    moon = admin.get("/api/manga?m=Moon%20Garden")[2]
    assert (moon["title"], moon["direction"]) == ("Moon Garden (Deluxe)", "ltr")
    assert moon["meta"]["description"] == "Four seasons in a garden."
    assert {"seasons", "quiet"} <= set(moon["meta"]["tags"])
    password = done["accounts"][0]["password"]
    assert server.client().post("/api/login", {"name": "alice", "password": password})[0] == 200

    again = plan_of(admin, komga_db)
    assert again["changes"] == 0 and again["counts"]["unchanged"] == 6 and again["counts"]["matched"] == 2
    second = plan_of(admin, komga_db, apply=True)
    assert second["backup"] is None and second["written"] == 0 and second["accounts"] == []
    now = db_json(server)
    assert (now["users"], now["progress"], now["collections"]) == (data["users"], data["progress"], data["collections"])


def test_a_user_there_maps_to_an_existing_account_and_a_newer_position_here_wins(server, admin, komga_db):
    wait_for_library(admin, 2)
    assert admin.post("/api/admin/user", {"name": "bea", "password": PASSWORD})[0] == 200
    bea = server.client().login("bea", PASSWORD)
    saved = {"m": "Long Scroll", "c": "1/3", "v": "c0003.cbz", "p": 1, "n": 2, "done": False, "shift": []}
    assert bea.post("/api/progress", saved)[0] == 200  # now: newer than Komga's 2026-11-30
    plan = plan_of(admin, komga_db, names={"bob@example.org": "bea"})
    assert ("user bob@example.org", "account bea", "an account of that name exists") in lines(plan, "matched")
    assert plan["counts"]["unchanged"] == 1
    plan_of(admin, komga_db, apply=True, names={"bob@example.org": "bea"})
    assert db_json(server)["progress"]["bea"]["Long Scroll"]["1/3"]["p"] == 1


def test_when_db_json_cannot_be_written_nothing_is_imported_not_even_the_overrides(server, admin, komga_db,
                                                                                     monkeypatch):
    from catalog import overrides
    from mangacircus import jsonfile

    wait_for_library(admin, 2)
    real_flush = jsonfile.JsonFile.flush
    def failing(self, *, held=False):
        return False if self.path.name == "db.json" else real_flush(self, held=held)

    monkeypatch.setattr(jsonfile.JsonFile, "flush", failing)
    status, _, body = admin.post("/api/admin/import", {"source": "komga", "path": str(komga_db), "apply": True})
    assert (status, body["error"]) == (503, "saving data is failing on the server, so nothing was changed; "
                                            "try again shortly")
    monkeypatch.undo()
    assert overrides.get("Moon Garden") == {}
    from accounts import users
    from reader import collections

    assert [u["name"] for u in users.list_users()] == ["admin"] and collections.all_items() == []
    assert plan_of(admin, komga_db)["changes"] == 8
