"""Backups carry collections, read lists, want to read and ratings (db.json, docs/backup.md): what a restore
brings back is what was there, with the collection ids the apps know."""
from ops.backups.restore import restore
from tests.conftest import PASSWORD
from tests.support.app import AppServer
from tests.support.pages import wait_for_library

from .test_ops_api import wait_backup


def test_a_restore_brings_back_collections_ratings_and_want_to_read(tmp_path, data_dir, library_dir):
    backup_dir = tmp_path / "backup"
    server = AppServer(data_dir, library_dir, env={"BACKUP": str(backup_dir)}).start()
    try:
        admin = server.client().signup("admin", PASSWORD)
        wait_for_library(admin, 2)
        made = admin.post("/api/collections", {"name": "Kept", "members": ["Long Scroll", "Moon Garden"]})[2]
        admin.post("/api/rating", {"m": "Moon Garden", "stars": 4})
        admin.post("/api/want", {"m": "Long Scroll", "on": True})
        listed = admin.post("/api/readlists", {"name": "Event", "items": [{"m": "Long Scroll"}, {"m": "Moon Garden",
                                                                                                 "c": "1/2"}]})[2]
        assert admin.post("/api/admin/backup", {"command": "run"})[2] == {"started": True}
        archive_name = wait_backup(admin, 1)["history"][0]["archive"]
    finally:
        server.stop()
    restored = tmp_path / "restored"
    restored.mkdir()
    restore(backup_dir / archive_name, restored)
    again = AppServer(restored, library_dir).start()
    try:
        admin = again.client().login("admin", PASSWORD)
        wait_for_library(admin, 2)
        kept = admin.get(f"/api/collections/{made['id']}")[2]
        assert (kept["name"], [m["name"] for m in kept["members"]]) == ("Kept", ["Long Scroll", "Moon Garden"])
        assert admin.get("/api/manga?m=Moon%20Garden")[2]["rating"] == {"mine": 4, "count": 1, "mean": 4}
        assert [m["name"] for m in admin.get("/api/want")[2]["manga"]] == ["Long Scroll"]
        event = admin.get(f"/api/readlists/{listed['id']}")[2]  # the same id, which the apps know
        assert [(i["m"], i["c"]) for i in event["items"]] == [("Long Scroll", "0/1"), ("Moon Garden", "1/2")]
    finally:
        again.stop()
