"""Backups against real processes: a write burst and the scraper running during a backup, a kill -9
of the reader mid-backup (the scraper's pause lease ends by itself), restore refusing to run
beside a service."""
import json
import os
import subprocess
import sys
import tarfile
import threading
import time

import pytest

from bench.server import ROOT, Server
from ops.backups import archive
from tests.scraper.conftest import TOKEN
from tests.scraper.support import ScraperProcess

pytestmark = pytest.mark.process


@pytest.fixture
def services(tmp_path, data_dir, library_dir, site):
    """A reader with BACKUP set and a scraper on the same DATA, reaching each other."""
    backup = tmp_path / "backup"
    started = []

    def start(lease=None):
        if lease:
            (data_dir / "backup.json").write_text(json.dumps({"pauseLeaseSeconds": lease}))
        scraper = ScraperProcess(data_dir, library_dir, site.url, TOKEN).start()
        started.append(scraper)
        env = {"BACKUP": str(backup), "SCRAPER_URL": scraper.url, "SCRAPER_TOKEN": TOKEN}
        reader = Server(data_dir, library_dir, env=env).start()
        started.append(reader)
        return reader, scraper, backup

    yield start
    for proc in reversed(started):
        proc.stop()


def manage(*args, env=None):
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)


def test_it_backs_up_during_a_write_burst_with_every_acknowledged_write(services):
    reader, scraper, backup = services()
    admin = reader.client().signup("admin", "correct horse battery")
    acks, stop = [], threading.Event()

    def burst():
        writer = reader.client()
        writer.cookies = dict(admin.cookies)
        i = 0
        while not stop.is_set() and i < 5000:
            zoom = round(0.2 + i * 0.001, 3)
            if writer.post("/api/settings", {"zoom": {"page": zoom}})[0] == 200:
                acks.append((time.monotonic(), zoom))
            i += 1

    thread = threading.Thread(target=burst)
    thread.start()
    try:
        while len(acks) < 50:
            time.sleep(0.01)
        asked = time.monotonic()
        done = manage("backup", env=reader.env)
    finally:
        stop.set()
        thread.join()
    assert done.returncode == 0, done.stderr
    assert "backup written and verified" in done.stdout
    [path] = backup.glob("mangacircus-*.tar.gz")
    archive.read(path)
    with tarfile.open(path) as tar:
        db = json.loads(tar.extractfile("data/db.json").read())
        everything = b"".join(tar.extractfile(m).read() for m in tar.getmembers())
    assert admin.cookies["sid"].encode() not in everything  # sessions are kept as hashes only
    saved = db["users"]["admin"]["settings"]["zoom"]["page"]
    before = [zoom for t, zoom in acks if t < asked]
    assert saved >= before[-1]  # every write acknowledged before the backup was asked for
    assert saved <= acks[-1][1]
    # The scraper was paused for the run under a lease and runs again.
    assert "paused under a lease of 600 s" in scraper.output() and "the leased pause ends" in scraper.output()
    status = scraper.call("GET", "/status")[1]
    assert status["paused"] is False and status["leaseSeconds"] is None
    assert oct(path.stat().st_mode)[-3:] == "600"


def test_a_reader_killed_mid_backup_leaves_no_final_archive_and_the_scraper_resumes_by_itself(services, data_dir):
    # 60 MB that does not compress: the run spends seconds writing, with the scraper paused.
    (data_dir / "scraper").mkdir()
    (data_dir / "scraper" / "big.bin").write_bytes(os.urandom(60 << 20))
    reader, scraper, backup = services(lease=4)
    admin = reader.client().signup("admin", "correct horse battery")
    assert admin.post("/api/admin/backup", {"command": "run"})[0] == 200
    deadline = time.monotonic() + 60
    while (admin.get("/api/admin/backup")[2]["running"] or {}).get("step") != "writing the archive":
        assert time.monotonic() < deadline, "the backup never reached its writing step"
        time.sleep(0.02)
    assert scraper.call("GET", "/status")[1]["paused"] is True
    scraper.call("POST", "/jobs", {"kind": "add", "source": "fake", "series": "s1"})
    reader.kill9()
    assert not list(backup.glob("*.tar.gz"))  # only the .part, never a final name
    # Nobody resumes the scraper: its lease ends, and the job queued meanwhile runs.
    scraper.wait_for(lambda s: s["revision"] == 3 and s["queued"] == 0, timeout=60, what="the job after the lease")
    assert "the pause lease expired without a resume" in scraper.output()
    # The next run cleans the leftover and succeeds.
    (data_dir / "scraper" / "big.bin").unlink()
    reader.start()
    admin = reader.client().login("admin", "correct horse battery")
    done = manage("backup", env=reader.env)
    assert done.returncode == 0, done.stderr
    assert len(list(backup.glob("*.tar.gz"))) == 1 and not list(backup.glob("*.part"))


def test_restore_refuses_while_a_service_runs_and_leaves_data_alone(services, data_dir):
    reader, scraper, backup = services()
    reader.client().signup("admin", "correct horse battery")
    assert manage("backup", env=reader.env).returncode == 0
    [path] = backup.glob("*.tar.gz")
    db_before = (data_dir / "db.json").read_bytes()
    done = manage("restore", str(path), env=reader.env)
    assert done.returncode == 1 and "MangaCircus reader" in done.stderr and "stop the services first" in done.stderr
    reader.stop()
    done = manage("restore", str(path), env=reader.env)
    assert done.returncode == 1 and "MangaCircus scraper" in done.stderr
    assert (data_dir / "db.json").read_bytes() == db_before
    scraper.stop()
    done = manage("restore", str(path), env=reader.env)
    assert done.returncode == 0, done.stderr
    assert "restored" in done.stdout and "before-restore" in done.stdout
    reader.start()  # and the restored data serves: the account still signs in
    reader.client().login("admin", "correct horse battery")
