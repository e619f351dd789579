"""SECRET_KEY: importing the settings writes nothing; racing starts on a fresh DATA agree on one key."""
import os
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from mangacircus import secretkey

ROOT = Path(__file__).resolve().parents[1]


def fresh_env(data):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SECRET_KEY")}
    return {**env, "DATA": str(data), "DJANGO_SETTINGS_MODULE": "mangacircus.settings"}


@pytest.mark.process
def test_importing_the_settings_writes_nothing(tmp_path):
    data = tmp_path / "data"
    code = (
        "import django; django.setup()\n"
        "from django.conf import settings\n"
        "from django.core.exceptions import ImproperlyConfigured\n"
        "print(settings.DATA)\n"
        "try:\n"
        "    settings.SECRET_KEY\n"
        "except ImproperlyConfigured:\n"
        "    print('no key yet')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=fresh_env(data), capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:2] == [str(data), "no key yet"]
    assert not data.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def start_together(barrier, path, keys):
    barrier.wait()
    keys.append(secretkey.load_or_create(path))


def test_racing_threads_end_up_with_one_complete_key(tmp_path):
    for round in range(20):
        path = tmp_path / str(round) / "secret_key"
        barrier, keys = threading.Barrier(8), []
        threads = [threading.Thread(target=start_together, args=(barrier, path, keys)) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(keys) == 8 and set(keys) == {path.read_text()}
        assert len(keys[0]) >= 50
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert [p.name for p in path.parent.iterdir()] == ["secret_key"]  # no temporary file left


@pytest.mark.process
def test_racing_processes_end_up_with_one_complete_key(tmp_path):
    """Two processes, as `serve` and `runscraper` started at the same moment on a fresh DATA."""
    data = tmp_path / "data"
    go = time.time() + 3  # both have imported Django by then, and spin until the same moment
    code = (
        "import time, django; django.setup()\n"
        "from mangacircus import secretkey\n"
        f"while time.time() < {go}: pass\n"
        "print(secretkey.ensure())\n"
    )
    procs = [subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=fresh_env(data),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [p.communicate(timeout=60) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], [err for _, err in results]
    keys = {out.strip() for out, _ in results}
    assert keys == {(data / "secret_key").read_text()} and len(keys.pop()) >= 50


def test_the_process_that_loses_the_race_reads_the_winners_key(tmp_path, monkeypatch):
    path = tmp_path / "secret_key"
    read = secretkey._read

    def read_after_the_other_wrote(p):
        monkeypatch.setattr(secretkey, "_read", read)
        path.write_text("the winner's key")
        raise FileNotFoundError(p)  # it was not there yet when this process looked

    monkeypatch.setattr(secretkey, "_read", read_after_the_other_wrote)
    assert secretkey.load_or_create(path) == "the winner's key"
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]


def test_ensure_sets_the_key_and_the_environment_wins(settings, tmp_path):
    settings.DATA = tmp_path / "data"
    settings.SECRET_KEY = "from the environment"
    assert secretkey.ensure() == "from the environment"
    assert not settings.DATA.exists()
    settings.SECRET_KEY = ""
    key = secretkey.ensure()
    assert settings.SECRET_KEY == key == (settings.DATA / "secret_key").read_text()
    settings.SECRET_KEY = ""
    assert secretkey.ensure() == key  # the next start reuses it


def test_an_empty_key_file_is_refused(settings, tmp_path):
    settings.DATA, settings.SECRET_KEY = tmp_path, ""
    (tmp_path / "secret_key").write_text("\n")
    with pytest.raises(Exception, match="secret_key is empty"):
        secretkey.ensure()
