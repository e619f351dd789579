"""The Reading Story: its numbers from a known clock history, private to its user, off by the setting."""
import datetime
import json

import pytest

from mangacircus.clock import now_ms
from reader import reading_clock
from tests.conftest import PASSWORD
from tests.reader.discovery_library import discovery_tree
from tests.support.app import AppServer
from tests.support.pages import wait_for_library

MIN = 60_000


def day(offset):
    today = datetime.date.fromisoformat(reading_clock.day_key(now_ms()))
    return (today - datetime.timedelta(days=offset)).isoformat()


# Alpha: 10 min today, 20 yesterday, 5 two days ago; Beta: 30 min four days ago, 60 min forty days ago.
HISTORY = {
    "Alpha": {"0/1": {"totalActiveMs": 30 * MIN, "days": {day(0): 10 * MIN, day(1): 20 * MIN}},
              "0/2": {"totalActiveMs": 5 * MIN, "days": {day(2): 5 * MIN}}},
    "Beta": {"0/1": {"totalActiveMs": 90 * MIN, "days": {day(4): 30 * MIN, day(40): 60 * MIN}}},
}


@pytest.fixture
def site(data_dir, tmp_path):
    srv = AppServer(data_dir, discovery_tree(tmp_path / "library")).start()
    admin = srv.client().signup("admin", PASSWORD)
    wait_for_library(admin, 8)
    admin.post("/api/admin/user", {"name": "reader", "password": PASSWORD})
    reader = srv.client().login("reader", PASSWORD)
    for c in ("0/1", "0/2"):
        reader.post("/api/read", {"m": "Alpha", "c": c})
    srv.stop()
    path = data_dir / "db.json"
    db = json.loads(path.read_text())
    db["reading"]["reader"] = {m: {cid: {"schema": 1, **e} for cid, e in chapters.items()}
                               for m, chapters in HISTORY.items()}
    path.write_text(json.dumps(db))
    srv.start()
    yield srv
    srv.stop()


def test_it_counts_the_week_month_streaks_finished_and_most_read(site):
    reader = site.client().login("reader", PASSWORD)
    story = reader.get("/api/library")[2]["story"]
    assert story == {
        "weekMs": 65 * MIN, "monthMs": 65 * MIN, "totalMs": 125 * MIN, "days": 5, "streak": 3, "longestStreak": 3,
        "finished": 1, "finishedThisMonth": 1,
        "most": [{"name": "Beta", "title": "Beta", "url": "manga/Beta/", "ms": 90 * MIN},
                 {"name": "Alpha", "title": "Alpha", "url": "manga/Alpha/", "ms": 35 * MIN}],
    }
    page = reader.get("/")[2].decode()
    assert 'id="story-week">1 h 05 min<' in page and 'id="story-streak">3 days' in page
    manga = reader.get("/api/manga?m=Alpha")[2]
    assert manga["story"] == {"totalMs": 35 * MIN, "chapters": 2}
    assert [c["activeMs"] for c in manga["books"][0]["chapters"]] == [30 * MIN, 5 * MIN]
    assert "30 min</span>" in reader.get("/manga/Alpha/")[2].decode()


def test_it_is_private_and_off_with_the_setting(site):
    admin = site.client().login("admin", PASSWORD)
    assert admin.get("/api/library")[2]["story"] is None  # no history of their own; never the reader's
    assert "activeMs" not in admin.get("/api/manga?m=Alpha")[2]["books"][0]["chapters"][0]
    reader = site.client().login("reader", PASSWORD)
    assert reader.post("/api/settings", {"readingStory": False})[0] == 200
    assert reader.get("/api/library")[2]["story"] is None
    assert reader.get("/api/manga?m=Alpha")[2]["story"] is None
    assert "Your Reading Story" not in reader.get("/")[2].decode()


def test_a_pulse_records_its_day(site, monkeypatch):
    reader = site.client().login("reader", PASSWORD)
    reader.post("/api/settings", {"readingClock": True})
    monkeypatch.setattr(reading_clock, "now_ms", lambda: 1_790_000_000_000)
    ticks = iter([100.0, 105.0])
    monkeypatch.setattr(reading_clock, "clock", lambda: next(ticks))
    pulse = {"m": "Gamma", "c": "0/1", "v": "c0001 Part [Official]", "session": "story-session",
             "device": "story-device"}
    reader.post("/api/reading/pulse", {**pulse, "seq": 1})
    status, _, body = reader.post("/api/reading/pulse", {**pulse, "seq": 2, "activeMs": 4000})
    assert status == 200 and body["accepted"]["activeMs"] == 4000
    gamma = reading_clock.history("reader")["Gamma"]["0/1"]
    assert gamma["days"] == {reading_clock.day_key(1_790_000_000_000): 4000}
