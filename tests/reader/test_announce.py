"""reader/announce.py: known chapters, in-app notifications for followers, webhooks."""
import ipaddress
import json
import shutil
import time

import pytest
from django.utils import translation

from mangacircus import db as statedb
from reader import announce, webhooks, webpush
from tests.library.conftest import make_page, publish, scan
from tests.library.test_settle import age, copy_in
from tests.reader.webhook_target import Target


@pytest.fixture
def db(tmp_path):
    db = statedb.open_db(tmp_path / "db.json")
    with db.lock:
        for name in ("alice", "bob", "carol"):
            db.data["users"][name] = {"name": name, "hash": "x", "settings": {}}
        db.data["follows"] = {"alice": {"Moon Garden": True}, "bob": {"Moon Garden": False},
                              "carol": {"Long Scroll": True}, "ghost": {"Moon Garden": True}}
    yield db
    statedb.close_db()


def test_it_records_new_manga_silently_then_announces_new_chapters(db, library_dir):
    first, report = scan(library_dir)
    announce.on_scan(first, report)
    assert db.data["known"] == {"Moon Garden": ["1/1", "1/2"], "Long Scroll": ["0/1"]}
    assert db.data["notes"] == {}
    publish(library_dir / "Moon Garden" / "b01 Spring" / "c0003 Leaves")
    second, report = scan(library_dir, first, "shallow")
    announce.on_scan(second, report)
    assert db.data["known"]["Moon Garden"] == ["1/1", "1/2", "1/3"]
    [note] = db.data["notes"]["alice"]
    assert note["m"] == "Moon Garden" and note["c"] == "1/3" and not note["read"]
    assert note["text"] == "Moon Garden · Ch. 3: Leaves"
    assert len(note["id"]) == 12 and abs(note["t"] - time.time() * 1000) < 5000
    assert set(db.data["notes"]) == {"alice"}  # bob unfollowed, carol follows another, ghost has no account


def test_it_does_not_announce_a_chapter_that_comes_back(db, library_dir, tmp_path):
    idx, report = scan(library_dir)
    announce.on_scan(idx, report)
    chapter = library_dir / "Moon Garden" / "b01 Spring" / "c0001 Seeds"
    shutil.move(chapter, tmp_path / "aside")
    idx, report = scan(library_dir, idx, "shallow")
    announce.on_scan(idx, report)
    shutil.move(tmp_path / "aside", chapter)
    idx, report = scan(library_dir, idx, "shallow")
    assert report["changed"]["changed"] == ["Moon Garden"]
    announce.on_scan(idx, report)
    assert db.data["notes"] == {} and db.data["known"]["Moon Garden"] == ["1/1", "1/2"]


def test_it_keeps_the_newest_two_hundred_notifications(db, library_dir):
    idx, report = scan(library_dir)
    announce.on_scan(idx, report)
    db.data["notes"]["alice"] = [{"id": str(i), "t": i, "m": "x", "c": "0/1", "text": "old", "read": True}
                                 for i in range(199)]
    publish(library_dir / "Moon Garden" / "x01 Omake")
    publish(library_dir / "Moon Garden" / "c0004")
    idx, report = scan(library_dir, idx, "shallow")
    announce.on_scan(idx, report)
    notes = db.data["notes"]["alice"]
    assert len(notes) == 200 and notes[0]["id"] == "1"
    assert [n["text"] for n in notes[-2:]] == ["Moon Garden · Ch. 4", "Moon Garden · Extra 1"]


def test_it_sends_one_webhook_per_user_with_their_new_chapters(db, library_dir, settings):
    settings.WEBHOOK_ALLOW = [ipaddress.ip_network("127.0.0.1/32")]
    target = Target()
    webhooks.start()
    try:
        db.data["users"]["alice"]["settings"] = {"webhook": target.url + "/alice", "webhookFormat": "json"}
        idx, report = scan(library_dir)
        announce.on_scan(idx, report)
        publish(library_dir / "Moon Garden" / "c0005 Five")
        publish(library_dir / "Moon Garden" / "c0006 Six")
        idx, report = scan(library_dir, idx, "shallow")
        announce.on_scan(idx, report)
        deadline = time.monotonic() + 5
        while not target.requests and time.monotonic() < deadline:
            time.sleep(0.02)
        [(method, path, _, body)] = target.requests
        assert (method, path) == ("POST", "/alice")
        assert [i["chapter"] for i in json.loads(body)["items"]] == ["0/5", "0/6"]
    finally:
        webhooks.stop()
        target.close()


def test_it_announces_a_chapter_copied_in_by_hand_only_once_it_settles(db, library_dir):
    age(library_dir, 60)
    idx, report = scan(library_dir, settle=5)
    announce.on_scan(idx, report)
    chapter = library_dir / "Moon Garden" / "c0005 Five"
    copy_in(chapter, pages=1)  # `cp -r` midway: the second page is not there yet
    now = time.time()
    idx, report = scan(library_dir, idx, "shallow", settle=5, clock=lambda: now)
    announce.on_scan(idx, report)
    assert db.data["notes"] == {} and db.data["known"]["Moon Garden"] == ["1/1", "1/2"]
    make_page(chapter / "002.png")
    idx, report = scan(library_dir, idx, "shallow", settle=5, clock=lambda: now + 1)
    announce.on_scan(idx, report)
    assert db.data["notes"] == {}
    idx, report = scan(library_dir, idx, "shallow", settle=5, clock=lambda: now + 7)
    announce.on_scan(idx, report)
    [note] = db.data["notes"]["alice"]
    assert note["c"] == "0/5" and idx.get("Moon Garden").chapter("0/5").versions[0].files() == ["001.png", "002.png"]


def test_each_follower_is_told_in_their_own_language(db, library_dir, settings):
    """alice reads in Japanese, dave in the server's English: each gets the notification, the
    webhook's title and the push's title in theirs (reader/language.py of_user)."""
    settings.WEBHOOK_ALLOW = [ipaddress.ip_network("127.0.0.1/32")]
    target = Target()
    webhooks.start()
    try:
        db.data["users"]["alice"]["settings"] = {"language": "ja", "webhook": target.url + "/alice",
                                                 "webhookFormat": "json"}
        db.data["users"]["dave"] = {"name": "dave", "hash": "x", "settings": {}}
        db.data["follows"]["dave"] = {"Moon Garden": True}
        idx, report = scan(library_dir)
        announce.on_scan(idx, report)
        publish(library_dir / "Moon Garden" / "b01 Spring" / "c0003 Leaves")
        idx, report = scan(library_dir, idx, "shallow")
        announce.on_scan(idx, report)
        with translation.override("ja"):
            japanese = "Moon Garden · " + translation.gettext("%(label)s: %(title)s") % {
                "label": translation.gettext("Ch. %(number)s") % {"number": "3"}, "title": "Leaves"}
            title = translation.ngettext("%(n)s new chapter", "%(n)s new chapters", 1) % {"n": 1}
            pushed = json.loads(webpush.messages([{"m": "Moon Garden", "text": japanese, "url": "x"}])[0])
            push_title = translation.ngettext("New chapter", "%(n)s new chapters", 1) % {"n": 1}
        assert japanese != "Moon Garden · Ch. 3: Leaves" and title != "1 new chapter"
        assert [n["text"] for n in db.data["notes"]["alice"]] == [japanese]
        assert [n["text"] for n in db.data["notes"]["dave"]] == ["Moon Garden · Ch. 3: Leaves"]
        deadline = time.monotonic() + 5
        while not target.requests and time.monotonic() < deadline:
            time.sleep(0.02)
        [(_, _, _, body)] = target.requests
        assert json.loads(body)["title"] == title and json.loads(body)["message"] == japanese
        assert pushed["title"] == push_title != "New chapter"
    finally:
        webhooks.stop()
        target.close()
