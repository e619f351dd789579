"""manage.py import komga: the dry run, then --apply, then --apply again, alone under the data lock
and through the running reader; a refused file exits non-zero with its message."""
import json
import os
import re
import subprocess
import sys

import pytest

from bench.server import ROOT
from tests.support.pages import wait_for_library

pytestmark = pytest.mark.process


def manage(data_dir, library_dir, *args, env=None):
    env = {**os.environ, "DATA": str(data_dir), "LIBRARY": str(library_dir), "SCRYPT_LOG_N": "10", **(env or {})}
    env.pop("BACKUP", None)
    return subprocess.run([sys.executable, "manage.py", "import", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_dry_run_then_import_then_again_without_a_reader(data_dir, library_dir, komga_db):
    dry = manage(data_dir, library_dir, "komga", "--db", str(komga_db))
    assert dry.returncode == 0, dry.stderr
    assert "dry run, nothing was changed" in dry.stdout
    assert "  0 matched, 8 created, 0 already so here, 5 not found, 0 not imported." in dry.stdout
    assert ("  bob@example.org: Star Sea/Star Sea 01.cbz: no file Star Sea/Star Sea 01.cbz here, and no manga "
            "named Star Sea") in dry.stdout
    assert "  collection Favourites → shared collection Favourites: 2 manga; the admins edit it here" in dry.stdout
    assert "  read list Summer reading → shared read list Summer reading: 2 chapter(s)" in dry.stdout
    assert "Run again with --apply to make these 8 change(s), after a backup." in dry.stdout
    assert not (data_dir / "db.json").exists() or "alice" not in (data_dir / "db.json").read_text()

    done = manage(data_dir, library_dir, "komga", "--db", str(komga_db), "--apply")
    assert done.returncode == 0, done.stderr
    assert ("Imported: 2 new account(s), 3 position(s), 1 metadata override(s), 1 collection(s), 1 read list(s), "
            "0 rating(s), 0 want-to-read.") in done.stdout
    backup = re.search(r"Backed up first to (\S+)\.\n", done.stdout).group(1)
    assert backup.startswith(str(data_dir / "imports" / "db-before-import-"))
    assert re.search(r"account alice \(from alice@example.org\): one-time password \S{16} ", done.stdout)
    data = json.loads((data_dir / "db.json").read_text())
    assert sorted(data["users"]) == ["alice", "bob"] and data["progress"]["alice"]["Moon Garden"]["1/1"]["done"]
    assert list((data_dir / "imports").glob("catalog-before-import-*.json"))
    catalog = json.loads((data_dir / "catalog.json").read_text())
    assert catalog["overrides"]["Moon Garden"]["title"] == "Moon Garden (Deluxe)"
    assert catalog["history"][-1]["by"] == "import"

    again = manage(data_dir, library_dir, "komga", "--db", str(komga_db), "--apply")
    assert again.returncode == 0, again.stderr
    assert "  2 matched, 0 created, 6 already so here, 5 not found, 0 not imported." in again.stdout
    assert "Nothing was changed: everything is already here." in again.stdout
    assert json.loads((data_dir / "db.json").read_text()) == data


def test_it_hands_the_import_to_the_running_reader(real_server, admin, library_dir, komga_db):
    wait_for_library(admin, 2)
    done = manage(real_server.data, library_dir, "komga", "--db", str(komga_db), "--apply",
                  "--user", "alice@example.org=admin")
    assert done.returncode == 0, done.stderr
    assert "  user alice@example.org → account admin: an account of that name exists" in done.stdout
    assert "Imported: 1 new account(s), 3 position(s), 1 metadata override(s), 1 collection(s)," in done.stdout
    assert admin.get("/api/chapter?m=Moon%20Garden&c=0/2")[2]["progress"]["p"] == 1


def test_a_refused_file_exits_non_zero_with_its_message(data_dir, library_dir, tmp_path):
    junk = tmp_path / "database.sqlite"
    junk.write_bytes(b"PK\x03\x04 not a database")
    done = manage(data_dir, library_dir, "komga", "--db", str(junk), "--apply")
    assert done.returncode != 0
    assert f"{junk} is not an SQLite database (it does not start as one)" in done.stderr
    assert not (data_dir / "db.json").exists()
    bad = manage(data_dir, library_dir, "komga", "--db", str(junk), "--user", "alice")
    assert bad.returncode != 0 and "--user alice: write it as THERE=HERE" in bad.stderr


def test_a_mihon_backup_into_one_account_dry_run_then_import_then_again(data_dir, library_dir, tmp_path):
    from . import mihon_backup as mb

    backup = tmp_path / "mihon.proto.gz"
    backup.write_bytes(mb.backup([mb.manga("/manga/0b6f5c52-3e57-4b1b-9b40-4f2c1c7b1c6e", "Moon Garden", [
        mb.chapter("/chapter/0d3e1b1a-6a7e-4c54-9a0e-2b8d4b1e5a11", "Roots", read=True, number=2.0)])],
        [mb.category("Reading", 0)]))
    dry = manage(data_dir, library_dir, "mihon", "--backup", str(backup), "--into", "mia")
    assert dry.returncode == 0, dry.stderr
    assert ("  the backup (mia): Moon Garden: Roots → mia: Moon Garden · Ch. 2: by title and number; finished"
            in dry.stdout)
    assert "  collection Reading → mia's collection Reading: 0 manga" in dry.stdout
    done = manage(data_dir, library_dir, "mihon", "--backup", str(backup), "--into", "mia", "--apply")
    assert done.returncode == 0, done.stderr
    assert "Imported: 1 new account(s), 1 position(s), 0 metadata override(s), 1 collection(s)," in done.stdout
    assert json.loads((data_dir / "db.json").read_text())["progress"]["mia"]["Moon Garden"]["0/2"]["done"] is True
    again = manage(data_dir, library_dir, "mihon", "--backup", str(backup), "--into", "mia", "--apply")
    assert "Nothing was changed: everything is already here." in again.stdout
    refused = manage(data_dir, library_dir, "mihon", "--backup", str(data_dir / "db.json"), "--into", "mia")
    assert refused.returncode != 0 and "is not a Mihon backup" in refused.stderr


def test_a_running_komga_through_its_api_with_the_password_from_the_environment(data_dir, library_dir):
    from .komga_rest import PASSWORD, USER, KomgaRest

    komga = KomgaRest()
    try:
        args = ("komga", "--url", komga.url, "--login", USER)
        asked = manage(data_dir, library_dir, *args)  # no terminal to ask on, no KOMGA_PASSWORD
        assert asked.returncode != 0 and "give the Komga password in KOMGA_PASSWORD" in asked.stderr
        done = manage(data_dir, library_dir, *args, "--apply", env={"KOMGA_PASSWORD": PASSWORD})
        assert done.returncode == 0, done.stderr
        assert f"Import from komga ({komga.url}):" in done.stdout and PASSWORD not in done.stdout + done.stderr
        assert json.loads((data_dir / "db.json").read_text())["progress"]["alice"]["Moon Garden"]["1/1"]["done"]
        missing = manage(data_dir, library_dir, "komga", "--url", komga.url)
        assert missing.returncode != 0 and "--url needs --login" in missing.stderr
    finally:
        komga.stop()
