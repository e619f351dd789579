"""Collections in the apps' API (docs/apps.md, "Collections"): a restricted user's apps never learn
of a hidden member, not by its id, its count, `filtered` or the cover."""
from clients.komga.ids import series_id
from tests.conftest import PASSWORD
from tests.support.pages import wait_for_library

from .apps import basic


def test_a_restricted_user_sees_a_collection_without_the_manga_hidden_from_them(server, admin):
    wait_for_library(admin, 2)
    assert admin.post("/api/admin/user", {"name": "kid", "password": PASSWORD})[0] == 200
    assert admin.post("/api/admin/user/access", {"name": "kid", "only": ["Long Scroll"]})[0] == 200
    made = admin.post("/api/collections", {"name": "Both", "members": ["Moon Garden", "Long Scroll"]})[2]
    only_moon = admin.post("/api/collections", {"name": "Moon only", "members": ["Moon Garden"]})[2]
    kid = server.client()
    auth = {"Authorization": basic("kid")}
    status, _, one = kid.get(f"/komga/api/v1/collections/{made['id']}", headers=auth)
    assert status == 200 and one["seriesIds"] == [series_id("Long Scroll")] and one["filtered"] is False
    series = kid.get(f"/komga/api/v1/collections/{made['id']}/series", headers=auth)[2]
    assert [s["name"] for s in series["content"]] == ["Long Scroll"] and series["totalElements"] == 1
    listed = kid.get("/komga/api/v1/collections?unpaged=true", headers=auth)[2]["content"]
    assert {c["name"]: len(c["seriesIds"]) for c in listed} == {"Both": 1, "Moon only": 0}
    assert kid.get(f"/komga/api/v1/collections/{only_moon['id']}/thumbnail", headers=auth)[0] == 404
    assert kid.get(f"/komga/api/v1/series/{series_id('Moon Garden')}/collections", headers=auth)[0] == 404
    # a kid cannot put a hidden manga into a collection of their own either
    status, _, _ = kid.request("POST", "/komga/api/v1/collections", headers=auth,
                               body={"name": "Mine", "ordered": True, "seriesIds": [series_id("Moon Garden")]})
    assert status == 404
