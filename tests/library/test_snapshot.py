"""library/snapshot.py: the index snapshot and the scan cache round-trip, and refuse what they must."""
import orjson
import pytest

from library import snapshot
from library.model import same_content
from tests.library.conftest import make_page, scan


def test_it_restores_an_identical_index(library_dir, tmp_path):
    (library_dir / "Long Scroll" / "Skipped").mkdir()
    make_page(library_dir / "Moon Garden" / "b01 Spring" / "c0001 Seeds" / "big.png", size=(70_000, 10))
    idx, _ = scan(library_dir)
    path = tmp_path / "library-index.json"
    assert snapshot.save(path, idx, library_dir, 1234)
    restored, last_full, why = snapshot.load(path, library_dir)
    assert why is None and last_full == 1234
    assert restored.root_stamp == idx.root_stamp and restored.all_warnings() == idx.all_warnings()
    for name, m in idx.manga.items():
        r = restored.manga[name]
        assert same_content(r, m)
        assert (r.stamp, r.watch, r.added, r.updated) == (m.stamp, m.watch, m.added, m.updated)
        assert [v.stamp for v in r.versions()] == [v.stamp for v in m.versions()]
        assert [v.pages() for v in r.versions()] == [v.pages() for v in m.versions()]
    # a shallow check from the restored index finds nothing to do
    again, report = scan(library_dir, restored, "shallow")
    assert report["work"]["listings"] == 0 and all(again.manga[n] is restored.manga[n] for n in restored.manga)


@pytest.mark.parametrize("content, reason", [
    (None, "there is no snapshot yet"),
    (b"{", "cannot be read"),
    (b"[]", "cannot be read"),
    (orjson.dumps({"version": 99}), "has version 99"),
    (orjson.dumps({"version": snapshot.VERSION, "library": "/elsewhere"}), "another LIBRARY"),
    (orjson.dumps({"version": snapshot.VERSION, "library": "LIB", "defaultDirection": "ltr"}), "DEFAULT_DIRECTION"),
    (orjson.dumps({"version": snapshot.VERSION, "library": "LIB", "defaultDirection": "rtl", "manga": [{"name": "x"}]}),
     "malformed"),
])
def test_it_refuses_unusable_snapshots(tmp_path, content, reason):
    path = tmp_path / "library-index.json"
    if content is not None:
        path.write_bytes(content.replace(b"LIB", str(tmp_path).encode()))
    restored, last_full, why = snapshot.load(path, tmp_path)
    assert restored is None and last_full is None and reason in why


def test_it_round_trips_the_scan_cache_and_ignores_a_foreign_one(library_dir, tmp_path):
    from library.scan import Scan

    first = Scan(library_dir, None, "full")
    first.run()
    path = tmp_path / "scan-cache.json"
    assert snapshot.save_cache(path, first.new_cache, library_dir)
    cache = snapshot.load_cache(path, library_dir)
    assert set(cache) == set(first.new_cache)
    _, report = Scan(library_dir, None, "full", cache=cache).run()
    assert report["work"]["headers"] == 0
    assert snapshot.load_cache(path, tmp_path) == {}
    path.write_bytes(b"garbage")
    assert snapshot.load_cache(path, library_dir) == {}
