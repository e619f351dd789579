"""A hostile library (reliability L1, L2, L4, L5): broken images, bombs, bad JSON, hostile names,
links out of the tree and loops. The scan completes, reports each problem and keeps the rest."""
import json
import os
from urllib.parse import quote

import pytest

from tests.library.conftest import make_page, scan
from tests.library.images import bomb_png, jpeg_bytes, png_bytes
from tests.support.app import AppServer

BAD_NAME = os.fsdecode(b"c0009 bad \xff\xfe name")
HOSTILE = ["<img src=x onerror=alert(1)>", '"><svg onload=alert(1)>', "Line\nBreak", "Evil ‮gnp.exe", "x" * 200]


@pytest.fixture
def hostile_library(tmp_path):
    root = tmp_path / "library"
    chapter = root / "Broken" / "c0001"
    chapter.mkdir(parents=True)
    good_png, good_jpg = png_bytes(), jpeg_bytes()
    (chapter / "000 good.png").write_bytes(good_png)
    for i, cut in enumerate(range(8, len(good_png), max(1, len(good_png) // 10))):
        (chapter / f"{100 + i} png-cut-{cut}.png").write_bytes(good_png[:cut])
    for i, cut in enumerate(range(4, 200, 20)):
        (chapter / f"{200 + i} jpg-cut-{cut}.jpg").write_bytes(good_jpg[:cut])
    (chapter / "300 zero.jpg").write_bytes(b"")
    (chapter / "301 random.jpg").write_bytes(os.urandom(4096))
    (chapter / "302 bomb.png").write_bytes(bomb_png())
    (chapter / "303 bad-crc.png").write_bytes(good_png[:29] + b"\x00\x00\x00\x00" + good_png[33:])
    (chapter / "304 big-icc.jpg").write_bytes(jpeg_bytes(icc_profile=b"\x01" * 1_000_000))
    (chapter / "chapter.json").write_text("{not json")
    (root / "Broken" / "manga.json").write_bytes(b"\xff\xfe garbage")
    for i, name in enumerate(HOSTILE):
        make_page(root / name / f"c000{i} {name}" / "001.png")
    os.mkdir(os.path.join(os.fsencode(root / "Broken"), os.fsencode(BAD_NAME)))
    make_page(root / "Broken" / "c0002" / "001.png")
    os.symlink(tmp_path / "data", root / "Data Link")
    os.symlink("/etc", root / "Broken" / "c0003 etc")
    os.symlink("loop2", root / "Broken" / "loop1")
    os.symlink("loop1", root / "Broken" / "loop2")
    os.symlink("..", root / "Broken" / "c0004 up")  # inside the tree, but a cycle: read once, never recursed
    return root


def test_it_completes_and_reports_every_problem(hostile_library):
    idx, report = scan(hostile_library)
    assert report["error"] is None
    broken = idx.get("Broken")
    pages = {p.file: (p.w, p.h) for p in broken.chapter("0/1").versions[0].pages()}
    assert pages["000 good.png"] == (40, 60) and pages["302 bomb.png"] == (100_000, 100_000)
    assert pages["304 big-icc.jpg"] == (40, 60) and pages["300 zero.jpg"] == (None, None)
    assert pages["301 random.jpg"] == (None, None)
    unreadable = {w["path"].rsplit("/", 1)[1] for w in report["warnings"] if w["kind"] == "unreadable-image"}
    assert unreadable == {f for f, size in pages.items() if size == (None, None)}
    assert len(unreadable) >= 12
    found = {(w["kind"], w["path"]) for w in report["warnings"]}
    assert {("invalid-json", "Broken/manga.json"), ("invalid-json", "Broken/c0001/chapter.json"),
            ("invalid-name", "Broken/c0009 bad \ufffd\ufffd name"), ("symlink-outside", "Data Link"),
            ("symlink-outside", "Broken/c0003 etc"), ("unreadable", "Broken/loop1")} <= found
    assert broken.chapter("0/2").versions[0].page_count == 1
    for name in HOSTILE:
        assert idx.get(name).chapters()[0].versions[0].page_count == 1
    json.dumps(report)  # every name in the report is valid JSON text


def test_it_serves_everything_readable_through_a_real_server(hostile_library, tmp_path):
    data = tmp_path / "data"
    server = AppServer(data, hostile_library).start()
    try:
        admin = server.client().signup("admin")
        status, _, report = admin.post("/api/admin/rescan", {"full": True})
        assert status == 200 and report["counts"]["manga"] == 1 + len(HOSTILE)
        for name in HOSTILE:
            path = f"{name}/c000{HOSTILE.index(name)} {name}/001.png"
            status, headers, _ = admin.get("/lib/" + quote(path))
            assert (status, headers["Content-Type"]) == (200, "image/png"), name
        status, headers, body = admin.get("/lib/" + quote("Broken/c0001/302 bomb.png"))
        assert status == 200 and body == bomb_png()  # served as stored: the browser decides, nothing decodes here
        assert admin.get("/lib/" + quote("Broken/c0001/301 random.jpg"))[0] == 404  # not an image
        assert admin.get("/lib/" + quote("Data Link/db.json"))[0] == 404
        assert admin.get("/lib/" + quote("Broken/c0003 etc/passwd"))[0] == 404
    finally:
        server.stop()
