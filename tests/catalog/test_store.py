"""catalog.json: loaded at start, refused when corrupt or newer (naming the file), never replaced."""
import json
import os
import subprocess
import sys

import pytest

from bench.server import ROOT
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
    store.STATE.close()
    data = json.loads(catalog.read_text())
    assert data["schema"] == 1 and data["rev"] == 2
    assert [(r["a"], r["type"], r["b"]) for r in data["relations"]] == [("Moon Garden", "sequel", "Winter")]
    store.STATE.open()
    assert [g["name"] for g in groups.of("Winter")] == ["Cycle"]


def test_it_keeps_unknown_fields(catalog):
    store.STATE.close()
    catalog.write_text(json.dumps({**store.empty(), "future": {"x": 1}}))
    store.STATE.open()
    relations.add("admin", "A", "sequel", "B")
    store.STATE.close()
    assert json.loads(catalog.read_text())["future"] == {"x": 1}


@pytest.mark.process
def test_serve_refuses_a_corrupt_catalog_naming_it(data_dir):
    path = data_dir / "catalog.json"
    path.write_bytes(b'{"schema": 1, "groups": [')
    env = {**os.environ, "DATA": str(data_dir), "SECRET_KEY": "x", "SCAN_INTERVAL": "0"}
    result = subprocess.run([sys.executable, "manage.py", "serve", "--bind", "127.0.0.1:0", "--no-collectstatic"],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert f"{path} is not valid JSON" in result.stderr
    assert path.read_bytes() == b'{"schema": 1, "groups": ['
