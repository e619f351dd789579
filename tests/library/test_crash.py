"""kill -9 of the serving process during scans: the snapshot left behind restores, or a full scan
rebuilds it; either way the library comes back complete."""
import os
import threading
import time

import pytest

from bench.server import Server
from tests.library.conftest import make_page

pytestmark = pytest.mark.process

CHAPTERS, PAGES = 60, 40


def big_library(root):
    """CHAPTERS × PAGES hard links of one page: slow enough to kill a scan in the middle."""
    page = make_page(root / "source.png", size=(80, 120))
    for m in range(3):
        for c in range(CHAPTERS // 3):
            folder = root / f"Manga {m}" / f"c{c:04d}"
            folder.mkdir(parents=True)
            for p in range(PAGES):
                os.link(page, folder / f"{p:03d}.png")
    page.unlink()
    return root


def first_report(client, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, _, overview = client.get("/api/admin")
        if status == 200 and overview["scans"]:
            return overview["scans"][-1]
        time.sleep(0.05)
    raise AssertionError("no scan report after restart")


def rescan_until_killed(client):
    try:
        client.post("/api/admin/rescan", {"full": True})
    except OSError:
        pass  # the server died under it: the point of the test


def test_it_restores_or_rebuilds_after_kill9_during_scans(tmp_path):
    library, data = big_library(tmp_path / "library"), tmp_path / "data"
    server = Server(data, library).start()
    admin = server.client().signup("admin")
    assert admin.post("/api/admin/rescan", {"full": True})[1] is not None
    kinds = set()
    for delay in (0.0, 0.03, 0.08, 0.15, 0.3):
        # a full scan re-stats every page and rewrites snapshot and cache: kill the process in it
        threading.Thread(target=rescan_until_killed, args=(admin,), daemon=True).start()
        time.sleep(delay)
        server.kill9()
        server.start()
        admin = server.client().login("admin")
        report = first_report(admin)
        kinds.add(report["kind"])
        assert report["kind"] in ("restore", "full") and report["error"] is None
        assert report["counts"] == {"manga": 3, "books": 3, "chapters": CHAPTERS, "versions": CHAPTERS,
                                    "pages": CHAPTERS * PAGES}
        assert admin.get("/lib/Manga%200/c0000/000.png")[0] == 200
    (data / "library-index.json").write_bytes(b'{"version": 1, "libr')  # a torn write would look like this
    server.kill9()
    server.start()
    report = first_report(server.client().login("admin"))
    assert report["kind"] == "full" and report["counts"]["pages"] == CHAPTERS * PAGES
    server.stop()
    assert "restore" in kinds
