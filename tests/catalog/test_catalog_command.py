"""manage.py catalog export-research / import-proposals: through the running reader, or alone
under the data lock; export → edit → import round trip; a bad batch exits non-zero item by item."""
import json
import os
import subprocess
import sys

import pytest

from bench.server import ROOT
from tests.support.pages import wait_for_library

pytestmark = pytest.mark.process


def manage(data_dir, library_dir, *args):
    env = {**os.environ, "DATA": str(data_dir), "LIBRARY": str(library_dir)}
    return subprocess.run([sys.executable, "manage.py", "catalog", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def add_proposal(work):
    """What research does with the work list: propose a relation between two listed manga."""
    names = [m["name"] for m in work["manga"]]
    return {"proposals": [{"kind": "relation", "a": names[0], "type": "same-universe", "b": names[1],
                           "evidence": [{"url": "https://example.org/interview", "quote": "one world"}]}]}


def test_export_edit_import_round_trip_without_a_reader(data_dir, library_dir, tmp_path):
    work_file, batch_file = tmp_path / "work.json", tmp_path / "batch.json"
    done = manage(data_dir, library_dir, "export-research", str(work_file))
    assert done.returncode == 0, done.stderr
    assert "Wrote the work list of 2 manga" in done.stdout
    work = json.loads(work_file.read_text())
    moon = next(m for m in work["manga"] if m["name"] == "Moon Garden")
    assert moon["authors"] == ["A. Writer"] and moon["relations"] == []
    batch_file.write_text(json.dumps(add_proposal(work)))
    done = manage(data_dir, library_dir, "import-proposals", str(batch_file))
    assert done.returncode == 0, done.stderr
    assert "Stored 1 proposal(s)" in done.stdout
    catalog = json.loads((data_dir / "catalog.json").read_text())
    assert [(p["a"], p["type"], p["b"], p["state"]) for p in catalog["proposals"]] == [
        ("Long Scroll", "same-universe", "Moon Garden", "open")]
    done = manage(data_dir, library_dir, "import-proposals", str(batch_file))
    assert done.returncode == 0 and "item 0 skipped: the same as open proposal" in done.stdout


def test_it_hands_the_batch_to_the_running_reader(real_server, admin, library_dir, tmp_path):
    wait_for_library(admin, 2)
    admin.post("/api/admin/catalog/relations", {"rev": 0, "a": "Moon Garden", "type": "sequel", "b": "Long Scroll"})
    work_file, batch_file = tmp_path / "work.json", tmp_path / "batch.json"
    done = manage(real_server.data, library_dir, "export-research", "--manga", "Moon Garden", "--manga", "Long Scroll",
                  str(work_file))
    assert done.returncode == 0, done.stderr
    work = json.loads(work_file.read_text())
    assert [m["name"] for m in work["manga"]] == ["Moon Garden", "Long Scroll"]
    assert work["manga"][0]["relations"] == [{"type": "sequel", "other": "Long Scroll"}]
    batch_file.write_text(json.dumps({"proposals": [
        {"kind": "metadata", "m": "Moon Garden", "tags": ["seasons"], "evidence": [{"quote": "four books"}]}]}))
    done = manage(real_server.data, library_dir, "import-proposals", str(batch_file))
    assert done.returncode == 0, done.stderr
    open_ = admin.get("/api/admin/catalog")[2]["proposals"]
    assert [(p["kind"], p["m"], p["tags"]) for p in open_] == [("metadata", "Moon Garden", ["seasons"])]


def test_a_bad_batch_exits_non_zero_naming_each_item(data_dir, library_dir, tmp_path):
    batch_file = tmp_path / "batch.json"
    batch_file.write_text(json.dumps({"proposals": [
        {"kind": "relation", "a": "A", "type": "sequel", "b": "A", "evidence": [{"quote": "x"}]},
        {"kind": "relation", "a": "A", "type": "sequel", "b": "B"}]}))
    done = manage(data_dir, library_dir, "import-proposals", str(batch_file))
    assert done.returncode != 0
    assert "2 of its items are invalid" in done.stderr
    assert "item 0 b: A cannot be related to itself" in done.stderr
    assert "item 1 evidence: must be a list of at least one {url, quote}" in done.stderr
    assert not (data_dir / "catalog.json").exists() or json.loads((data_dir / "catalog.json").read_text())[
        "proposals"] == []
    missing = manage(data_dir, library_dir, "import-proposals", str(tmp_path / "nothing.json"))
    assert missing.returncode != 0 and "cannot read" in missing.stderr
