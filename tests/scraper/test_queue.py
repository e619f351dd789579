"""queue.json: schema conversion, refusal of a newer schema, job life cycle, the nightly slot."""
import datetime

import orjson
import pytest

from mangacircus.jsonfile import StateFileError
from scraper import queue


def write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(orjson.dumps(data))


def test_it_converts_schema_1_and_2(tmp_path):
    path = tmp_path / "scraper" / "queue.json"
    write(path, {"revision": 7, "queue": [
        {"id": "jaaaaaaaaaaaa", "kind": "chapters", "source": "fake", "series": "s1", "status": "active"},
        {"id": "jbbbbbbbbbbbb", "kind": "update", "source": "fake", "series": "s2", "status": "complete"}]})
    q = queue.open_queue(path)
    try:
        assert q.data["schema"] == 3 and q.data["revision"] == 7
        assert [j["state"] for j in q.data["jobs"]] == ["queued", "done"]
        assert q.data["jobs"][0]["stalls"] == 0 and q.data["settings"]["updates"]["at"] == "03:30"
        assert q.data["series"] == [] and q.data["published"] == []
    finally:
        q.close()
    assert orjson.loads(path.read_bytes())["schema"] == 3  # saved converted


def test_it_refuses_a_newer_schema(tmp_path):
    path = tmp_path / "scraper" / "queue.json"
    write(path, {"schema": 9})
    with pytest.raises(StateFileError, match="schema 9 is newer"):
        queue.open_queue(path)


def test_it_puts_interrupted_jobs_back_in_the_queue(tmp_path):
    path = tmp_path / "scraper" / "queue.json"
    q = queue.open_queue(path)
    job, _ = queue.add_job(q, "update", "fake", "s1")
    queue.set_state(q, job, "running")
    q.close()
    q = queue.open_queue(path)
    assert q.data["jobs"][0]["state"] == "queued"
    q.close()


def test_it_backs_off_then_fails_with_the_error_kept(tmp_path):
    q = queue.open_queue(tmp_path / "queue.json")
    job, _ = queue.add_job(q, "update", "fake", "s1")
    before = queue.now_ms()
    queue.failed_attempt(q, job, "HTTP 500", True, [60, 300])
    assert job["state"] == "queued" and job["notBefore"] >= before + 60_000 and job["attempts"] == 1
    assert queue.next_job(q) is None  # waiting for its backoff
    queue.failed_attempt(q, job, "HTTP 500", True, [60, 300])
    assert job["notBefore"] >= before + 300_000
    queue.failed_attempt(q, job, "HTTP 502", True, [60, 300])
    assert job["state"] == "failed" and job["error"] == "HTTP 502" and job["attempts"] == 3
    other, _ = queue.add_job(q, "update", "fake", "s2")
    queue.failed_attempt(q, other, "no such series", False, [60, 300])
    assert other["state"] == "failed" and other["attempts"] == 1
    q.close()


def test_it_runs_the_nightly_update_once_a_day_after_its_time(tmp_path):
    q = queue.open_queue(tmp_path / "queue.json")
    tz = datetime.timezone.utc
    day = datetime.datetime(2026, 5, 1, 2, 0, tzinfo=tz)
    assert not queue.discover_due(q, day)  # a new queue starts counting now
    assert not queue.discover_due(q, day.replace(hour=3, minute=29))
    assert queue.discover_due(q, day.replace(hour=3, minute=31))
    assert not queue.discover_due(q, day.replace(hour=23))
    assert queue.discover_due(q, day.replace(day=2, hour=4))
    queue.update_settings(q, {"updates": {"enabled": False}}, lambda key: None)
    assert not queue.discover_due(q, day.replace(day=3, hour=4))
    q.close()


def test_it_keeps_the_source_pace_as_a_floor(tmp_path):
    q = queue.open_queue(tmp_path / "queue.json")
    settings = queue.update_settings(q, {"pace": {"site": 0.1}}, lambda key: 1.0 if key == "site" else None)
    assert settings["pace"] == {"site": 1.0}
    with pytest.raises(ValueError, match="pace.site"):
        queue.update_settings(q, {"pace": {"site": "fast"}}, lambda key: 1.0)
    q.close()


def test_it_keeps_the_last_500_publications(tmp_path):
    q = queue.open_queue(tmp_path / "queue.json")
    job, _ = queue.add_job(q, "chapters", "fake", "s1", ["c1"])
    for n in range(505):
        queue.record_publication(q, job, "Moon", "c1", f"c{n:04d}")
    assert q.data["revision"] == 505 and len(q.data["published"]) == 500
    assert q.data["published"][0]["rev"] == 6
    q.close()
