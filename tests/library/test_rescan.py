"""POST /api/admin/rescan {full} through a real server, and the report in GET /api/admin."""
from tests.library.conftest import publish


def test_it_scans_now_and_answers_with_the_report(admin, library_dir):
    status, _, report = admin.post("/api/admin/rescan", {"full": True})
    assert status == 200 and report["kind"] == "full" and report["error"] is None
    assert report["counts"]["manga"] == 2
    publish(library_dir / "Moon Garden" / "b01 Spring" / "c0003 Leaves")
    status, _, report = admin.post("/api/admin/rescan", {})
    assert status == 200 and report["kind"] == "shallow"
    assert report["changed"] == {"added": [], "changed": ["Moon Garden"], "removed": []}
    status, _, overview = admin.get("/api/admin")
    assert status == 200 and overview["scans"][0]["start"] == report["start"]
    assert not overview["scanning"]


def test_it_is_for_admins_only(reader_user, guest):
    assert reader_user.post("/api/admin/rescan", {})[0] == 403
    assert guest.post("/api/admin/rescan", {})[0] == 401


def test_it_names_a_bad_field(admin):
    status, _, body = admin.post("/api/admin/rescan", {"full": "yes"})
    assert (status, body) == (400, {"error": "full must be true or false"})


def test_it_reports_an_unmounted_library_and_keeps_serving_the_last_index(admin, library_dir, tmp_path):
    admin.post("/api/admin/rescan", {"full": True})
    library_dir.rename(tmp_path / "elsewhere")
    status, _, report = admin.post("/api/admin/rescan", {"full": True})
    assert status == 200 and "cannot be read" in report["error"] and report["counts"]["manga"] == 2
