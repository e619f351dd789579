"""Several libraries (LIBRARIES, docs/library.md "Several libraries"): each scanned, snapshotted and
kept available on its own, its own default direction, names unique across them, the filter, a
user limited to one library (everywhere the library shows), and the Komga API's libraries."""
import shutil
from urllib.parse import quote

import pytest
from django.core.exceptions import ImproperlyConfigured

from library import index
from tests.conftest import PASSWORD, make_page, tiny_tree
from tests.reader.komga.apps import basic
from tests.support.app import AppServer, settings_from


def comics_tree(root):
    """A Western comic without a direction of its own, and a folder named like one of the manga."""
    for n in (1, 2):
        make_page(root / "Star Patrol" / "c0001 Launch" / f"{n:03d}.png", color=(10, 20, 200))
    make_page(root / "Moon Garden" / "c0001 Other" / "001.png", color=(250, 0, 0))
    return root


@pytest.fixture
def two(tmp_path):
    manga, comics = tiny_tree(tmp_path / "manga"), comics_tree(tmp_path / "comics")
    env = {"LIBRARY": "", "LIBRARIES": f"Manga={manga};Comics={comics}", "LIBRARY_DIRECTIONS": "Comics=ltr"}
    srv = AppServer(tmp_path / "data", env=env).start()
    yield srv, manga, comics
    srv.stop()


def rescan(admin):
    status, _, report = admin.post("/api/admin/rescan", {"full": True})
    assert status == 200, report
    return report


def names(user, q=""):
    status, _, data = user.get(f"/api/library?q={quote(q)}")
    assert status == 200, data
    return sorted(m["name"] for m in data["manga"]), data


def test_libraries_are_named_folders_and_bad_values_say_what_is_wrong(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    values = settings_from({"LIBRARIES": f" Manga = {a} ; Comics={b};", "LIBRARY_DIRECTIONS": "Comics=ltr"})
    assert values["LIBRARIES"] == {"Manga": a, "Comics": b} and values["LIBRARY"] == a
    assert values["LIBRARY_DIRECTIONS"] == {"Comics": "ltr"} and not values["LIBRARY_IS_DEMO"]
    assert settings_from({"LIBRARY": str(a)})["LIBRARIES"] == {"Library": a}
    for env, words in (({"LIBRARY": str(a), "LIBRARIES": f"M={b}"}, "not both"),
                       ({"LIBRARIES": "Manga"}, "is not name=/path"),
                       ({"LIBRARIES": f"M={a};m={b}"}, "repeated"),
                       ({"LIBRARIES": f"M={a};C={a}/comics"}, "overlap"),
                       ({"LIBRARIES": f"M={a}", "LIBRARY_DIRECTIONS": "C=ltr"}, "not one of LIBRARIES"),
                       ({"LIBRARIES": f"M={a}", "LIBRARY_DIRECTIONS": "M=up"}, "expected M=rtl")):
        with pytest.raises(ImproperlyConfigured, match=words):
            settings_from(env)


def test_each_library_is_scanned_with_its_direction_and_a_name_stays_unique(two):
    srv, manga, comics = two
    admin = srv.client().signup("admin", PASSWORD)
    report = rescan(admin)
    assert [(lib["name"], lib["error"]) for lib in report["libraries"]] == [("Manga", None), ("Comics", None)]
    found, data = names(admin)
    assert found == ["Long Scroll", "Moon Garden", "Star Patrol"]
    assert [(f["value"], f["count"]) for f in data["facets"]["libraries"]] == [("Manga", 2), ("Comics", 1)]
    duplicate = [w for w in report["warnings"] if w["kind"] == "duplicate-name"]
    assert duplicate == [{"kind": "duplicate-name", "path": "Moon Garden",
                          "message": "the library Manga has a manga folder of this name, and a manga's name is its "
                                     "id: rename one of them to read both"}]
    assert index.current().library_of == {"Moon Garden": "Manga", "Long Scroll": "Manga", "Star Patrol": "Comics"}
    assert admin.get("/api/manga?m=Star%20Patrol")[2]["direction"] == "ltr"  # Comics=ltr
    assert admin.get("/api/manga?m=Moon%20Garden")[2]["direction"] == "rtl"
    # The pages come from the folder of the library holding each manga: Moon Garden's are Manga's.
    for name, chapter, folder in (("Star Patrol", "0/1", comics), ("Moon Garden", "1/1", manga)):
        page = admin.get(f"/api/chapter?m={quote(name)}&c={chapter}")[2]["pages"][0]["u"]
        status, _, body = admin.get("/" + page)
        rel = page.split("?")[0].removeprefix("lib/")
        assert status == 200 and body == (folder / rel.replace("%20", " ")).read_bytes(), page
    assert names(admin, "library:comics")[0] == ["Star Patrol"]
    assert names(admin, 'library:"Manga" moon')[0] == ["Moon Garden"]
    # The second library's files in DATA carry its name; the first keeps those of a single library.
    assert (srv.data / "library-index.json").exists() and (srv.data / "library-index-1-comics.json").exists()
    html = admin.get("/settings/admin/library/")[2].decode()
    assert "Comics" in html and str(comics) in html and "left to right" in html


def test_a_library_that_cannot_be_read_keeps_its_manga_while_the_other_scans_on(two):
    srv, manga, comics = two
    admin = srv.client().signup("admin", PASSWORD)
    rescan(admin)
    hidden = comics.with_name("comics-unmounted")
    comics.rename(hidden)
    make_page(manga / "New Arrival" / "c0001 One" / "001.png")
    status, _, report = admin.post("/api/admin/rescan", {"full": False})
    assert report["error"].startswith("Comics: the library at ") and "is it mounted?" in report["error"], report
    assert names(admin)[0] == ["Long Scroll", "Moon Garden", "New Arrival", "Star Patrol"]
    assert index.current().unavailable.startswith("Comics: ")
    hidden.rename(comics)
    report = rescan(admin)
    assert report["error"] is None and index.current().unavailable is None


def test_a_manga_moved_to_another_library_keeps_its_readers_data(two):
    srv, manga, comics = two
    admin = srv.client().signup("admin", PASSWORD)
    rescan(admin)
    status, _, body = admin.post("/api/progress", {"m": "Long Scroll", "c": "0/1", "v": "c0001 Start [Official]",
                                                   "p": 2, "n": 3})
    assert status == 200, body
    shutil.move(manga / "Long Scroll", comics / "Long Scroll (webtoon)")
    report = rescan(admin)
    assert report["renamed"][0].startswith("renamed Long Scroll → Long Scroll (webtoon)"), report
    assert index.current().library_of["Long Scroll (webtoon)"] == "Comics"
    chapter = admin.get("/api/chapter?m=" + quote("Long Scroll (webtoon)") + "&c=0/1")[2]
    assert chapter["start"] == 2


def test_a_user_limited_to_one_library_sees_nothing_of_the_other(two):
    srv, manga, comics = two
    admin = srv.client().signup("admin", PASSWORD)
    rescan(admin)
    assert admin.post("/api/admin/user", {"name": "kid", "password": PASSWORD})[0] == 200
    status, _, body = admin.post("/api/admin/user/access", {"name": "kid", "libraries": ["Nope"]})
    assert status == 400 and "no library named Nope" in body["error"], body
    status, _, body = admin.post("/api/admin/user/access", {"name": "kid", "libraries": ["Comics"]})
    assert status == 200 and body["libraries"] == ["Comics"], body
    kid = srv.client().login("kid", PASSWORD)
    found, data = names(kid)
    assert found == ["Star Patrol"] and [f["value"] for f in data["facets"]["libraries"]] == ["Comics"]
    assert kid.get("/api/manga?m=Moon%20Garden")[0] == 404
    page = admin.get("/api/chapter?m=Moon%20Garden&c=1/1")[2]["pages"][0]["u"]
    assert kid.get("/" + page.split("?")[0])[0] == 404
    # The Komga API: the libraries, the series' library ids and the library filter.
    app = {"headers": {"Authorization": basic("admin")}}
    as_kid = {"headers": {"Authorization": basic("kid")}}
    libraries = admin.get("/komga/api/v1/libraries", **app)[2]
    assert [(lib["id"], lib["name"]) for lib in libraries] == [("mangacircus", "Manga"),
                                                               ("mangacircus-1-comics", "Comics")]
    mine = kid.get("/komga/api/v1/libraries", **as_kid)[2]
    assert [lib["name"] for lib in mine] == ["Comics"]
    assert kid.get("/komga/api/v1/libraries/mangacircus", **as_kid)[0] == 404
    me = kid.get("/komga/api/v2/users/me", **as_kid)[2]
    assert me["sharedAllLibraries"] is False and me["sharedLibrariesIds"] == ["mangacircus-1-comics"]
    series = admin.get("/komga/api/v1/series?library_id=mangacircus-1-comics&unpaged=true", **app)[2]["content"]
    assert [(s["name"], s["libraryId"]) for s in series] == [("Star Patrol", "mangacircus-1-comics")]
    assert [s["name"] for s in kid.get("/komga/api/v1/series?unpaged=true", **as_kid)[2]["content"]] == ["Star Patrol"]
    # The access form shows the libraries and keeps the choice.
    html = admin.get("/settings/admin/users/kid/access/")[2].decode()
    assert 'value="Comics" checked' in html and 'value="Manga" checked' not in html
