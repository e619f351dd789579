"""The manage.py commands that docs/, the README and the commands themselves print are written so
they work as printed from a fresh clone: with the project's Python (`.venv/bin/python manage.py`),
not the system's, which has no Django. Each command named there is run (`--help`)."""
import io
import os
import re
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command

from library.apps import library_readable
from tests.support.app import settings_from

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


def test_it_reads_the_demo_library_beside_manage_py_when_library_is_unset():
    values = settings_from({"SECRET_KEY": "x"})
    assert values["LIBRARY"] == ROOT / "demo-library" and values["LIBRARY_IS_DEMO"]
    values = settings_from({"SECRET_KEY": "x", "LIBRARY": "/srv/manga"})
    assert values["LIBRARY"] == Path("/srv/manga") and not values["LIBRARY_IS_DEMO"]


def test_it_writes_the_missing_demo_library_before_a_scan(settings, data_dir, tmp_path):
    settings.DATA, settings.LIBRARY, settings.LIBRARY_IS_DEMO = data_dir, tmp_path / "demo-library", True
    assert [w.id for w in library_readable(None)] == []  # nothing to warn about: it will be written
    out, err = io.StringIO(), io.StringIO()
    call_command("scan", stdout=out, stderr=err)
    assert f"LIBRARY is not set: made the demo library in {tmp_path / 'demo-library'} (6 manga)" in err.getvalue()
    assert "6 manga" in out.getvalue()
    err = io.StringIO()
    call_command("scan", stdout=io.StringIO(), stderr=err)
    assert err.getvalue() == ""  # made once


def test_it_warns_about_a_library_that_is_set_and_missing(settings, tmp_path):
    settings.LIBRARY, settings.LIBRARY_IS_DEMO = tmp_path / "not-mounted", False
    assert [w.id for w in library_readable(None)] == ["library.W002"]


@pytest.mark.process
def test_it_prints_no_warning_block_without_library_set():
    env = {k: v for k, v in os.environ.items() if k != "LIBRARY"}
    done = subprocess.run([str(ROOT / ".venv/bin/python"), "manage.py", "check"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "WARNINGS" not in done.stderr + done.stdout and "LIBRARY" not in done.stderr


def test_the_demo_script_leaves_the_demo_library_to_startall():
    script = (ROOT / "scripts" / "demo").read_text()
    assert "makedemo" not in script  # it printed "Read it with: ... serve", then started everything itself
    assert script.rstrip().endswith('exec .venv/bin/python manage.py startall "$@"')
