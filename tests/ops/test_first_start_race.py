"""`serve` and `runscraper` started at the same instant on a fresh DATA both start, every time:
both make DATA/secret_key, and neither may crash on the other's file or read it half-written
(mangacircus/secretkey.py). 50 rounds with REL_PROFILE=full, 10 in the default (CI) profile."""
import os
import signal
import subprocess
import sys
import time

import pytest

from bench.server import ROOT, Client, free_port
from tests.reliability.support import sized

pytestmark = pytest.mark.process

ROUNDS, AT_ONCE = sized(10, 50), 5


def at(go, command):
    """Python code that imports Django, waits for the instant `go`, then runs the command."""
    return ("import time, django; django.setup()\n"
            f"while time.time() < {go}: pass\n"
            "from django.core.management import call_command\n"
            f"call_command(*{command!r})\n")


def start_pair(tmp_path, library_dir, n, go):
    data = tmp_path / f"data{n}"
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "SCRAPER_TOKEN")}
    env.update(DATA=str(data), LIBRARY=str(library_dir), SCAN_INTERVAL="0", LOG_LEVEL="WARNING", SCRYPT_LOG_N="10")
    port = free_port()
    logs = [open(tmp_path / f"{name}{n}.log", "wb") for name in ("serve", "runscraper")]
    serve = subprocess.Popen([sys.executable, "-c", at(go, ["serve", "--bind", f"127.0.0.1:{port}",
                                                            "--no-collectstatic"])],
                             cwd=ROOT, env=env, stdout=logs[0], stderr=subprocess.STDOUT, start_new_session=True)
    scraper = subprocess.Popen([sys.executable, "-c", at(go, ["runscraper", "--once", "--no-api"])],
                               cwd=ROOT, env=env, stdout=logs[1], stderr=subprocess.STDOUT, start_new_session=True)
    return data, port, serve, scraper


def serve_ready(port, proc, deadline):
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if Client("127.0.0.1", port).get("/api/auth")[0] == 200:
                return True
        except OSError:
            pass
        time.sleep(0.05)
    return False


def test_serve_and_runscraper_both_start_every_time_on_a_fresh_data(tmp_path, library_dir):
    failures = []
    for batch in range(ROUNDS // AT_ONCE):
        go = time.time() + 4  # every process has imported Django by then
        pairs = [start_pair(tmp_path, library_dir, batch * AT_ONCE + i, go) for i in range(AT_ONCE)]
        for n, (data, port, serve, scraper) in enumerate(pairs, start=batch * AT_ONCE):
            ready = serve_ready(port, serve, time.monotonic() + 60)
            code = scraper.wait(60)
            for proc in (serve, scraper):
                if proc.poll() is None:
                    os.killpg(proc.pid, signal.SIGTERM)
                    proc.wait(30)
            key = (data / "secret_key").read_text()
            leftovers = [p.name for p in data.iterdir() if p.name.endswith(".tmp")]
            if not ready or code != 0 or len(key) < 50 or leftovers:
                failures.append((n, ready, code, leftovers, (tmp_path / f"serve{n}.log").read_text()[-500:],
                                 (tmp_path / f"runscraper{n}.log").read_text()[-500:]))
    assert failures == [], failures
