"""A real `manage.py runscraper` process for the tests, with the fake source and small timings."""
import http.client
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bench.server import ROOT, free_port

FAST_ENV = {
    "STALL_SECONDS": "2", "SCRAPER_CONNECT_TIMEOUT": "2", "SCRAPER_READ_TIMEOUT": "2",
    "SCRAPER_PAGE_DEADLINE": "5", "SCRAPER_RETRY_BASE": "0.02", "SCRAPER_JOB_RETRY_DELAYS": "0,0",
    "SCRAPER_MIN_FREE_MB": "0", "LOG_LEVEL": "INFO",
}


class ScraperProcess:
    def __init__(self, data, library, site_url, token, env=None, port=None):
        self.data = Path(data)
        self.port = port or free_port()
        self.token = token
        self.env = {
            **os.environ, "DATA": str(data), "LIBRARY": str(library), "SECRET_KEY": "test-secret",
            "SCRAPER_URL": f"http://127.0.0.1:{self.port}", "SCRAPER_TOKEN": token,
            "SCRAPER_SOURCES": "tests.scraper.fake_source", "FAKE_SOURCE_URL": site_url,
            **FAST_ENV, **(env or {}),
        }
        self.proc = None
        self.log = self.data.parent / f"runscraper-{self.port}.log"

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self, args=(), wait=True):
        self.data.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [sys.executable, "manage.py", "runscraper", *args], cwd=ROOT, env=self.env,
            stdout=open(self.log, "ab"), stderr=subprocess.STDOUT, start_new_session=True,
        )
        if wait:
            self.wait_ready()
        return self

    def output(self):
        return self.log.read_text(errors="replace")

    def wait_ready(self, timeout=20):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"runscraper exited with {self.proc.returncode}:\n{self.output()}")
            if "runscraper is now running" in self.output():
                try:
                    if self.call("GET", "/revision")[0] == 200:
                        return
                except OSError:
                    pass
            time.sleep(0.05)
        raise RuntimeError(f"runscraper did not become ready:\n{self.output()}")

    def call(self, method, path, body=None, token=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Authorization": f"Bearer {token or self.token}"} if token != "" else {}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        conn.request(method, path, body=payload, headers=headers)
        resp = conn.getresponse()
        data = resp.read()
        conn.close()
        return resp.status, json.loads(data) if data else None

    def wait_for(self, predicate, timeout=30, what="condition"):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status, data = self.call("GET", "/status")
            if status == 200 and predicate(data):
                return data
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what}:\n{self.output()}")

    def signal(self, signum):
        os.killpg(self.proc.pid, signum)

    def kill9(self):
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill9()


def complete_chapters(library, expected_pages):
    """Every chapter folder visible in LIBRARY (outside .staging); fails on a partial one."""
    found = []
    for manga in library.iterdir():
        if manga.name.startswith(".") or not manga.is_dir():
            continue
        for chapter in manga.iterdir():
            if chapter.is_dir():
                names = os.listdir(chapter)
                pages = [n for n in names if n.endswith(".png")]
                assert len(pages) == expected_pages and "chapter.json" in names, f"partial chapter {chapter}: {names}"
                found.append(chapter.name)
    return found


__all__ = ["ScraperProcess", "complete_chapters", "free_port"]
