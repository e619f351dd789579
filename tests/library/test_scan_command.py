"""manage.py scan [--full]: prints the report, runs beside a reader (no lock), fails clearly."""
import json
import os
import subprocess
import sys

import pytest

from bench.server import ROOT
from mangacircus import locks

pytestmark = pytest.mark.process


def run(data_dir, library=None, *args):
    env = {**os.environ, "DATA": str(data_dir)}
    env.pop("LIBRARY", None)
    if library is not None:
        env["LIBRARY"] = str(library)
    return subprocess.run([sys.executable, "manage.py", "scan", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


def test_it_prints_the_report_while_a_reader_holds_the_lock(data_dir, library_dir):
    (library_dir / "Moon Garden" / "Notes").mkdir()
    locks.hold(data_dir / ".lock", "test reader")
    try:
        done = run(data_dir, library_dir)
    finally:
        locks.release_all()
    assert done.returncode == 0, done.stderr
    assert "full scan of" in done.stdout and "2 manga, 2 books, 3 chapters, 4 versions, 9 pages" in done.stdout
    assert "[skipped-folder] Moon Garden/Notes" in done.stdout
    assert "A running reader picks up changes itself" in done.stdout
    assert not {"library-index.json", "scan-cache.json"} & {p.name for p in data_dir.iterdir()}  # it only reads


def test_it_prints_json(data_dir, library_dir):
    done = run(data_dir, library_dir, "--full", "--json")
    report = json.loads(done.stdout)
    assert report["kind"] == "full" and report["counts"]["pages"] == 9


def test_it_fails_clearly_without_a_library(data_dir, tmp_path):
    done = run(data_dir, tmp_path / "not-mounted")
    assert done.returncode != 0 and "cannot be read" in done.stderr
