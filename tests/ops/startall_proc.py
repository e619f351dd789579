"""A real `manage.py startall` process for the tests."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bench.server import ROOT, Client, free_port


class StartAll:
    def __init__(self, data, library, env=None):
        self.data = Path(data)
        self.port = free_port()
        self.scraper_port = free_port()
        self.env = {
            **os.environ, "DATA": str(data), "LIBRARY": str(library), "SCRYPT_LOG_N": "10",
            "SCAN_INTERVAL": "0", "SCAN_SETTLE": "0", "LOG_LEVEL": "INFO",
            "SCRAPER_URL": f"http://127.0.0.1:{self.scraper_port}", "NGINX": "off",
            "READER_PORT": str(free_port()), **(env or {}),
        }
        for name in ("SCRAPER_TOKEN", "SECRET_KEY"):
            if name not in (env or {}):
                self.env.pop(name, None)
        self.proc = None
        self.log = self.data.parent / f"startall-{self.port}.log"

    def start(self, args=None, command=None):
        """`manage.py startall`, or `command` (scripts/demo), with `args` (default: --bind on self.port)."""
        self.data.mkdir(parents=True, exist_ok=True)
        argv = [*(command or [sys.executable, "manage.py", "startall"]),
                *(args or ["--bind", f"127.0.0.1:{self.port}"])]
        self.proc = subprocess.Popen(argv, cwd=ROOT, env=self.env, stdout=open(self.log, "ab"),
                                     stderr=subprocess.STDOUT, start_new_session=True)
        return self

    def output(self):
        return self.log.read_text(errors="replace")

    def client(self):
        return Client("127.0.0.1", self.port)

    def state(self):
        try:
            return json.loads((self.data / "supervisor.json").read_text())
        except (OSError, ValueError):
            return None

    def wait_for(self, check, what, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if check():
                return
            if self.proc.poll() is not None:
                raise AssertionError(f"startall exited ({self.proc.returncode}) waiting for {what}:\n{self.output()}")
            time.sleep(0.1)
        raise AssertionError(f"no {what} after {timeout} s:\n{self.output()}")

    def reader_answers(self):
        try:
            return self.client().get("/api/auth")[0] == 200
        except OSError:
            return False

    def terminate(self, timeout=60):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            raise

    def kill_all(self):
        """After a failed test: the supervisor and its children (each in its own session)."""
        state = self.state() or {}
        pids = [s.get("pid") for s in state.get("services", {}).values() if s.get("pid")]
        for pid in [self.proc.pid, *pids]:
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
