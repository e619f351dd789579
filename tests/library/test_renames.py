"""Renames (docs/library.md, "Renames"): a manga folder renamed or moved, chapters renumbered, a
wrong match undone, a folder that vanishes and comes back; what follows them, through the app."""
import os
import shutil
from urllib.parse import quote

from clients.komga import ids as komga_ids
from tests.library.conftest import publish

MOON, NEW = "Moon Garden", "Moon Garden (2021)"


def rescan(admin):
    status, _, report = admin.post("/api/admin/rescan", {"full": True})
    assert status == 200 and report["error"] is None, report
    return report


def read_to(user, manga, cid, version, page, pages):
    status, _, body = user.post("/api/progress", {"m": manga, "c": cid, "v": version, "p": page, "n": pages})
    assert status == 200, body


def manga(user, name):
    return user.get(f"/api/manga?m={quote(name)}")


def test_a_renamed_folder_keeps_progress_follows_votes_overrides_and_app_ids(admin, reader_user, library_dir):
    rescan(admin)
    read_to(reader_user, MOON, "1/2", "c0002 Roots [Official]", 1, 2)
    assert reader_user.post("/api/follow", {"m": MOON, "on": True})[0] == 200
    assert reader_user.post("/api/vote", {"m": MOON, "c": "1/2", "v": "c0002 Roots [Official]", "value": 1})[0] == 200
    rev = admin.get("/api/admin/catalog")[2]["rev"]
    curated = {"m": MOON, "title": "Moon Garden, curated", "rev": rev}
    status, _, body = admin.post("/api/admin/catalog/overrides", curated)
    assert status == 200, body
    series, book = komga_ids.series_id(MOON), komga_ids.book_id(MOON, "1/2")
    (library_dir / MOON).rename(library_dir / NEW)
    publish(library_dir / NEW / "b01 Spring" / "c0003 Leaves")  # and a chapter arrives with the rename
    report = rescan(admin)
    assert report["changed"]["added"] == [NEW] and report["changed"]["removed"] == [MOON]
    assert report["renamed"] == [f"renamed {MOON} → {NEW} (3 of its 3 chapter versions are there, unchanged)"]
    status, _, data = manga(reader_user, NEW)
    assert status == 200 and data["following"] is True and data["title"] == "Moon Garden, curated"
    roots = next(c for b in data["books"] for c in b["chapters"] if c["id"] == "1/2")
    assert roots["progress"]["p"] == 1
    chapter = reader_user.get(f"/api/chapter?m={quote(NEW)}&c=1/2")[2]
    assert chapter["start"] == 1 and {v["name"]: v["score"] for v in chapter["versions"]}["c0002 Roots [Official]"] == 1
    assert manga(reader_user, MOON)[0] == 404
    assert (komga_ids.series_id(NEW), komga_ids.book_id(NEW, "1/2")) == (series, book)  # a Mihon binding holds
    # the chapters known before stay known: the new one alone is announced, as for any followed manga
    assert [(n["m"], n["c"]) for n in reader_user.get("/api/notifications")[2]["notifications"]] == [(NEW, "1/3")]


def test_a_renumbered_chapter_keeps_its_progress(admin, reader_user, library_dir):
    rescan(admin)
    read_to(reader_user, MOON, "1/1", "c0001 Seeds", 1, 2)
    spring = library_dir / MOON / "b01 Spring"
    (spring / "c0001 Seeds").rename(spring / "c0005 Seeds")
    report = rescan(admin)
    assert report["renamed"] == [f"{MOON}: chapter 1/1 → 1/5"]
    status, _, data = manga(reader_user, MOON)
    seeds = next(c for b in data["books"] for c in b["chapters"] if c["id"] == "1/5")
    assert seeds["progress"]["p"] == 1


def test_a_wrong_match_is_undone_and_never_made_again(admin, reader_user, library_dir):
    rescan(admin)
    read_to(reader_user, MOON, "1/1", "c0001 Seeds", 1, 2)
    (library_dir / MOON).rename(library_dir / NEW)
    rescan(admin)
    status, _, listed = admin.get("/api/admin/renames")
    (rename,) = [r for r in listed["renames"] if r["to"] == NEW]
    status, _, body = admin.post("/api/admin/renames/undo", {"id": rename["id"]})
    assert status == 200 and body["undone"] == {"from": NEW, "to": MOON, "chapters": {}}
    assert not manga(reader_user, NEW)[2]["books"][0]["chapters"][0].get("progress")
    assert admin.post("/api/admin/renames/undo", {"id": rename["id"]})[0] == 409
    assert admin.post("/api/admin/renames/undo", {"id": "nope"})[0] == 404
    assert reader_user.post("/api/admin/renames/undo", {"id": rename["id"]})[0] == 403
    # the old name comes back: its data is there; gone again and renamed again: no match this time
    (library_dir / NEW).rename(library_dir / MOON)
    rescan(admin)
    assert manga(reader_user, MOON)[2]["books"][0]["chapters"][0]["progress"]["p"] == 1
    (library_dir / MOON).rename(library_dir / NEW)
    assert rescan(admin)["renamed"] == []


def test_a_folder_that_vanishes_keeps_its_data_and_gets_it_back(admin, reader_user, library_dir, tmp_path):
    rescan(admin)
    read_to(reader_user, MOON, "1/1", "c0001 Seeds", 1, 2)
    shutil.move(library_dir / MOON, tmp_path / "away")
    assert rescan(admin)["renamed"] == []
    assert manga(reader_user, MOON)[0] == 404
    shutil.move(tmp_path / "away", library_dir / MOON)
    rescan(admin)
    assert manga(reader_user, MOON)[2]["books"][0]["chapters"][0]["progress"]["p"] == 1


def test_a_copy_with_new_pages_is_no_rename_and_an_old_name_reused_gets_new_ids(admin, library_dir, tmp_path):
    rescan(admin)
    series = komga_ids.series_id(MOON)
    (library_dir / MOON).rename(library_dir / NEW)
    rescan(admin)
    # another manga now takes the old name: it is new, with ids of its own
    other = library_dir / MOON / "c0001 Other"
    other.mkdir(parents=True)
    shutil.copy(library_dir / NEW / "b01 Spring" / "c0001 Seeds" / "001.png", other / "001.png")
    os.utime(other, ns=(1, 1))
    assert rescan(admin)["renamed"] == []
    assert komga_ids.series_id(NEW) == series and komga_ids.series_id(MOON) != series


def test_a_library_never_renamed_keeps_the_app_ids_it_had_before_manga_ids_existed(admin):
    import base64
    import hashlib
    import json

    from library import ids

    rescan(admin)
    # the ids as they were made before DATA/manga-ids.json: from the folder name itself
    before = "s" + base64.b32encode(hashlib.sha256(f"series\0{MOON}".encode()).digest()[:15]).decode()[:20].lower()
    assert komga_ids.series_id(MOON) == before
    kept = json.loads(ids.STATE.snapshot())
    assert kept["origins"] == {MOON: MOON, "Long Scroll": "Long Scroll"} and kept["renames"] == []


def test_the_library_screen_lists_the_rename_and_its_undo_button_undoes_it(admin, reader_user, library_dir):
    from tests.support.forms import post_form

    rescan(admin)
    read_to(reader_user, MOON, "1/1", "c0001 Seeds", 1, 2)
    (library_dir / MOON).rename(library_dir / NEW)
    rescan(admin)
    html = admin.get("/settings/admin/library/")[2].decode()
    (rename,) = admin.get("/api/admin/renames")[2]["renames"]
    assert f"<strong>{MOON}</strong> → <strong>{NEW}</strong>" in html and f'value="{rename["id"]}"' in html
    status, headers, _ = post_form(admin, "/settings/admin/library/", {"undo": rename["id"]})
    assert status == 302
    assert "undone" in admin.get("/settings/admin/library/")[2].decode()
    assert not manga(reader_user, NEW)[2]["books"][0]["chapters"][0].get("progress")
