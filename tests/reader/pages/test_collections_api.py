"""Collections, want to read and ratings through the JSON API (docs/api.md, docs/using.md): who sees
and changes what, hidden members, renames and account deletion."""
from tests.conftest import PASSWORD

MOON, LONG = "Moon Garden", "Long Scroll"


def make(client, **body):
    status, _, data = client.post("/api/collections", body)
    assert status == 200, data
    return data


def listed(client):
    status, _, data = client.get("/api/collections")
    assert status == 200, data
    return {c["name"]: c for c in data["collections"]}


def test_an_admins_collection_is_shared_and_a_users_private_until_shared(scanned, admin, reader_user, other_user):
    ghibli = make(admin, name="Ghibli", summary="Films", members=[LONG, MOON])
    assert (ghibli["shared"], ghibli["count"], [m["name"] for m in ghibli["members"]]) == (True, 2, [LONG, MOON])
    assert ghibli["cover"] == ghibli["members"][0]["cover"] and ghibli["id"].startswith("c") and len(ghibli["id"]) == 21
    mine = make(reader_user, name="Mine", members=[MOON])
    assert mine["shared"] is False
    assert set(listed(reader_user)) == {"Ghibli", "Mine"}
    assert set(listed(other_user)) == {"Ghibli"}
    assert other_user.get(f"/api/collections/{mine['id']}")[0] == 404
    # a user reads a shared collection but does not change it; an admin does
    status, _, data = reader_user.post(f"/api/collections/{ghibli['id']}", {"name": "Mine now"})
    assert status == 403 and "owner" in data["error"]
    assert other_user.post(f"/api/collections/{mine['id']}/add", {"members": [LONG]})[0] == 404
    shared = reader_user.post(f"/api/collections/{mine['id']}", {"shared": True})[2]
    assert shared["shared"] is True and "Mine" in listed(other_user)
    status, _, data = admin.post(f"/api/collections/{mine['id']}", {"shared": False})
    assert status == 403 and "owner" in data["error"]
    assert admin.post(f"/api/collections/{mine['id']}/add", {"members": [LONG]})[2]["count"] == 2


def test_it_reorders_adds_removes_and_deletes(scanned, reader_user):
    c = make(reader_user, name="Order", members=[MOON])
    path = f"/api/collections/{c['id']}"
    assert [m["name"] for m in reader_user.post(path + "/add", {"members": [LONG, MOON]})[2]["members"]] == [MOON, LONG]
    assert [m["name"] for m in reader_user.post(path, {"members": [LONG, MOON]})[2]["members"]] == [LONG, MOON]
    by_title = reader_user.post(path, {"ordered": False})[2]
    assert [m["name"] for m in by_title["members"]] == [LONG, MOON] and by_title["ordered"] is False
    assert reader_user.post(path, {"cover": MOON})[2]["cover"].startswith("thumb/Moon%20Garden/")
    assert reader_user.post(path + "/remove", {"members": [MOON]})[2]["count"] == 1
    assert reader_user.post(path + "/delete", {})[2] == {"deleted": c["id"]}
    assert reader_user.get(path)[0] == 404


def test_bad_input_gets_a_clear_400_or_404(scanned, reader_user):
    assert reader_user.post("/api/collections", {"name": "  "})[2]["error"] == "name must not be empty"
    assert reader_user.post("/api/collections", {"name": "x" * 101})[0] == 400
    assert reader_user.post("/api/collections", {"name": "A", "members": "Moon"})[0] == 400
    status, _, data = reader_user.post("/api/collections", {"name": "A", "members": ["Invented"]})
    assert status == 404 and data["error"] == "no manga named Invented"
    make(reader_user, name="Twice")
    status, _, data = reader_user.post("/api/collections", {"name": "twice"})
    assert (status, data["error"]) == (400, "a collection named Twice exists already")
    c = make(reader_user, name="Fields")
    status, _, data = reader_user.post(f"/api/collections/{c['id']}", {"colour": "red"})
    assert status == 400 and data["error"].startswith("unknown field colour")
    assert reader_user.post(f"/api/collections/{c['id']}", {"cover": LONG})[0] == 400  # not a member
    assert reader_user.get("/api/collections/cnothere")[0] == 404


def test_a_collection_never_reveals_a_hidden_manga_not_even_by_count(scanned, admin, other_user):
    c = make(admin, name="Both", members=[MOON, LONG])
    assert admin.post("/api/admin/user/access", {"name": "other", "only": [LONG], "excludeTags": []})[0] == 200
    seen = other_user.get(f"/api/collections/{c['id']}")[2]
    assert (seen["count"], [m["name"] for m in seen["members"]]) == (1, [LONG])
    assert listed(other_user)["Both"]["count"] == 1
    assert other_user.post("/api/collections", {"name": "Sneak", "members": [MOON]})[0] == 404
    # an admin who cannot be refused keeps the hidden member when another user reorders a shared
    # collection they may edit: here the admin edits; the other user's view stays filtered
    mine = make(other_user, name="Theirs", shared=True, members=[LONG])
    admin.post(f"/api/collections/{mine['id']}/add", {"members": [MOON]})
    assert other_user.post(f"/api/collections/{mine['id']}", {"members": [LONG]})[2]["count"] == 1
    assert [m["name"] for m in admin.get(f"/api/collections/{mine['id']}")[2]["members"]] == [LONG, MOON]


def test_ratings_are_one_to_five_stars_with_a_count_and_mean_and_sort_the_library(scanned, reader_user, other_user):
    assert reader_user.post("/api/rating", {"m": MOON, "stars": 5})[2]["rating"] == {"mine": 5, "count": 1, "mean": 5}
    assert other_user.post("/api/rating", {"m": MOON, "stars": 2})[2]["rating"] == {"mine": 2, "count": 2, "mean": 3.5}
    other_user.post("/api/rating", {"m": LONG, "stars": 4})
    assert reader_user.post("/api/rating", {"m": MOON, "stars": 6})[0] == 400
    assert reader_user.post("/api/rating", {"m": "Invented", "stars": 1})[0] == 404
    everyone = [m["name"] for m in reader_user.get("/api/library?sort=rating")[2]["manga"]]
    assert everyone == [LONG, MOON]  # 4 before 3.5
    assert [m["name"] for m in reader_user.get("/api/library?sort=myrating")[2]["manga"]] == [MOON, LONG]
    assert reader_user.post("/api/rating", {"m": MOON, "stars": 0})[2]["rating"] == {"mine": 0, "count": 1, "mean": 2}


def test_want_to_read_is_a_private_list(scanned, reader_user, other_user):
    assert reader_user.post("/api/want", {"m": MOON, "on": True})[2] == {"m": MOON, "wantToRead": True}
    assert [m["name"] for m in reader_user.get("/api/want")[2]["manga"]] == [MOON]
    assert other_user.get("/api/want")[2]["manga"] == []
    assert reader_user.post("/api/want", {"m": MOON, "on": "yes"})[0] == 400
    reader_user.post("/api/want", {"m": MOON, "on": False})
    assert reader_user.get("/api/want")[2]["manga"] == []


def test_a_deleted_user_takes_their_private_collections_ratings_and_list_and_leaves_shared_ones(
        scanned, admin):
    assert admin.post("/api/admin/user", {"name": "leaver", "password": PASSWORD})[0] == 200
    leaver = scanned.client().login("leaver", PASSWORD)
    make(leaver, name="Private", members=[MOON])
    kept = make(leaver, name="Public", shared=True, members=[MOON])
    leaver.post("/api/rating", {"m": MOON, "stars": 3})
    leaver.post("/api/want", {"m": MOON, "on": True})
    assert admin.post("/api/admin/user/delete", {"name": "leaver"})[0] == 200
    assert set(listed(admin)) == {"Public"}
    assert admin.post(f"/api/collections/{kept['id']}", {"name": "Public, kept"})[2]["owner"] is None
    assert admin.get("/api/manga?m=Moon%20Garden")[2]["rating"] == {"mine": 0, "count": 0, "mean": None}


def test_a_renamed_folder_keeps_its_place_in_collections_its_ratings_and_want_to_read(scanned, admin, reader_user,
                                                                                      library_dir):
    c = make(reader_user, name="Kept", members=[MOON, LONG])
    reader_user.post(f"/api/collections/{c['id']}", {"cover": MOON})
    reader_user.post("/api/rating", {"m": MOON, "stars": 4})
    reader_user.post("/api/want", {"m": MOON, "on": True})
    new = "Moon Garden (2021)"
    (library_dir / MOON).rename(library_dir / new)
    status, _, report = admin.post("/api/admin/rescan", {"full": True})
    assert status == 200 and report["renamed"], report
    kept = reader_user.get(f"/api/collections/{c['id']}")[2]
    assert [m["name"] for m in kept["members"]] == [new, LONG] and "Moon%20Garden%20%282021%29" in kept["cover"]
    assert reader_user.get("/api/manga?m=" + new.replace(" ", "%20"))[2]["rating"]["mine"] == 4
    assert [m["name"] for m in reader_user.get("/api/want")[2]["manga"]] == [new]
