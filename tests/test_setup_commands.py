"""The manage.py commands that docs/, the README and the commands themselves print are written so
they work as printed from a fresh clone: with the project's Python (`.venv/bin/python manage.py`),
not the system's, which has no Django. Each command named there is run (`--help`)."""
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# `python manage.py` not preceded by the .venv path; inside the container (`docker compose exec
# reader python manage.py`) the image's python is the project's.
BARE = re.compile(r"(?<![/\w])(?<!reader )python3? (manage\.py|-m bench)")
COMMAND = re.compile(r"\.venv/bin/python manage\.py (\w+)")


def written():
    files = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    files += sorted(ROOT.glob("*/management/commands/*.py")) + sorted(ROOT.glob("templates/**/*.html"))
    files += [ROOT / "accounts" / "rules.py", ROOT / "accounts" / "setup.py"]
    return {path: path.read_text() for path in files}


def test_it_writes_every_manage_py_command_with_the_projects_python():
    bare = [f"{path.relative_to(ROOT)}: {line.strip()}" for path, text in written().items()
            for line in text.splitlines() if BARE.search(line)]
    assert bare == []


def test_it_prints_a_working_command_after_makedemo(demo_made):
    path, out = demo_made
    assert f"Read it with: LIBRARY='{path}' .venv/bin/python manage.py serve" in out


@pytest.mark.process
def test_it_runs_each_command_named_as_it_is_written():
    names = sorted({name for text in written().values() for name in COMMAND.findall(text)})
    assert {"serve", "makedemo", "scan", "runscraper", "setupcode"} <= set(names)
    for name in names:
        done = subprocess.run([str(ROOT / ".venv/bin/python"), "manage.py", name, "--help"], cwd=ROOT,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, (name, done.stderr)


@pytest.mark.process
def test_apt_install_says_what_it_installs_and_why_and_waits_for_the_lock(tmp_path):
    """scripts/bootstrap's apt_install against a stand-in apt-get whose first `update` finds the
    lock held by another install (as on a machine where one runs), then succeeds."""
    fake = tmp_path / "bin"
    fake.mkdir()
    calls = tmp_path / "calls"
    (fake / "apt-get").write_text(f"""#!/bin/sh
echo "$@" >> {calls}
case "$*" in *update*) [ -f {tmp_path}/held ] && exit 0; touch {tmp_path}/held
  echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 42 (apt-get)" >&2; exit 100;; esac
""")
    (fake / "apt-get").chmod(0o755)
    (fake / "sudo").write_text('#!/bin/sh\nexec "$@"\n')
    (fake / "sudo").chmod(0o755)
    script = ('eval "$(sed -n \'/^apt_install()/,/^}/p\' scripts/bootstrap)"; '
              'apt_install "chromium for the browser tests" chromium')
    done = subprocess.run(["bash", "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={"PATH": f"{fake}:/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert "Installing Debian packages chromium with apt-get: chromium for the browser tests" in done.stderr
    assert "Another apt-get or dpkg is running; waiting" in done.stderr
    assert "Could not get lock" not in done.stderr
    assert calls.read_text().splitlines()[-1].endswith("install -y -qq chromium")
