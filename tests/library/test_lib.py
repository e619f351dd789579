"""GET /lib/<path> over HTTP: auth, headers, conditional requests, hand-off, refusals."""
import os
from urllib.parse import quote

import pytest
from PIL import Image

from tests.support.app import AppServer

PAGE = "Moon Garden/b01 Spring/c0001 Seeds/001.png"


def url(rel):
    return "/lib/" + quote(rel)


def test_it_serves_a_page_with_cache_and_safety_headers(reader_user, library_dir):
    status, headers, body = reader_user.get(url(PAGE))
    assert status == 200
    assert body == (library_dir / PAGE).read_bytes()
    assert headers["Content-Type"] == "image/png"
    assert headers["Cache-Control"] == "private, max-age=86400"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Content-Security-Policy"] == "sandbox; default-src 'none'"
    assert headers["Content-Length"] == str(len(body))
    etag = headers["ETag"]
    status, headers, body = reader_user.get(url(PAGE), headers={"If-None-Match": etag})
    assert status == 304 and not body and headers["ETag"] == etag
    assert reader_user.get(url(PAGE), headers={"If-None-Match": '"other"'})[0] == 200
    assert reader_user.request("HEAD", url(PAGE))[0] == 200


def test_it_wants_a_session(guest):
    for path in ("/lib/" + quote(PAGE), "/lib", "/lib/", "/lib/nothing.jpg", "/lib/../etc/passwd"):
        status, _, body = guest.get(path)
        assert (status, body) == (401, {"error": "sign in first"}), path


def test_it_refuses_other_methods(reader_user, library_dir):
    for method in ("POST", "PUT", "DELETE"):
        status, headers, body = reader_user.request(method, url(PAGE))
        assert status in (403, 405) and body != (library_dir / PAGE).read_bytes(), method  # CSRF, or the view


def test_it_takes_the_content_type_from_the_bytes_and_refuses_what_is_no_image(reader_user, library_dir, data_dir):
    chapter = library_dir / "Moon Garden" / "b01 Spring" / "c0001 Seeds"
    Image.new("RGB", (5, 5)).save(chapter / "png-named.jpg", "PNG")
    (chapter / "page.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>")
    (chapter / "html.png").write_text("<!doctype html><script>alert(1)</script>")
    (chapter / "empty.jpg").write_bytes(b"")
    os.symlink(data_dir / "db.json", chapter / "db.jpg")
    os.symlink(library_dir / "Moon Garden" / "manga.json", chapter / "meta.jpg")
    os.symlink(chapter / "001.png", chapter / "alias.png")
    (chapter / "folder.jpg").mkdir()
    (library_dir / "Moon Garden" / ".staging" / "c9").mkdir(parents=True)
    Image.new("RGB", (5, 5)).save(library_dir / "Moon Garden" / ".staging" / "c9" / "1.png")
    base = "Moon Garden/b01 Spring/c0001 Seeds/"
    status, headers, _ = reader_user.get(url(base + "png-named.jpg"))
    assert (status, headers["Content-Type"]) == (200, "image/png")
    assert reader_user.get(url(base + "alias.png"))[0] == 200
    for name in ("page.svg", "html.png", "empty.jpg", "db.jpg", "meta.jpg", "folder.jpg", "missing.png"):
        status, _, body = reader_user.get(url(base + name))
        assert (status, body) == (404, {"error": "not found"}), name
    assert reader_user.get(url("Moon Garden/.staging/c9/1.png"))[0] == 404


def test_it_serves_names_beyond_ascii(reader_user, library_dir):
    folder = library_dir / "月の庭 ‮ <b>x</b>" / "c0001"
    folder.mkdir(parents=True)
    Image.new("RGB", (5, 5)).save(folder / "ページ 1.png")
    status, headers, _ = reader_user.get(url("月の庭 ‮ <b>x</b>/c0001/ページ 1.png"))
    assert (status, headers["Content-Type"]) == (200, "image/png")


@pytest.mark.parametrize("mode, header, expected", [
    ("x-accel-redirect", "X-Accel-Redirect", "/protected-library/" + quote(PAGE)),
    ("x-sendfile", "X-Sendfile", None),
])
def test_it_hands_files_to_the_proxy_after_the_auth_check(data_dir, library_dir, mode, header, expected):
    server = AppServer(data_dir, library_dir, env={"SENDFILE_HEADER": mode}).start()
    try:
        guest = server.client()
        status, headers, _ = guest.get(url(PAGE))
        assert status == 401 and header not in headers
        user = server.client().signup("admin")
        status, headers, body = user.get(url(PAGE))
        assert status == 200 and body in (b"", None)
        assert headers[header] == (expected or str(library_dir.resolve() / PAGE))
        assert headers["Content-Type"] == "image/png" and headers["ETag"]
        assert user.get(url("Moon Garden/manga.json"))[0] == 404
    finally:
        server.stop()
