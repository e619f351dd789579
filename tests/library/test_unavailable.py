"""A LIBRARY that cannot be read (an unmounted disk): the index is kept and marked, admins get a banner
and an incident, users are told the library is unavailable rather than empty; and the files a scan
could not read, listed for admins on the manga's page and counted in Health."""
from mangacircus import incidents
from tests.conftest import PASSWORD
from tests.support.app import AppServer

BANNER = 'id="library-banner"'
NOTICE = 'id="library-unavailable"'


def html(client, path):
    status, _, body = client.get(path)
    assert status == 200, (path, status)
    return body.decode()


def test_an_unmounted_library_keeps_the_index_and_says_so(admin, reader_user, library_dir, tmp_path, data_dir):
    library_dir.rename(tmp_path / "unmounted")
    status, _, report = admin.post("/api/admin/rescan", {"full": True})
    assert status == 200 and report["unavailable"] and report["counts"]["manga"] == 2

    page = html(admin, "/")
    assert BANNER in page and f"The library at {library_dir} cannot be read (No such file or directory)" in page
    assert "Moon Garden" in page  # the last index, still browsable
    assert BANNER in html(admin, "/history/")  # on every page an admin opens
    users_page = html(reader_user, "/")
    assert NOTICE in users_page and BANNER not in users_page and str(library_dir) not in users_page
    assert reader_user.get("/api/library")[2]["unavailable"] is True

    health = admin.get("/api/admin/health")[2]
    assert health["library"]["unavailable"].startswith(f"the library at {library_dir} cannot be read")
    assert [i["kind"] for i in incidents.read(data_dir)] == ["library-unavailable"]

    (tmp_path / "unmounted").rename(library_dir)
    admin.post("/api/admin/rescan", {})
    assert BANNER not in html(admin, "/") and NOTICE not in html(reader_user, "/")
    assert reader_user.get("/api/library")[2]["unavailable"] is False
    assert admin.get("/api/admin/health")[2]["library"]["unavailable"] is None


def test_a_library_missing_at_the_first_start_is_unavailable_not_empty(data_dir, tmp_path):
    server = AppServer(data_dir, tmp_path / "not-mounted").start()
    try:
        admin = server.client().signup("admin", PASSWORD)
        page = html(admin, "/")
        assert BANNER in page and "The library is unavailable." in page
        assert "The library is empty" not in page and "Put manga folders" not in page
        assert incidents.read(data_dir)[0]["kind"] == "library-unavailable"
    finally:
        server.stop()


def test_an_empty_library_is_still_called_empty(data_dir, tmp_path):
    (tmp_path / "empty").mkdir()
    server = AppServer(data_dir, tmp_path / "empty").start()
    try:
        page = html(server.client().signup("admin", PASSWORD), "/")
        assert "The library is empty. Put manga folders" in page and BANNER not in page and NOTICE not in page
    finally:
        server.stop()


def broken_files(library_dir):
    chapter = library_dir / "Moon Garden" / "b01 Spring" / "c0001 Seeds"
    (chapter / "003.png").write_bytes(b"not an image at all")
    (library_dir / "Moon Garden" / "Extras.mobi").write_bytes(b"BOOKMOBI")
    (library_dir / "Moon Garden" / "c0009 Broken.cbz").write_bytes(b"PK\x03\x04 truncated")


def test_admins_see_the_files_a_scan_could_not_read_on_the_manga_page(admin, reader_user, library_dir):
    broken_files(library_dir)
    admin.post("/api/admin/rescan", {"full": True})
    page = html(admin, "/manga/Moon%20Garden/")
    assert "Files that could not be read" in page
    for kind, path in (("unreadable-image", "Moon Garden/b01 Spring/c0001 Seeds/003.png"),
                       ("skipped-file", "Moon Garden/Extras.mobi"),
                       ("unreadable-archive", "Moon Garden/c0009 Broken.cbz")):
        assert f"<strong>{kind}</strong> {path}:" in page
    assert "Files that could not be read" not in html(reader_user, "/manga/Moon%20Garden/")
    assert "Files that could not be read" not in html(admin, "/manga/Long%20Scroll/")


def test_health_counts_the_files_that_could_not_be_read(admin, library_dir):
    assert admin.get("/api/admin/health")[2]["library"]["unreadFiles"] == {"count": 0, "kinds": {}}
    broken_files(library_dir)
    admin.post("/api/admin/rescan", {"full": True})
    unread = admin.get("/api/admin/health")[2]["library"]["unreadFiles"]
    assert unread == {"count": 3, "kinds": {"unreadable-image": 1, "skipped-file": 1, "unreadable-archive": 1}}
    page = html(admin, "/settings/admin/health/")
    assert "Files not read" in page and "unreadable-image: 1" in page
