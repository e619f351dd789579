"""A Mihon backup: manga matched by their MangaDex id (manga.json sources.mangadex) and then by
title, chapters by the MangaDex chapter id the downloader wrote in chapter.json and then by number;
read chapters finished, the last page read kept; categories as the account's private collections. Dry run, then
import, then again: nothing changes the second time. What is not a backup is refused."""
import json

import pytest

from imports import mihon
from mangacircus.errors import Invalid, TooLarge
from tests.conftest import make_page
from tests.support.pages import wait_for_library

from . import mihon_backup as mb

M_UUID = "5d4e8a3b-1c2f-4a6b-9e8d-7f6a5b4c3d2e"
C1, C2 = "aaaaaaaa-1111-4111-8111-111111111111", "bbbbbbbb-2222-4222-8222-222222222222"


@pytest.fixture
def library_dir(tmp_path):
    root = tmp_path / "library"
    moon = root / "Moon Garden"
    moon.mkdir(parents=True)
    (moon / "manga.json").write_text(json.dumps({"title": "Moon Garden", "sources": {"mangadex": M_UUID}}))
    for folder, pages, source_id in (("c0001 Seeds [MangaDex]", 3, C1), ("c0002 Roots [MangaDex]", 4, C2),
                                     ("c0003 Bloom", 2, None)):
        for n in range(1, pages + 1):
            make_page(moon / folder / f"{n:03d}.png")
        if source_id:
            (moon / folder / "chapter.json").write_text(json.dumps({"module": "mangadex", "sourceId": source_id}))
    for n in (1, 2, 3):
        make_page(root / "Long Scroll" / "c0001 Start" / f"{n:03d}.png")
    return root


@pytest.fixture
def backup_file(tmp_path):
    moon = mb.manga(f"/manga/{M_UUID}", "Moon Garden (official)", [
        mb.chapter(f"/chapter/{C1}", "Ch. 1", read=True, number=1.0, modified=1_796_000_000),
        mb.chapter(f"/chapter/{C2}", "Ch. 2", page=2, number=2.0),
        mb.chapter("/chapter/cccccccc-3333-4333-8333-333333333333", "Ch. 3", read=True, number=3.0),
        mb.chapter("/chapter/dddddddd-4444-4444-8444-444444444444", "Ch. 9", read=True, number=9.0),
        mb.chapter("/chapter/eeeeeeee-5555-4555-8555-555555555555", "Ch. 4", number=4.0),  # unread: nothing
    ], categories=[0], histories=[mb.history(f"/chapter/{C2}", 1_796_100_000_000)])
    scroll = mb.manga("/series/long-scroll", "Long Scroll", [mb.chapter("/read/1", "Start", page=1, number=1.0)],
                      source=-4321, categories=[0, 1])
    nowhere = mb.manga("/manga/ffffffff-6666-4666-8666-666666666666", "Star Sea",
                       [mb.chapter("/chapter/12345678-7777-4777-8777-777777777777", "Ch. 1", read=True, number=1.0)],
                       categories=[1])
    path = tmp_path / "mihon.tachibk"
    path.write_bytes(mb.backup([moon, scroll, nowhere], [mb.category("Reading", 0), mb.category("Done", 1)]))
    return path


def post(admin, path, apply=False, into="mia"):
    status, _, body = admin.post("/api/admin/import", {"source": "mihon", "path": str(path), "into": into,
                                                       "apply": apply})
    assert status == 200, body
    return body


def lines(plan, key):
    return {(item["what"], item["target"], item["reason"]) for item in plan[key]}


def test_dry_run_then_import_then_again(server, admin, backup_file):
    wait_for_library(admin, 2)
    plan = post(admin, backup_file)
    assert plan["counts"] == {"matched": 0, "created": 7, "unchanged": 0, "not_found": 3, "not_imported": 0}
    who = "the backup (mia)"
    assert lines(plan, "created") == {
        (f"user {who}", "account mia", "a new account; its one-time password is shown once, after the import"),
        (f"{who}: Moon Garden (official): Ch. 1", "mia: Moon Garden · Ch. 1",
         "by MangaDex id, the chapter by its MangaDex id; finished"),
        (f"{who}: Moon Garden (official): Ch. 2", "mia: Moon Garden · Ch. 2",
         "by MangaDex id, the chapter by its MangaDex id; page 3 of 4"),
        (f"{who}: Moon Garden (official): Ch. 3", "mia: Moon Garden · Ch. 3", "by MangaDex id and number; finished"),
        (f"{who}: Long Scroll: Start", "mia: Long Scroll · Ch. 1", "by title and number; page 2 of 3"),
        ("collection Reading", "mia's collection Reading", "2 manga"),
        ("collection Done", "mia's collection Done", "1 manga"),
    }
    assert lines(plan, "not_found") == {
        (f"{who}: Moon Garden (official): Ch. 9", "", "no chapter numbered 9 in Moon Garden"),
        (f"{who}: Star Sea: Ch. 1", "", "no manga with its MangaDex id, and no manga named Star Sea"),
        ("collection Done: Star Sea", "", "no manga named Star Sea that mia may see")}
    done = post(admin, backup_file, apply=True)
    assert done["written"] == 4 and [a["name"] for a in done["accounts"]] == ["mia"]
    from mangacircus import db

    db.flush_now()
    data = json.loads((server.data / "db.json").read_text())
    moon = data["progress"]["mia"]["Moon Garden"]
    assert (moon["0/1"]["done"], moon["0/1"]["t"]) == (True, 1_796_000_000_000)
    assert (moon["0/2"]["p"], moon["0/2"]["done"], moon["0/2"]["t"]) == (2, False, 1_796_100_000_000)
    assert moon["0/2"]["v"] == "c0002 Roots [MangaDex]"
    made = sorted((c["name"], c["owner"], c["shared"], c["members"]) for c in data["collections"].values())
    assert made == [("Done", "mia", False, ["Long Scroll"]), ("Reading", "mia", False, ["Moon Garden", "Long Scroll"])]
    again = post(admin, backup_file, apply=True)
    assert again["backup"] is None and again["plan"]["counts"]["unchanged"] == 6
    db.flush_now()
    now = json.loads((server.data / "db.json").read_text())
    assert (now["progress"], now["collections"]) == (data["progress"], data["collections"])


def test_what_is_not_a_backup_is_refused(tmp_path, backup_file):
    text = tmp_path / "notes.tachibk"
    text.write_text("my reading list")
    with pytest.raises(Invalid, match="is not a Mihon backup \\(it is neither gzip nor a backup's protobuf\\)"):
        mihon.read(text, "mia")
    cut = tmp_path / "cut.tachibk"
    cut.write_bytes(backup_file.read_bytes()[:40])
    with pytest.raises(Invalid, match="is not a whole gzip file"):
        mihon.read(cut, "mia")
    bomb = tmp_path / "bomb.tachibk"
    bomb.write_bytes(__import__("gzip").compress(b"\x0a\x00" * 600_000))
    with pytest.raises(TooLarge, match="unpacks to more than 1,000,000 bytes"):
        mihon.read(bomb, "mia", max_unpacked=1_000_000)
    with pytest.raises(TooLarge, match="more than the 10 an import reads"):
        mihon.read(backup_file, "mia", max_bytes=10)
    noise = tmp_path / "noise.tachibk"
    noise.write_bytes(__import__("gzip").compress(b"\x0f\xff\xff"))
    with pytest.raises(Invalid, match="is not a Mihon backup: wire type 7"):
        mihon.read(noise, "mia")
    with pytest.raises(Invalid, match="name the account it goes into"):
        mihon.read(backup_file, "")


def test_a_long_that_is_negative_and_a_packed_list_are_read():
    from imports import protobuf as pb

    fields = pb.message(mb.field(1, -4321) + mb.field(17, bytes([1, 2, 3])) + mb.field(17, 7))
    assert pb.integer(fields, 1) == -4321 and pb.integers(fields, 17) == [1, 2, 3, 7]
