"""library/thumbs.py and GET /thumb/<manga>: small WebP covers, remade when the cover changes."""
import io
import os
import time
from urllib.parse import quote

import pytest
from PIL import Image

from library import thumbs
from tests.library.conftest import make_page, scan
from tests.library.images import bomb_png


@pytest.fixture
def configured(settings, library_dir, data_dir):
    settings.LIBRARY = library_dir
    settings.DATA = data_dir
    thumbs._failed.clear()
    return settings


def decoded(path):
    with Image.open(path) as im:
        return im.format, im.size


def test_it_makes_a_small_webp_of_the_cover(configured, library_dir):
    make_page(library_dir / "Moon Garden" / "cover.jpg", size=(1200, 1800))
    idx, _ = scan(library_dir)
    path = thumbs.make(idx.get("Moon Garden"))
    assert path.parent == configured.DATA / "thumbs"
    assert decoded(path) == ("WEBP", (360, 540))
    assert thumbs.make(idx.get("Moon Garden")) == path  # made once


def test_it_remakes_a_changed_cover_and_cleans_the_old_one(configured, library_dir):
    cover = make_page(library_dir / "Moon Garden" / "cover.png", size=(100, 150))
    idx, _ = scan(library_dir)
    first = thumbs.make(idx.get("Moon Garden"))
    make_page(cover, size=(150, 100))
    os.utime(cover, ns=(time.time_ns() + 10**9, time.time_ns() + 10**9))
    second = thumbs.make(idx.get("Moon Garden"))
    assert second != first and decoded(second)[1] == (150, 100)
    assert thumbs.clean(idx) == 1 and not first.exists() and second.exists()


def test_it_applies_exif_orientation_and_rotation_tags(configured, library_dir):
    exif = Image.Exif()
    exif[0x0112] = 6
    folder = library_dir / "Turned" / "c0001"
    folder.mkdir(parents=True)
    Image.new("RGB", (200, 100)).save(folder / "001.jpg", exif=exif)
    make_page(library_dir / "Tagged" / "c0001" / "001 [r90].png", size=(200, 100))
    idx, _ = scan(library_dir)
    assert decoded(thumbs.make(idx.get("Turned")))[1] == (100, 200)
    assert decoded(thumbs.make(idx.get("Tagged")))[1] == (100, 200)


@pytest.mark.parametrize("content", [
    bomb_png(),  # declares 100,000 × 100,000
    b"II*\x00" + b"\x00" * 200,  # TIFF: not on the allowlist
    b"\xff\xd8\xff\xe0 truncated",
])
def test_it_refuses_covers_it_must_not_decode(configured, library_dir, content):
    (library_dir / "Moon Garden" / "cover.png").write_bytes(content)
    idx, _ = scan(library_dir)
    assert thumbs.make(idx.get("Moon Garden")) is None
    assert not list((configured.DATA / "thumbs").glob("*.webp"))


def test_it_serves_thumbnails_with_the_lib_rules(reader_user, guest, server, data_dir):
    url = "/thumb/" + quote("Moon Garden")
    status, headers, body = reader_user.get(url)
    assert status == 200 and headers["Content-Type"] == "image/webp"
    assert Image.open(io.BytesIO(body)).size == (60, 90)
    assert headers["Cache-Control"] == "private, max-age=86400"
    assert headers["Content-Security-Policy"] == "sandbox; default-src 'none'"
    assert reader_user.get(url, headers={"If-None-Match": headers["ETag"]})[0] == 304
    assert guest.get(url)[0] == 401 and guest.get("/thumb/")[0] == 401
    assert reader_user.get("/thumb/" + quote("No Such Manga"))[0] == 404
    assert reader_user.get("/thumb/" + quote("../Moon Garden"))[0] == 404
    deadline = time.monotonic() + 10
    while len(list((data_dir / "thumbs").glob("*.webp"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)  # the background worker makes the other one after the start-up scan
    assert len(list((data_dir / "thumbs").glob("*.webp"))) == 2
