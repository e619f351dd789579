"""Two real servers on loopback, each with its own DATA and LIBRARY, and the receiver's scraper."""
import os
import subprocess
import sys
import time
from pathlib import Path

from bench.server import ROOT, Server, free_port
from tests.conftest import make_page, tiny_tree
from tests.scraper.support import ScraperProcess

TOKEN = "peer-test-token-0123456789"
A_TO_B = "secret-alpha-presents-to-beta-0123456789"  # alpha presents it, beta accepts it
B_TO_A = "secret-beta-presents-to-alpha-0123456789"


def peer_tree(root, long_pages=0):
    """tiny_tree(), with a second book, an extras book, a manga nobody shares and, when asked,
    a manga with one long chapter."""
    tiny_tree(root)
    moon = root / "Moon Garden"
    for n in (1, 2, 3):
        make_page(moon / "b02 Summer" / "c0003 Heat" / f"{n:03d}.png", color=(40 * n, 90, 90))
    make_page(moon / "x01 Side Stories" / "c0001 Bonus" / "001.png", color=(10, 200, 10))
    make_page(root / "Secret Diary" / "c0001 Dear" / "001.png", color=(1, 2, 3))
    if long_pages:
        for n in range(1, long_pages + 1):
            make_page(root / "Long One" / "c0001 All [Scan]" / f"{n:03d}.png", size=(300, 400),
                      color=(n % 256, (7 * n) % 256, 100))
    return root


def manage(data, library, *args, env=None):
    """`manage.py` with that DATA and LIBRARY: -> (exit code, stdout + stderr)."""
    full_env = {**os.environ, "DATA": str(data), "LIBRARY": str(library), "SECRET_KEY": "test-secret",
                "LOG_LEVEL": "WARNING", **(env or {})}
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=full_env, capture_output=True,
                          text=True, timeout=120)
    return done.returncode, done.stdout + done.stderr


class Pair:
    """alpha (the sender) and beta (the receiver, with a scraper), paired with `manage.py peer add`."""

    def __init__(self, tmp, long_pages=0):
        self.tmp = Path(tmp)
        self.lib_a = peer_tree(self.tmp / "lib-a", long_pages)
        self.lib_b = self.tmp / "lib-b"
        self.lib_b.mkdir()
        self.data_a, self.data_b = self.tmp / "a" / "data", self.tmp / "b" / "data"
        self.scraper_port = free_port()
        self.env_b = {"PEER_ALLOW": "127.0.0.1", "SCRAPER_URL": f"http://127.0.0.1:{self.scraper_port}",
                      "SCRAPER_TOKEN": TOKEN}
        self.alpha = Server(self.data_a, self.lib_a, env={"LOG_LEVEL": "INFO"})
        self.beta = Server(self.data_b, self.lib_b, env=self.env_b)
        self.scraper = None

    def start(self):
        self.alpha.start()
        self.beta.start()
        self.admin_a = self.alpha.client().signup("admin")
        self.admin_b = self.beta.client().signup("admin")
        return self

    def start_scraper(self):
        self.scraper = ScraperProcess(self.data_b, self.lib_b, "http://127.0.0.1:9", TOKEN, env=self.env_b,
                                      port=self.scraper_port).start()
        return self.scraper

    def secret_file(self, name, secret):
        path = self.tmp / name
        path.write_text(secret + "\n")
        return str(path)

    def on_a(self, *args):
        return manage(self.data_a, self.lib_a, *args)

    def on_b(self, *args):
        return manage(self.data_b, self.lib_b, *args, env=self.env_b)

    def pair(self):
        code, out = self.on_a("peer", "add", "beta", self.beta.url, "--present-secret-file",
                              self.secret_file("a2b", A_TO_B), "--accept-secret-file", self.secret_file("b2a", B_TO_A))
        assert code == 0, out
        code, out = self.on_b("peer", "add", "alpha", self.alpha.url, "--present-secret-file",
                              self.secret_file("b2a", B_TO_A), "--accept-secret-file", self.secret_file("a2b", A_TO_B))
        assert code == 0, out
        return self

    def page_fetches(self):
        """(manga, version, file) of each page alpha served to beta, from alpha's log, in order."""
        found = []
        for line in self.alpha.log.read_text(errors="replace").splitlines():
            marker = "peer beta: page "
            if marker in line and not line.endswith("not found"):
                found.append(tuple(line.split(marker, 1)[1].split(" / ")))
        return found

    def wait_idle(self, timeout=90):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status, data = self.scraper.call("GET", "/jobs")
            jobs = data["jobs"]
            if jobs and all(j["state"] in ("done", "failed", "cancelled") for j in jobs):
                return jobs
            time.sleep(0.1)
        raise AssertionError(f"the transfer did not finish:\n{self.scraper.output()}")

    def stop(self):
        for proc in (self.scraper, self.beta, self.alpha):
            if proc is not None:
                proc.stop()


def images(root):
    """{path relative to root: bytes} of every page image under root (hidden folders left out)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.png"))
            if not any(part.startswith(".") for part in p.relative_to(root).parts)}
