"""catalog.json: loaded at start, refused when corrupt or newer (naming the file), never replaced."""
import json

import pytest

from catalog import groups, relations, store
from mangacircus import runtime
from mangacircus.jsonfile import StateFileError


@pytest.mark.parametrize(("content", "words"), [
    (b'{"schema": 1, "relations": [', "is not valid JSON"),
    (b'{"schema": 2, "relations": []}', "schema 2, newer than the 1 this version reads"),
    (b'{"schema": 1, "relations": {}}', '"relations" must be a list'),
])
def test_it_refuses_to_start_on_a_bad_catalog_and_leaves_it_alone(start, data_dir, content, words):
    path = data_dir / "catalog.json"
    path.write_bytes(content)
    with pytest.raises(StateFileError) as refused:
        runtime.check()
    assert str(path) in str(refused.value) and words in str(refused.value)
    with pytest.raises(StateFileError):
        start()
    runtime.stop()
    assert path.read_bytes() == content


def test_it_writes_what_it_holds_and_reads_it_back(catalog):
    relations.add("admin", "Moon Garden", "sequel", "Winter", note="n")
    groups.create("admin", {"name": "Cycle", "members": ["Moon Garden", "Winter"]})
    store.close_catalog()
    data = json.loads(catalog.read_text())
    assert data["schema"] == 1 and data["rev"] == 2
    assert [(r["a"], r["type"], r["b"]) for r in data["relations"]] == [("Moon Garden", "sequel", "Winter")]
    store.open_catalog()
    assert [g["name"] for g in groups.of("Winter")] == ["Cycle"]


def test_it_keeps_unknown_fields(catalog):
    store.close_catalog()
    catalog.write_text(json.dumps({**store.empty(), "future": {"x": 1}}))
    store.open_catalog()
    relations.add("admin", "A", "sequel", "B")
    store.close_catalog()
    assert json.loads(catalog.read_text())["future"] == {"x": 1}
