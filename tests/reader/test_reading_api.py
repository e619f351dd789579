"""POST /api/reading/pulse, GET /api/reading/export, POST /api/reading/delete through the app in
process, with the reading clock replaced so the time between pulses is set, not slept; and the
lease expiry of reader/reading_clock.py with explicit times."""
from dataclasses import dataclass, field

import pytest

from mangacircus import db as statedb
from reader import reading_clock
from tests.conftest import PASSWORD
from tests.reader.conftest import new_user
from tests.support.clock import FakeClock

ONE = {"m": "Tiny", "c": "0/1", "v": "c0001 One"}  # 9 pages
TWO = {"m": "Tiny", "c": "0/2", "v": "c0002 Two"}  # 3 pages


@pytest.fixture
def srv(tiny_app):
    return tiny_app


@pytest.fixture
def clock(monkeypatch):
    """The server's reading clock: moves only with clock.advance(seconds)."""
    fake = FakeClock()
    monkeypatch.setattr(reading_clock, "clock", fake)
    return fake


def pulse(client, seq, session="session-a", device="device-a", chapter=ONE, **extra):
    body = {**chapter, "session": session, "device": device, "seq": seq, **extra}
    return client.post("/api/reading/pulse", body)


def clock_user(srv):
    return new_user(srv, readingClock=True)


def test_it_records_nothing_while_the_clock_is_off(srv):
    client = new_user(srv)
    status, _, data = pulse(client, 1, activeMs=500)
    assert status == 403 and "off" in data["error"]
    assert client.get("/api/reading/export")[2]["manga"] == {}


def test_it_refuses_a_second_device_while_the_lease_is_held_and_hands_it_over_on_release(srv):
    client = clock_user(srv)
    status, _, data = pulse(client, 1)
    assert status == 200 and data["lease"] == {"held": True, "ms": 15000}
    status, headers, data = pulse(client, 1, session="session-b", device="device-b")
    assert status == 409 and "another device" in data["error"]
    assert 1 <= int(headers["Retry-After"]) <= 15
    # Another tab of the same browser (same device id) takes the lease over without a conflict.
    status, _, data = pulse(client, 1, session="session-c", device="device-a")
    assert status == 200 and data["lease"]["held"]
    assert pulse(client, 2, session="session-c", release=True)[2]["lease"] == {"held": False, "ms": 0}
    status, _, data = pulse(client, 2, session="session-b", device="device-b")
    assert status == 200 and data["lease"]["held"]


def test_it_counts_a_repeated_session_and_seq_once(srv, clock):
    client = clock_user(srv)
    pulse(client, 1)
    clock.advance(1.2)
    status, _, first = pulse(client, 2, activeMs=1000, pages=[[0, 1]], input={"keyboard": 1000})
    assert status == 200 and first["accepted"]["activeMs"] == 1000 and not first["duplicate"]
    status, _, again = pulse(client, 2, activeMs=1000, pages=[[0, 1]], input={"keyboard": 1000})
    assert status == 200 and again["duplicate"] and again["accepted"]["activeMs"] == 0
    assert again["clock"]["totalActiveMs"] == 1000
    assert again["clock"]["sessions"] == 1
    assert again["clock"]["pass"] == {"version": "c0001 One", "activeMs": 1000, "verifiedPages": 2,
                                      "complete": False, "seen": [[0, 1]]}


def test_it_clamps_time_to_what_the_server_saw_pass(srv, clock):
    client = clock_user(srv)
    status, _, data = pulse(client, 1, activeMs=9000)  # a first pulse: no interval seen yet
    assert data["accepted"]["activeMs"] == reading_clock.SLACK_MS
    clock.advance(0.5)
    status, _, data = pulse(client, 2, activeMs=60_000, loadingMs=60_000, input={"touch": 60_000})
    assert status == 200
    active = data["accepted"]["activeMs"]
    assert 500 <= active <= 500 + reading_clock.SLACK_MS + 300  # the interval plus the slack, not a minute
    assert data["accepted"]["loadingMs"] == 0  # active time already filled the interval
    assert data["clock"]["totalActiveMs"] == reading_clock.SLACK_MS + active
    exported = client.get("/api/reading/export")[2]
    assert exported["manga"]["Tiny"]["0/1"]["predominantInput"] == "touch"


def test_it_completes_a_pass_when_every_page_is_verified(srv):
    client = clock_user(srv)
    pulse(client, 1, chapter=TWO, pages=[[0, 0]])
    data = pulse(client, 2, chapter=TWO, pages=[[1, 2]])[2]
    assert data["clock"]["completedPasses"] == 1 and data["clock"]["pass"]["complete"]
    # A later visit (a new session) starts a new pass.
    data = pulse(client, 1, session="session-later", chapter=TWO, pages=[[0, 0]])[2]
    assert data["clock"]["pass"]["verifiedPages"] == 1 and not data["clock"]["pass"]["complete"]
    assert data["clock"]["completedPasses"] == 1 and data["clock"]["sessions"] == 2


@pytest.mark.parametrize("change, status, word", [
    ({"m": "Nothing"}, 404, "Nothing"),
    ({"c": "9/9"}, 404, "9/9"),
    ({"v": "c0001 Other"}, 404, "c0001 Other"),
    ({"seq": "1"}, 400, "seq"),
    ({"seq": -1}, 400, "seq"),
    ({"session": "short"}, 400, "session"),
    ({"session": "bad session!"}, 400, "session"),
    ({"activeMs": 1.5}, 400, "activeMs"),
    ({"activeMs": -5}, 400, "activeMs"),
    ({"input": {"voice": 10}}, 400, "input.voice"),
    ({"pages": [[0, 9]]}, 400, "pages"),
    ({"pages": [[3, 1]]}, 400, "pages"),
    ({"pages": [0, 1]}, 400, "pages"),
    ({"release": "yes"}, 400, "release"),
])
def test_it_rejects_a_bad_pulse_naming_what_is_wrong(srv, change, status, word):
    client = clock_user(srv)
    body = {**ONE, "session": "session-v", "seq": 1, **change}
    got, _, data = client.post("/api/reading/pulse", body)
    assert got == status and word in data["error"]
    assert client.get("/api/reading/export")[2]["manga"] == {}


def test_it_exports_the_derived_summary_without_input_or_page_diagnostics(srv, clock):
    client = clock_user(srv)
    pulse(client, 1, input={"mouse": 0})
    clock.advance(0.3)
    pulse(client, 2, activeMs=300, pages=[[0, 2]], input={"mouse": 300})
    status, headers, data = client.get("/api/reading/export?download=1")
    assert status == 200 and "attachment" in headers["Content-Disposition"]
    chapter = data["manga"]["Tiny"]["0/1"]
    assert chapter["predominantInput"] == "mouse" and chapter["pass"]["verifiedPages"] == 3
    text = repr(data)
    for private in ("inputMs", "seen", "seenRanges", "keyboard"):
        assert private not in text


def test_it_deletes_one_mangas_history_but_keeps_the_progress(srv):
    client = clock_user(srv)
    pulse(client, 1, pages=[[0, 0]])
    progress = {**ONE, "p": 1, "n": 9, "done": False, "shift": []}
    assert client.post("/api/progress", progress)[0] == 200
    status, _, data = client.post("/api/reading/delete", {"m": "Tiny"})
    assert status == 200 and data == {"deleted": "Tiny", "chapters": 1}
    assert client.get("/api/reading/export")[2]["manga"] == {}
    assert client.get("/api/chapter?m=Tiny&c=0/1")[2]["progress"]["p"] == 1
    assert client.post("/api/reading/delete", {"m": "Nothing"})[0] == 404
    assert client.post("/api/reading/delete", {})[0] == 400


def test_it_deletes_all_history_only_with_the_password(srv):
    client = clock_user(srv)
    pulse(client, 1, pages=[[0, 0]])
    pulse(client, 1, session="session-two", chapter=TWO, pages=[[0, 0]])
    status, _, data = client.post("/api/reading/delete", {"all": True, "password": "not my password"})
    assert status == 401
    assert client.post("/api/reading/delete", {"all": True})[0] == 400
    assert set(client.get("/api/reading/export")[2]["manga"]["Tiny"]) == {"0/1", "0/2"}
    status, _, data = client.post("/api/reading/delete", {"all": True, "password": PASSWORD})
    assert status == 200 and data == {"deleted": "all", "chapters": 2}
    assert client.get("/api/reading/export")[2]["manga"] == {}


def test_it_rate_limits_the_password_of_delete_all(srv):
    client = clock_user(srv)
    statuses = [client.post("/api/reading/delete", {"all": True, "password": "wrong password"})[0]
                for _ in range(11)]
    assert statuses == [401] * 10 + [429]  # the right password at sign-in did not count


# ---- the lease expiry, in process (15 s is too long to wait for in a test) --------------------------

@dataclass
class Page:
    tags: list = field(default_factory=list)


@dataclass
class Version:
    """The two attributes of an index Version that reading_clock.pulse reads."""
    name: str
    page_count: int

    def pages(self):
        return [Page() for _ in range(self.page_count)]


@pytest.fixture
def db(tmp_path):
    opened = statedb.open_db(tmp_path / "db.json")
    reading_clock.reset_memory()
    yield opened
    reading_clock.reset_memory()
    statedb.close_db()


def test_it_gives_the_lease_to_another_device_once_it_expires(db):
    version = Version("c0001 One", 9)
    check = lambda session, device, seq: reading_clock.check_pulse(  # noqa: E731
        {"session": session, "device": device, "seq": seq}, version.page_count)
    reading_clock.pulse("u", "Tiny", "0/1", version, check("session-a", "device-a", 1), now=1_000)
    with pytest.raises(Exception) as refused:
        reading_clock.pulse("u", "Tiny", "0/1", version, check("session-b", "device-b", 1), now=15_999)
    assert refused.value.status == 409
    answer = reading_clock.pulse("u", "Tiny", "0/1", version, check("session-b", "device-b", 1), now=16_000)
    assert answer["lease"]["held"]
    with pytest.raises(Exception) as refused:
        reading_clock.pulse("u", "Tiny", "0/1", version, check("session-a", "device-a", 2), now=17_000)
    assert refused.value.status == 409


def test_it_hides_the_history_of_a_manga_hidden_from_the_user(srv):
    client = clock_user(srv)
    pulse(client, 1, pages=[[0, 0]])
    name = client.get("/api/me")[2]["name"]
    assert srv.admin.post("/api/admin/user/access", {"name": name, "excludeTags": ["x"], "only": []})[0] == 200
    assert client.get("/api/reading/export")[2]["manga"] == {}
    assert "Tiny" not in client.get("/settings/user/clock/")[2].decode()
    assert client.post("/api/reading/delete", {"m": "Tiny"})[0] == 404  # as a manga that is not there
    assert srv.admin.post("/api/admin/user/access", {"name": name, "only": None})[0] == 200
    assert set(client.get("/api/reading/export")[2]["manga"]["Tiny"]) == {"0/1"}  # nothing was lost
