"""Peering: the transfer rate of one 200-page chapter between two servers on loopback, with pacing 0,
against fetching the same files from the sending server's /lib/ in the same run.

The sender is a real `serve`; the receiver is a real `serve` and its `runscraper`. The transfer is
timed from queuing the job to its end: it includes the catalog (which hashes every shared page on
the first request), verifying each page as an image and against its announced SHA-256, staging, the
chapter's fsyncs and publication. The baseline fetches the 200 files one after another from /lib/
with a session, in the same run, just before.
"""
import http.client
import json
import os
import random
import shutil
import subprocess
import sys
import time
from io import BytesIO
from urllib.parse import quote

from PIL import Image

from .report import Row, target
from .server import ROOT, Server, free_port

PAGES = 200
TOKEN = "bench-peering-token-0123456789"
NAME = "peer transfer, 200-page chapter, pacing 0"


def make_chapter(library):
    """200 JPEG pages of noise (~100 KB each: noise does not compress), made once per folder."""
    chapter = library / "Far Chapter" / "c0001 All [Scan]"
    if chapter.is_dir() and len(os.listdir(chapter)) == PAGES:
        return chapter
    chapter.mkdir(parents=True, exist_ok=True)
    rng = random.Random(7)
    for n in range(1, PAGES + 1):
        image = Image.frombytes("L", (400, 600), rng.randbytes(400 * 600)).convert("RGB")
        buffer = BytesIO()
        image.save(buffer, "JPEG", quality=70)
        (chapter / f"{n:03d}.jpg").write_bytes(buffer.getvalue())
    return chapter


def _manage(data, library, env, *args):
    run = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "DATA": str(data), "LIBRARY": str(library), "SECRET_KEY": "bench",
                              "LOG_LEVEL": "WARNING", **env}, timeout=120)
    if run.returncode:
        raise RuntimeError(f"manage.py {' '.join(args)} failed: {run.stdout}{run.stderr}")


def _scraper_call(port, method, path, body=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(method, path, body=json.dumps(body).encode() if body is not None else None,
                 headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
    response = conn.getresponse()
    data = json.loads(response.read() or b"{}")
    conn.close()
    return response.status, data


def transfer_row(work, say):
    work = work / "peering"
    library_a, library_b = work / "lib-a", work / "lib-b"
    chapter = make_chapter(library_a)
    for folder in (library_b, work / "a", work / "b"):
        shutil.rmtree(folder, ignore_errors=True)
    library_b.mkdir(parents=True)
    total = sum(p.stat().st_size for p in chapter.iterdir())
    port = free_port()
    env_b = {"PEER_ALLOW": "127.0.0.1", "SCRAPER_URL": f"http://127.0.0.1:{port}", "SCRAPER_TOKEN": TOKEN}
    a_to_b, b_to_a = work / "a2b", work / "b2a"
    a_to_b.write_text("bench-secret-alpha-to-beta-0123456789")
    b_to_a.write_text("bench-secret-beta-to-alpha-0123456789")
    alpha = Server(work / "a" / "data", library_a, env={"LOG_LEVEL": "WARNING"})
    beta = Server(work / "b" / "data", library_b, env={"LOG_LEVEL": "WARNING", **env_b})
    scraper = None
    say("peering: two servers and a scraper")
    try:
        alpha.start()
        beta.start()
        _manage(alpha.data, library_a, {}, "peer", "add", "beta", beta.url, "--present-secret-file", str(a_to_b),
                "--accept-secret-file", str(b_to_a))
        _manage(alpha.data, library_a, {}, "peer", "share", "beta", "all")
        _manage(beta.data, library_b, env_b, "peer", "add", "alpha", alpha.url, "--present-secret-file",
                str(b_to_a), "--accept-secret-file", str(a_to_b))
        scraper = subprocess.Popen([sys.executable, "manage.py", "runscraper"], cwd=ROOT, start_new_session=True,
                                   env={**os.environ, "DATA": str(beta.data), "LIBRARY": str(library_b),
                                        "SECRET_KEY": "bench", "LOG_LEVEL": "WARNING", **env_b},
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while True:
            try:
                if _scraper_call(port, "GET", "/revision")[0] == 200:
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        say("peering: /lib/ baseline")
        client = alpha.client().signup("admin")
        started = time.monotonic()
        for page in sorted(chapter.iterdir()):
            status, _, body = client.request("GET", "/lib/" + quote(f"Far Chapter/{chapter.name}/{page.name}"))
            assert status == 200 and len(body) == page.stat().st_size
        lib_seconds = time.monotonic() - started
        say("peering: transfer")
        started = time.monotonic()
        status, data = _scraper_call(port, "POST", "/jobs", {"kind": "add", "source": "peer",
                                                             "series": "alpha/Far Chapter"})
        assert status == 201, data
        while True:
            jobs = _scraper_call(port, "GET", "/jobs")[1]["jobs"]
            if len(jobs) == 2 and all(j["state"] in ("done", "failed") for j in jobs):
                break
            if time.monotonic() - started > 600:
                raise RuntimeError("the peer transfer did not finish in 10 minutes")
            time.sleep(0.02)
        seconds = time.monotonic() - started
        failed = [j["error"] for j in jobs if j["state"] == "failed"]
        if failed:
            raise RuntimeError(f"the peer transfer failed: {failed}")
    finally:
        if scraper is not None:
            scraper.terminate()
            scraper.wait(30)
        alpha.stop()
        beta.stop()
    mb = total / 1e6
    rate, lib_rate = mb / seconds, mb / lib_seconds
    return Row(NAME, rate, f"{rate:.1f} MB/s ({PAGES} pages, {mb:.1f} MB, {seconds:.2f} s)",
               f"/lib/ one by one: {lib_rate:.1f} MB/s ({lib_seconds:.2f} s)", rate / lib_rate,
               target("ratio >= 0.5 | ≥ 0.5× /lib/"),
               note="includes the catalog (hashing 200 pages on its first request), a decode of each page "
                    "to verify it (overlapped with the next fetch), its SHA-256, one fsync pass for the "
                    "chapter and publication; the pages come over one kept connection")
