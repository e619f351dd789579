"""`python -m bench.access_bench` runs and prints every row, so the figures in docs/performance.md
about restrictions and the library filter can be made again."""
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parent.parent


def test_it_prints_every_row(tmp_path):
    run = subprocess.run([sys.executable, "-m", "bench.access_bench", "--manga", "300", "--runs", "2"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    for row in ("baseline: a dict lookup per manga", "free user", "only user", "tags user",
                "visible(tags) over every manga", "filter tag:drama status:ongoing", "facets of every manga"):
        assert row in run.stdout, run.stdout
