"""The curators' API and what readers see of it: inverses on the manga page, missing members kept and
revived, overrides in the library and manga API, 409 on a stale revision, refusals naming the problem."""
import shutil

import pytest

from tests.conftest import PASSWORD
from tests.support.pages import wait_for_library

MOON, SCROLL = "Moon Garden", "Long Scroll"


@pytest.fixture
def curator(server, admin):
    wait_for_library(admin, 2)
    return admin


def rev(client):
    return client.get("/api/admin/catalog")[2]["rev"]


def add(client, a, type_, b, **extra):
    return client.post("/api/admin/catalog/relations", {"rev": rev(client), "a": a, "type": type_, "b": b, **extra})


def test_it_shows_a_relation_and_its_inverse_to_every_user(server, curator, reader_user):
    status, _, body = add(curator, MOON, "sequel", SCROLL, note="ten years on")
    assert status == 200, body
    moon = reader_user.get("/api/manga?m=Moon%20Garden")[2]
    assert [(r["label"], r["title"], r["url"], r["missing"]) for r in moon["relations"]] == [
        ("Sequel", SCROLL, "manga/Long%20Scroll/", False)]
    scroll = reader_user.get("/api/manga?m=Long%20Scroll")[2]
    assert [(r["type"], r["name"]) for r in scroll["relations"]] == [("prequel", MOON)]
    html = reader_user.get("/manga/Long%20Scroll/")[2].decode()
    assert "Prequel:" in html and 'href="/manga/Moon%20Garden/"' in html and "ten years on" in html


@pytest.mark.parametrize(("body", "words"), [
    ({"a": MOON, "type": "sequel", "b": MOON}, "cannot be related to itself"),
    ({"a": MOON, "type": "reboot", "b": SCROLL}, "'reboot' is not a relation type"),
])
def test_it_refuses_a_bad_relation_with_400_naming_the_problem(curator, body, words):
    status, _, answer = curator.post("/api/admin/catalog/relations", {"rev": rev(curator), **body})
    assert status == 400 and words in answer["error"]


def test_it_refuses_a_contradiction_with_400(curator):
    assert add(curator, MOON, "sequel", SCROLL)[0] == 200
    status, _, answer = add(curator, SCROLL, "sequel", MOON)
    assert status == 400 and "cannot be both prequel and sequel" in answer["error"]


def test_it_answers_409_to_a_stale_edit_and_changes_nothing(curator):
    seen = rev(curator)
    assert add(curator, MOON, "sequel", SCROLL)[0] == 200
    status, _, answer = curator.post("/api/admin/catalog/groups", {"rev": seen, "name": "Late", "members": [MOON]})
    assert status == 409 and "changed since you loaded it" in answer["error"]
    assert curator.get("/api/admin/catalog")[2]["groups"] == []


def test_it_keeps_missing_members_and_revives_them_when_the_folder_returns(server, curator, library_dir, tmp_path):
    status, _, body = curator.post("/api/admin/catalog/groups", {
        "rev": rev(curator), "name": "Cycle", "members": [MOON, SCROLL, "Not Yet Here"], "ordered": True})
    assert status == 200, body
    assert add(curator, MOON, "side-story", SCROLL)[0] == 200
    shutil.move(library_dir / SCROLL, tmp_path / "away")
    assert curator.post("/api/admin/rescan", {"full": False})[0] == 200
    moon = curator.get("/api/manga?m=Moon%20Garden")[2]
    members = {m["name"]: m["missing"] for m in moon["groups"][0]["members"]}
    assert members == {MOON: False, SCROLL: True, "Not Yet Here": True}
    assert [(r["name"], r["missing"], r["url"]) for r in moon["relations"]] == [(SCROLL, True, None)]
    overview = curator.get("/api/admin/catalog")[2]
    assert overview["groups"][0]["missing"] == [SCROLL, "Not Yet Here"]
    shutil.move(tmp_path / "away", library_dir / SCROLL)
    assert curator.post("/api/admin/rescan", {"full": False})[0] == 200
    moon = curator.get("/api/manga?m=Moon%20Garden")[2]
    assert [(r["name"], r["missing"]) for r in moon["relations"]] == [(SCROLL, False)]
    assert [m["missing"] for m in moon["groups"][0]["members"]] == [False, False, True]


def test_it_reorders_group_members(curator):
    group = curator.post("/api/admin/catalog/groups", {"rev": rev(curator), "name": "G", "members": ["a", "b", "c"]})[2]
    gid = group["group"]["id"]
    status, _, body = curator.post("/api/admin/catalog/groups/move",
                                   {"rev": rev(curator), "id": gid, "member": "c", "to": 0})
    assert status == 200 and body["group"]["members"] == ["c", "a", "b"]


def test_overrides_change_the_library_filter_and_the_manga_page(server, curator, reader_user):
    status, _, body = curator.post("/api/admin/catalog/overrides", {
        "rev": rev(curator), "m": SCROLL, "title": "The Long Scroll", "altTitles": ["長い巻物"],
        "tags": ["webtoon-ish"], "description": "A long one.", "direction": "ltr",
        "cover": {"c": "0/1", "v": "c0001 Start [Official]", "p": 2}})
    assert status == 200, body
    found = reader_user.get("/api/library?q=webtoon-ish")[2]
    assert [m["title"] for m in found["manga"]] == ["The Long Scroll"]
    assert reader_user.get("/api/library?q=長い巻物")[2]["total"] == 1
    detail = reader_user.get("/api/manga?m=Long%20Scroll")[2]
    assert detail["title"] == "The Long Scroll" and detail["direction"] == "ltr"
    assert detail["meta"]["tags"] == ["webtoon-ish"] and detail["meta"]["altTitles"] == ["長い巻物"]
    assert detail["meta"]["description"] == "A long one."
    chapter = reader_user.get("/api/chapter?m=Long%20Scroll&c=0/1")[2]
    assert chapter["direction"] == "ltr" and chapter["manga"]["title"] == "The Long Scroll"


def test_a_cover_page_must_exist(curator):
    status, _, body = curator.post("/api/admin/catalog/overrides", {
        "rev": rev(curator), "m": SCROLL, "cover": {"c": "0/1", "v": "c0001 Start [Official]", "p": 9}})
    assert status == 400 and "has no page 10" in body["error"]


def test_the_chosen_cover_becomes_the_thumbnail(curator, reader_user):
    before = reader_user.get("/thumb/Long%20Scroll")
    assert before[0] == 200
    assert curator.post("/api/admin/catalog/overrides", {
        "rev": rev(curator), "m": SCROLL, "cover": {"c": "0/1", "v": "c0001 Start [Official]", "p": 1}})[0] == 200
    after = reader_user.get("/thumb/Long%20Scroll")
    assert after[0] == 200 and after[1]["ETag"] != before[1]["ETag"]


def test_plain_users_cannot_curate(server, curator):
    curator.post("/api/admin/user", {"name": "plain", "password": PASSWORD})
    plain = server.client().login("plain", PASSWORD)
    assert plain.post("/api/admin/catalog/relations", {"rev": 0, "a": MOON, "type": "sequel", "b": SCROLL})[0] == 403


def test_an_edit_replaces_a_relation_and_refuses_a_missing_one(curator):
    assert add(curator, MOON, "sequel", SCROLL)[0] == 200
    status, _, body = add(curator, MOON, "adaptation", SCROLL, was={"a": SCROLL, "type": "prequel", "b": MOON})
    assert status == 200, body
    assert [(r["type"]) for r in curator.get("/api/admin/catalog")[2]["relations"]] == ["adaptation"]
    status, _, body = add(curator, MOON, "sequel", SCROLL, was={"a": MOON, "type": "sequel", "b": SCROLL})
    assert status == 404 and "there is no relation" in body["error"]
