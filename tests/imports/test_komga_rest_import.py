"""Importing from a running Komga through its REST API (imports/komga_api.py), signed in as one user:
their progress, the metadata edited by hand, the collections and read lists, from a local server that
answers as Komga's DTOs say; dry run, import, again; a wrong password and a server that is not Komga."""
import pytest

from tests.support.pages import wait_for_library

from .komga_rest import PASSWORD, USER, KomgaRest
from .support import db_json, lines


@pytest.fixture
def komga():
    k = KomgaRest()
    yield k
    k.stop()


def post(admin, komga, apply=False, password=PASSWORD, url=None):
    return admin.post("/api/admin/import", {"source": "komga", "url": url or komga.url, "login": USER,
                                            "password": password, "apply": apply})


def test_dry_run_then_import_then_again(server, admin, komga):
    wait_for_library(admin, 2)
    status, _, plan = post(admin, komga)
    assert status == 200, plan
    assert (plan["source"], plan["file"]) == ("komga", komga.url)
    created = lines(plan, "created")
    assert ("alice@example.org: Moon Garden / Moon Garden v01 c001.cbz", "alice: Moon Garden · Ch. 1",
            "by file path; finished") in created
    assert ("alice@example.org: Moon Garden / c0002 Roots.cbz", "alice: Moon Garden · Ch. 2",
            "by file path; page 2 of 4") in created
    assert ("metadata: Moon Garden", "catalog override of Moon Garden", "edited by hand there: title, description, "
            "tags") in created
    assert ("collection Favourites", "shared collection Favourites",
            "2 manga; the admins edit it here, as a collection of the whole server") in created
    assert ("read list Summer reading", "shared read list Summer reading",
            "2 chapter(s); the admins edit it here, as a list of the whole server") in created
    assert ("alice@example.org: Moon Garden / passwd.cbz", "", "no chapter numbered 9 in Moon Garden") in lines(
        plan, "not_found")  # its path climbs out: found by number, which it does not have here
    assert "alice" not in db_json(server)["users"]
    done = post(admin, komga, apply=True)[2]
    assert done["written"] == 2 and [a["name"] for a in done["accounts"]] == ["alice"]
    data = db_json(server)
    assert data["progress"]["alice"]["Moon Garden"]["1/1"]["done"] is True
    assert [c["members"] for c in data["collections"].values()] == [["Long Scroll", "Moon Garden"]]
    assert [r["items"] for r in data["readlists"].values()] == [[["Long Scroll", "1/3"], ["Moon Garden", "1/1"]]]
    again = post(admin, komga, apply=True)[2]
    assert again["backup"] is None and again["plan"]["changes"] == 0


def test_a_wrong_password_or_a_server_that_is_not_komga_is_refused_and_changes_nothing(server, admin, komga):
    wait_for_library(admin, 2)
    status, _, body = post(admin, komga, password="wrong")
    assert (status, body["error"]) == (400, "Komga refused the user name or password (401)")
    other = KomgaRest({"/": {}})  # a server of another kind: none of Komga's routes
    try:
        status, _, body = post(admin, komga, url=other.url)
    finally:
        other.stop()
    assert (status, body["error"]) == (400, f"Komga answered /api/v2/users/me with HTTP 404: is {other.url} a Komga "
                                            "server?")
    status, _, body = post(admin, komga, url=other.url)  # stopped: nothing listens there now
    assert status == 400 and body["error"].startswith(f"cannot reach Komga at {other.url}"), body
    status, _, body = post(admin, komga, url="ftp://komga.example")
    assert status == 400 and "is not a Komga server's address" in body["error"]
    assert "alice" not in db_json(server)["users"]
