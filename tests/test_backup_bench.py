"""`python -m bench.backup_bench` runs with the sizes it is given and prints both rows, so the backup
figures in docs/performance.md can be made again; a bad option is refused."""
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parent.parent


def bench(*args):
    return subprocess.run([sys.executable, "-m", "bench.backup_bench", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=180)


def test_it_prints_both_rows_for_the_sizes_it_is_given(tmp_path):
    run = bench("--seconds", "1", "--db-mb", "0.5", "--catalog-mb", "0.2", "--dir", str(tmp_path))
    assert run.returncode == 0, run.stderr[-3000:]
    assert "backup run, 0.5 MB db + 0.2 MB catalog" in run.stdout, run.stdout
    assert "POST /api/progress p99, 50/s, backups" in run.stdout, run.stdout
    assert "requests failed" not in run.stdout
    assert sorted(p.name for p in (tmp_path / "backup-archives").glob("*.tar.gz"))  # real archives were written


def test_it_refuses_a_size_that_is_not_positive(tmp_path):
    run = bench("--db-mb", "0", "--dir", str(tmp_path))
    assert run.returncode == 2 and "must be positive" in run.stderr
    assert not (tmp_path / "backup-data").exists()
