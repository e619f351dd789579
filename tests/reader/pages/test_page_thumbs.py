"""GET /lib-thumb/<page>: small WebP thumbnails of pages for the reader's page overview, made on the
first request, cached in DATA/page-thumbs/, refused like /lib/ (session, restrictions, path)."""
import io
import os
import time

from PIL import Image

from library import page_thumbs
from tests.conftest import make_page

PAGE = "/lib-thumb/Moon%20Garden/b01%20Spring/c0001%20Seeds/001.png"


def _files(data):
    return sorted(p for p in (data / "page-thumbs").rglob("*.webp")) if (data / "page-thumbs").exists() else []


def test_it_makes_a_thumbnail_on_the_first_request_and_reuses_it(scanned, reader_user, library_dir):
    make_page(library_dir / "Moon Garden" / "b01 Spring" / "c0001 Seeds" / "001.png", size=(900, 1350))
    assert _files(scanned.data) == []  # nothing is made ahead of a request
    status, headers, body = reader_user.get(PAGE)
    assert status == 200 and headers["Content-Type"] == "image/webp"
    with Image.open(io.BytesIO(body)) as im:
        assert im.format == "WEBP" and im.size == (180, 270)
    made = _files(scanned.data)
    assert len(made) == 1
    status, _, _ = reader_user.request("GET", PAGE, headers={"If-None-Match": headers["ETag"]})
    assert status == 304 and _files(scanned.data) == made


def test_it_makes_a_new_one_when_the_page_changes(scanned, reader_user, library_dir):
    page = library_dir / "Moon Garden" / "b01 Spring" / "c0001 Seeds" / "001.png"
    first = reader_user.get(PAGE)[1]["ETag"]
    make_page(page, size=(90, 60))
    later = time.time_ns() + 10**9
    os.utime(page, ns=(later, later))
    status, headers, body = reader_user.get(PAGE)
    assert status == 200 and headers["ETag"] != first
    with Image.open(io.BytesIO(body)) as im:
        assert im.size == (90, 60)  # small pages are never enlarged


def test_it_refuses_what_is_no_page_and_what_the_user_may_not_see(scanned, admin, reader_user, library_dir):
    (library_dir / "Moon Garden" / "b01 Spring" / "c0001 Seeds" / "009.png").write_bytes(b"not an image")
    assert reader_user.get("/lib-thumb/Moon%20Garden/b01%20Spring/c0001%20Seeds/009.png")[0] == 404
    assert reader_user.get("/lib-thumb/Moon%20Garden/b01%20Spring")[0] == 404
    assert reader_user.get("/lib-thumb/Moon%20Garden/..%2F..%2Fsecret.png")[0] == 404
    assert scanned.client().get(PAGE)[0] == 401
    assert admin.post("/api/admin/user/access", {"name": "reader", "only": ["Long Scroll"]})[0] == 200
    assert reader_user.get(PAGE)[0] == 404
    assert _files(scanned.data) == []  # refused before any file was made
    assert admin.get(PAGE)[0] == 200


def test_it_prunes_the_oldest_beyond_the_limit(settings, tmp_path):
    settings.DATA = tmp_path
    folder = tmp_path / "page-thumbs" / "ab"
    folder.mkdir(parents=True)
    for n in range(5):
        path = folder / f"{n}.webp"
        path.write_bytes(b"x")
        os.utime(path, ns=(n * 10**9, n * 10**9))
    assert page_thumbs.prune(limit=3) == 2
    assert sorted(p.name for p in folder.iterdir()) == ["2.webp", "3.webp", "4.webp"]
    assert page_thumbs.prune(limit=3) == 0


def test_the_chapter_payload_pages_map_to_thumbnails(scanned, reader_user):
    data = reader_user.get("/api/chapter?m=Moon%20Garden&c=1/1")[2]
    for page in data["pages"]:
        assert reader_user.get("/" + page["u"].replace("lib/", "lib-thumb/", 1))[0] == 200
