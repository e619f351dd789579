"""The storage primitive: atomic writes, debounced flushes, refusal of corrupt files, failing disks."""
import os
import stat
import threading
import time

import orjson
import pytest

from mangacircus.jsonfile import JsonFile, StateFileError, write_atomic
from tests.support.clock import FakeClock, wait_until


def test_it_starts_empty_when_the_file_is_missing(tmp_path):
    f = JsonFile(tmp_path / "db.json")
    assert f.data == {}
    f.close()
    assert not (tmp_path / "db.json").exists()


@pytest.mark.parametrize("content", [b"{", b"", b"\xff\xfe{}", b"[1, 2]", b'{"a": 1} trailing', b"null"])
def test_it_refuses_a_corrupt_file_and_leaves_it_untouched(tmp_path, content):
    path = tmp_path / "db.json"
    path.write_bytes(content)
    with pytest.raises(StateFileError) as e:
        JsonFile(path)
    assert str(path) in str(e.value)
    assert path.read_bytes() == content
    assert sorted(os.listdir(tmp_path)) == ["db.json"]


def test_it_refuses_a_file_that_fails_validation(tmp_path):
    path = tmp_path / "db.json"
    path.write_bytes(b'{"users": []}')

    def validate(data):
        if not isinstance(data["users"], dict):
            raise ValueError('"users" must be an object')

    with pytest.raises(StateFileError, match="users"):
        JsonFile(path, validate=validate)
    assert path.read_bytes() == b'{"users": []}'


def test_it_ignores_a_leftover_tmp_beside_a_good_file(tmp_path):
    (tmp_path / "db.json").write_bytes(b'{"a": 1}')
    (tmp_path / "db.json.tmp").write_bytes(b'{"a": 2, "half')
    f = JsonFile(tmp_path / "db.json")
    assert f.data == {"a": 1}
    assert not (tmp_path / "db.json.tmp").exists()
    f.close()


def test_it_keeps_unknown_fields(tmp_path):
    path = tmp_path / "db.json"
    path.write_bytes(b'{"future": {"x": [1, 2]}, "n": 1}')
    f = JsonFile(path)
    with f.lock:
        f.data["n"] = 2
        f.touch()
    f.close()
    assert orjson.loads(path.read_bytes()) == {"future": {"x": [1, 2]}, "n": 2}


def test_it_writes_mode_0600(tmp_path):
    write_atomic(tmp_path / "x.json", b"{}")
    assert stat.S_IMODE(os.stat(tmp_path / "x.json").st_mode) == 0o600


def test_it_flushes_within_half_a_second_of_a_change(tmp_path):
    f = JsonFile(tmp_path / "db.json")
    with f.lock:
        f.data["k"] = 1
        f.touch()
    deadline = time.monotonic() + 2
    while not (tmp_path / "db.json").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert orjson.loads((tmp_path / "db.json").read_bytes()) == {"k": 1}
    f.close()


def test_it_keeps_flushing_during_a_continuous_burst(tmp_path):
    """A pure trailing debounce would never write while changes keep coming."""
    clock = FakeClock()
    f = JsonFile(tmp_path / "db.json", clock=clock)
    stop = clock() + 2.2
    while clock() < stop:  # a change every 5 ms for 2.2 s
        with f.lock:
            f.data["n"] = f.data.get("n", 0) + 1
            f.touch()
        if f.due() <= 0:  # the writer thread owes a flush now: let it catch up with the clock
            assert wait_until(lambda: not f.dirty)
        clock.advance(0.005)
    assert 3 <= f.flushes <= 6
    f.close()


def test_it_reports_failing_writes_and_recovers_from_memory(tmp_path):
    f = JsonFile(tmp_path / "db.json")
    (tmp_path / "db.json.tmp").mkdir()  # every open() of the tmp now fails with EISDIR
    with f.lock:
        f.data["k"] = "kept in memory"
        f.touch()
    assert f.flush() is False
    assert f.failing and f.last_error
    assert not (tmp_path / "db.json").exists()
    (tmp_path / "db.json.tmp").rmdir()
    deadline = time.monotonic() + 3
    while f.failing and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not f.failing
    assert orjson.loads((tmp_path / "db.json").read_bytes()) == {"k": "kept in memory"}
    f.close()


def test_it_serialises_a_consistent_snapshot_under_concurrent_changes(tmp_path):
    f = JsonFile(tmp_path / "db.json")

    def writer(n):
        for i in range(300):
            with f.lock:
                f.data.setdefault(str(n), []).append(i)
                f.touch()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    f.close()
    data = orjson.loads((tmp_path / "db.json").read_bytes())
    assert all(data[str(n)] == list(range(300)) for n in range(4))


def test_it_refuses_a_file_over_the_size_cap_at_once_naming_it_and_its_size(tmp_path):
    path = tmp_path / "db.json"
    with open(path, "wb") as f:
        f.truncate(2 * 1024 ** 3)  # sparse: 2 GiB that take no room on disk
    started = time.monotonic()
    with pytest.raises(StateFileError) as refused:
        JsonFile(path)
    assert time.monotonic() - started < 1
    assert str(path) in str(refused.value) and "2,147,483,648 bytes" in str(refused.value)
    assert path.stat().st_size == 2 * 1024 ** 3


class CountingDumps:
    """orjson with its dumps() calls counted: a snapshot must not serialise a second time."""
    def __init__(self):
        self.calls = 0

    def dumps(self, value):
        self.calls += 1
        return orjson.dumps(value)

    def __getattr__(self, name):
        return getattr(orjson, name)


@pytest.fixture
def dumps(monkeypatch):
    counting = CountingDumps()
    monkeypatch.setattr("mangacircus.jsonfile.orjson", counting)
    return counting


def changed(f, **values):
    with f.lock:
        f.data.update(values)
        f.touch()


def test_a_snapshot_takes_the_bytes_of_the_next_flush_without_serialising_again(tmp_path, dumps):
    f = JsonFile(tmp_path / "db.json", delay=0.2, max_wait=0.2)
    changed(f, a=1)
    taken = f.snapshot()
    assert orjson.loads(taken) == {"a": 1}
    assert taken == (tmp_path / "db.json").read_bytes()
    assert (dumps.calls, f.flushes) == (1, 1)  # the flush's serialisation only
    taken = f.snapshot()  # nothing pending: the file as it is, at once
    assert orjson.loads(taken) == {"a": 1} and dumps.calls == 1
    f.close()


def test_a_snapshot_serialises_from_memory_when_the_flush_does_not_come_or_writes_fail(tmp_path, dumps):
    clock = FakeClock()  # the flush's deadline never comes
    f = JsonFile(tmp_path / "db.json", clock=clock)
    changed(f, a=1)
    started = time.monotonic()
    assert orjson.loads(f.snapshot(wait=0.2)) == {"a": 1}
    assert 0.2 <= time.monotonic() - started < 2 and f.flushes == 0
    (tmp_path / "db.json.tmp").mkdir()  # writes fail from now on
    changed(f, a=2)
    assert f.flush() is False and f.failing
    started = time.monotonic()
    assert orjson.loads(f.snapshot(wait=5)) == {"a": 2}  # failing: at once, not after the wait
    assert time.monotonic() - started < 1
    (tmp_path / "db.json.tmp").rmdir()
    f.close()


def test_a_snapshot_of_a_file_never_written_is_the_document_in_memory(tmp_path):
    f = JsonFile(tmp_path / "db.json")
    assert f.snapshot() == b"{}"
    f.close()


def test_a_flush_by_a_holder_of_the_document_waits_for_the_writer_without_a_deadlock(tmp_path):
    # The writer thread holds the write lock and takes the document to finish its write, while a
    # caller holding the document (scraper/queue.py's save() inside `with q.lock`) asks to flush.
    f = JsonFile(tmp_path / "q.json", default=dict)
    writing, finished = threading.Event(), threading.Event()

    def writer():
        with f._write_lock:
            writing.set()
            with f.lock:  # as _flush() does after its write
                pass

    def holder():
        with f.lock:
            f.data["x"] = 1
            f.touch()
            threading.Thread(target=writer, daemon=True).start()
            writing.wait(5)
            assert f.flush()
        finished.set()

    threading.Thread(target=holder, daemon=True).start()
    assert finished.wait(5), "the flush deadlocked"
    assert orjson.loads((tmp_path / "q.json").read_bytes()) == {"x": 1}
    f.close()
