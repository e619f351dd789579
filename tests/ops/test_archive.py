"""Backup archives: hostile and damaged archives are refused by verify and restore without
touching DATA; restores give back exactly what was backed up; what is left out."""
import gzip
import hashlib
import io
import json
import os
import tarfile

import pytest

from ops.backups import archive
from ops.backups.restore import RestoreError, restore


def make_data(root):
    (root / "scraper").mkdir(parents=True)
    (root / "thumbs").mkdir()
    (root / "db.json").write_text(json.dumps({"users": {"ann": {"admin": True}}, "progress": {"ann": {"m": 1}}}))
    (root / "catalog.json").write_text('{"relations": []}')
    (root / "scraper" / "queue.json").write_text('{"schema": 3, "jobs": []}')
    (root / "incidents.jsonl").write_text('{"id": "a1", "kind": "stall", "message": "m"}\n')
    # left out: caches, process state, generated secrets
    (root / "thumbs" / "Moon.webp").write_bytes(b"cached")
    (root / "library-index.json").write_text("{}")
    (root / "scan-cache.json").write_text("{}")
    (root / "secret_key").write_text("k" * 60)
    (root / "local-admin.token").write_text("t" * 60)
    (root / "scraper.token").write_text("s" * 60)
    (root / "db.json.tmp").write_text("half")
    os.symlink("/etc/passwd", root / "link.json")
    return root


def tree(root):
    """{relative path: sha256} of every file under root (what "untouched" compares)."""
    out = {}
    for folder, _, files in os.walk(root):
        for name in files:
            path = os.path.join(folder, name)
            out[os.path.relpath(path, root)] = (hashlib.sha256(open(path, "rb").read()).hexdigest()
                                                if not os.path.islink(path) else os.readlink(path))
    return out


@pytest.fixture
def good(tmp_path):
    data = make_data(tmp_path / "data")
    path = tmp_path / "good.tar.gz"
    archive.write(path, archive.collect(data, {}))
    return path


def test_it_backs_up_state_and_leaves_out_caches_tokens_and_links(tmp_path, good):
    manifest = archive.read(good)
    assert sorted(manifest["files"]) == ["catalog.json", "db.json", "incidents.jsonl", "scraper/queue.json"]
    assert oct(good.stat().st_mode)[-3:] == "600"
    with tarfile.open(good) as tar:
        names = tar.getnames()
        assert names[0] == "manifest.json"
        assert all(tar.getmember(n).mode == 0o600 for n in names)
        raw = b"".join(tar.extractfile(n).read() for n in names)
    for secret in (b"k" * 60, b"t" * 60, b"s" * 60):
        assert secret not in raw


def test_it_takes_registered_snapshots_from_memory(tmp_path):
    data = make_data(tmp_path / "data")
    entries = dict(archive.collect(data, {"db.json": lambda: b'{"from": "memory"}', "new.json": lambda: b"{}",
                                          "closed.json": lambda: None}))
    assert entries["db.json"] == b'{"from": "memory"}' and entries["new.json"] == b"{}"
    assert "closed.json" not in entries


def hostile_member(name, data=b"x", kind=tarfile.REGTYPE, linkname=""):
    """An archive whose manifest lists data/db.json and that carries one extra crafted member."""
    def build(tar, manifest):
        add(tar, "manifest.json", json.dumps(manifest).encode())
        info = tarfile.TarInfo(name)
        info.type, info.linkname, info.size = kind, linkname, len(data) if kind == tarfile.REGTYPE else 0
        tar.addfile(info, io.BytesIO(data) if kind == tarfile.REGTYPE else None)
    return build


def add(tar, name, content):
    info = tarfile.TarInfo(name)
    info.size = len(content)
    tar.addfile(info, io.BytesIO(content))


def crafted(path, build):
    content = b'{"users": {}}'
    manifest = {"format": 1, "created": "now", "files": {
        "db.json": {"size": len(content), "sha256": hashlib.sha256(content).hexdigest()}}}
    with tarfile.open(path, "w:gz", format=tarfile.GNU_FORMAT) as tar:
        build(tar, manifest)
        if build.__name__ != "without_db":
            add(tar, "data/db.json", content)
    return path


def sparse_10_gb(path):
    """A member whose header says 10 GB, followed by a little data: costs nothing unless read."""
    with gzip.open(path, "wb") as gz:
        manifest = json.dumps({"format": 1, "created": "now", "files": {
            "db.json": {"size": 13, "sha256": "0" * 64}}}).encode()
        info = tarfile.TarInfo("manifest.json")
        info.size = len(manifest)
        gz.write(info.tobuf(tarfile.GNU_FORMAT) + manifest + b"\0" * (512 - len(manifest) % 512))
        big = tarfile.TarInfo("data/db.json")
        big.size = 10 << 30
        gz.write(big.tobuf(tarfile.GNU_FORMAT) + b"\0" * (1 << 20))
    return path


def variants(tmp_path, good):
    raw = good.read_bytes()
    out = {}
    for i, cut in enumerate((10, len(raw) // 3, len(raw) // 2, len(raw) - 30, len(raw) - 1)):
        out[f"truncated at {cut}"] = raw[:cut]
    for i in range(8):
        at = 10 + (len(raw) - 11) * i // 7  # past the gzip header's time stamp, which no check covers
        flipped = bytearray(raw)
        flipped[at] ^= 0x5A
        out[f"byte {at} flipped"] = bytes(flipped)
    paths = {name: tmp_path / f"v{i}.tar.gz" for i, name in enumerate(out)}
    for name, content in out.items():
        paths[name].write_bytes(content)

    def wrong_sha(tar, manifest):
        manifest["files"]["db.json"]["sha256"] = "f" * 64
        add(tar, "manifest.json", json.dumps(manifest).encode())

    def wrong_size(tar, manifest):
        manifest["files"]["db.json"]["size"] += 1
        add(tar, "manifest.json", json.dumps(manifest).encode())

    def without_db(tar, manifest):
        add(tar, "manifest.json", json.dumps(manifest).encode())

    def manifest_last(tar, manifest):
        add(tar, "data/x.json", b"{}")
        add(tar, "manifest.json", json.dumps(manifest).encode())

    builders = {
        "manifest sha mismatch": wrong_sha, "manifest size mismatch": wrong_size,
        "member missing": without_db, "manifest not first": manifest_last,
        "absolute path": hostile_member("/etc/cron.d/x"),
        "dot-dot path": hostile_member("data/../../escape.json"),
        "member not in manifest": hostile_member("data/extra.json"),
        "symlink": hostile_member("data/link.json", kind=tarfile.SYMTYPE, linkname="/etc/passwd"),
        "hard link": hostile_member("data/hard.json", kind=tarfile.LNKTYPE, linkname="data/db.json"),
        "device": hostile_member("data/dev", kind=tarfile.CHRTYPE),
        "folder": hostile_member("data/dir", kind=tarfile.DIRTYPE),
    }
    for i, (name, build) in enumerate(builders.items()):
        paths[name] = crafted(tmp_path / f"c{i}.tar.gz", build)
    paths["a 10 GB member"] = sparse_10_gb(tmp_path / "big.tar.gz")
    (tmp_path / "plain.tar").write_bytes(b"not a gzip file at all" * 40)
    paths["not gzip"] = tmp_path / "plain.tar"
    return paths


def test_it_refuses_every_damaged_or_hostile_archive_in_verify_and_restore(tmp_path, good):
    live = make_data(tmp_path / "live")
    before = tree(tmp_path)
    cases = variants(tmp_path / "cases", good) if (tmp_path / "cases").mkdir() is None else {}
    assert len(cases) >= 20
    accepted = []
    for name, path in cases.items():
        try:
            archive.read(path)
            accepted.append(name)
        except archive.ArchiveError:
            pass
        with pytest.raises(RestoreError, match="untouched"):
            restore(path, live)
    assert accepted == []
    after = tree(tmp_path)
    assert {k: v for k, v in after.items() if not k.startswith("cases/")} == before
    assert sorted(os.listdir(tmp_path)) == ["cases", "data", "good.tar.gz", "live"]


@pytest.mark.parametrize("round_trip", range(10))
def test_it_restores_exactly_what_was_backed_up(tmp_path, round_trip):
    data = make_data(tmp_path / "data")
    (data / "db.json").write_text(json.dumps({"users": {f"u{i}": {"n": round_trip} for i in range(5)}}))
    (data / "scraper" / f"extra-{round_trip}.json").write_bytes(os.urandom(4096 * round_trip))
    backed_up = dict(archive.collect(data, {}))
    path = tmp_path / f"r{round_trip}.tar.gz"
    archive.write(path, list(backed_up.items()))
    (data / "db.json").write_text("changed after the backup")
    done = restore(path, data)
    restored = {rel: (data / rel).read_bytes() for rel in backed_up}
    assert restored == backed_up
    assert sorted(tree(data)) == sorted(backed_up)
    aside = tmp_path / os.path.basename(done["moved_aside"])
    assert (aside / "db.json").read_text() == "changed after the backup"


@pytest.mark.process
def test_the_verify_command_passes_a_good_archive_and_names_the_problem_of_a_bad_one(tmp_path, good):
    """docs/backup.md: `manage.py backup --verify ARCHIVE`."""
    import subprocess
    import sys

    from bench.server import ROOT

    env = {**os.environ, "DATA": str(tmp_path / "data")}
    done = subprocess.run([sys.executable, "manage.py", "backup", "--verify", str(good)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "verified, 4 files" in done.stdout, done.stderr
    bad = tmp_path / "bad.tar.gz"
    bad.write_bytes(good.read_bytes()[:-40])
    done = subprocess.run([sys.executable, "manage.py", "backup", "--verify", str(bad)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "NOT verified" in done.stderr and "truncated" in done.stderr


def test_a_restore_ignores_secrets_an_archive_made_elsewhere_carries_and_names_them(tmp_path):
    """A backup never holds the secret key or the local-admin token; an archive that does (made by
    hand, or by another tool) must not plant them in this server's DATA."""
    data = make_data(tmp_path / "data")
    planted = dict(archive.collect(data, {}))
    planted["secret_key"] = b"planted-secret-key-" + b"x" * 40
    planted["local-admin.token"] = b"planted-token-" + b"y" * 40
    path = tmp_path / "planted.tar.gz"
    archive.write(path, sorted(planted.items()))
    done = restore(path, data)
    assert sorted(done["ignored"]) == ["local-admin.token", "secret_key"]
    assert not (data / "secret_key").exists() and not (data / "local-admin.token").exists()
    assert (data / "db.json").read_bytes() == planted["db.json"]


def test_a_restore_removes_what_a_killed_restore_left_beside_data_and_says_so(tmp_path, good):
    data = tmp_path / "data"  # made by `good`
    left = tmp_path / ".data.restoring-20261201-030000"
    (left / "scraper").mkdir(parents=True)
    (left / "db.json").write_text("a half-extracted copy")
    done = restore(good, data)
    assert done["cleaned"] == [str(left)] and not left.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".data.")) == []


def test_the_reader_removes_what_a_killed_restore_left_when_it_starts(tmp_path, settings, data_dir, library_dir,
                                                                      caplog):
    from tests.support.app import AppServer

    left = data_dir.with_name(f".{data_dir.name}.restoring-20261201-030000")
    left.mkdir()
    (left / "db.json").write_text("a half-extracted copy")
    srv = AppServer(data_dir, library_dir).start()
    try:
        assert not left.exists()
        assert any("left beside DATA by a restore" in r.getMessage() for r in caplog.records)
    finally:
        srv.stop()
