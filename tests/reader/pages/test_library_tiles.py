"""The library page reuses each tile's HTML, and a manga page its Related section (shelf/tiles.py):
never a stale count or relation after a progress write, a scan, a vote or a catalog change, and never
another user's state."""
import re

from tests.conftest import make_page
from tests.support.pages import wait_for_library


def tile(client, name="Moon%20Garden"):
    status, _, body = client.get("/")
    assert status == 200
    html = body.decode()
    found = re.search(r'<li class="tile[^"]*"><a href="/manga/' + name + r'/">[\s\S]*?</li>', html)
    assert found, html
    return " ".join(found.group(0).split())


def api_card(client, name="Moon Garden"):
    status, _, data = client.get("/api/library")
    assert status == 200, data
    return next(m for m in data["manga"] if m["name"] == name)


def save_done(client, cid):
    status, _, chapter = client.get(f"/api/chapter?m=Moon%20Garden&c={cid}")
    assert status == 200, chapter
    body = {"m": "Moon Garden", "c": cid, "v": chapter["version"], "p": len(chapter["pages"]) - 1,
            "n": len(chapter["pages"]), "done": True, "shift": []}
    status, _, data = client.post("/api/progress", body)
    assert status == 200, data


def test_a_progress_write_changes_the_tile_at_once_and_only_for_its_user(scanned, reader_user, other_user):
    assert "2 chapters</span>" in tile(reader_user) and "unread-count" in tile(reader_user)
    save_done(reader_user, "1/1")
    mine = tile(reader_user)
    assert "2 chapters · 1 read" in mine and 'title="1 unread chapter"' in mine
    assert (api_card(reader_user)["read"], api_card(reader_user)["unread"]) == (1, 1)
    assert "read" not in tile(other_user).split("chapters", 1)[1]  # the other user's tile is their own
    assert api_card(other_user)["read"] == 0
    save_done(reader_user, "1/2")
    assert "all read" in tile(reader_user) and 'class="tile all-read"' in tile(reader_user)
    assert reader_user.post("/api/unread", {"m": "Moon Garden", "c": "1/2"})[0] == 200
    assert "2 chapters · 1 read" in tile(reader_user)


def test_marking_a_whole_manga_read_or_unread_changes_the_tile_at_once(scanned, reader_user):
    assert "2 chapters</span>" in tile(reader_user)  # the user's read state is kept from here on
    assert reader_user.post("/api/read/many", {"m": "Moon Garden", "read": True})[0] == 200
    assert "all read" in tile(reader_user) and api_card(reader_user)["read"] == 2
    assert reader_user.post("/api/read/many", {"m": "Moon Garden", "read": False})[0] == 200
    assert "read" not in tile(reader_user).split("chapters", 1)[1] and api_card(reader_user)["read"] == 0


def test_a_scan_changes_the_tile(scanned, admin, reader_user, library_dir):
    save_done(reader_user, "1/1")
    assert "2 chapters · 1 read" in tile(reader_user)
    make_page(library_dir / "Moon Garden" / "b01 Spring" / "c0003 Leaves" / "001.png")
    status, _, report = admin.post("/api/admin/rescan", {})
    assert status == 200, report
    wait_for_library(admin, 2)
    assert "3 chapters · 1 read" in tile(reader_user) and 'title="2 unread chapters"' in tile(reader_user)
    assert api_card(reader_user)["chapters"] == 3


def test_a_vote_leaves_the_counts_right(scanned, reader_user):
    save_done(reader_user, "1/2")
    before = tile(reader_user)
    assert "2 chapters · 1 read" in before
    body = {"m": "Moon Garden", "c": "1/2", "v": "c0002 Roots [MangaDex]", "value": 1}
    assert reader_user.post("/api/vote", body)[0] == 200
    assert tile(reader_user) == before and api_card(reader_user)["read"] == 1
    save_done(reader_user, "1/1")  # read in the version the vote put first
    assert "all read" in tile(reader_user)


def test_a_follow_shows_at_once_in_the_tile_and_the_api(scanned, reader_user):
    assert "following" not in tile(reader_user) and api_card(reader_user)["following"] is False
    assert reader_user.post("/api/follow", {"m": "Moon Garden", "on": True})[0] == 200
    assert "· following" in tile(reader_user) and api_card(reader_user)["following"] is True


def test_the_continue_row_follows_each_position_saved(scanned, reader_user):
    status, _, chapter = reader_user.get("/api/chapter?m=Moon%20Garden&c=1/1")
    assert status == 200
    for page in (0, 1):
        body = {"m": "Moon Garden", "c": "1/1", "v": chapter["version"], "p": page, "n": 2, "done": False,
                "shift": []}
        assert reader_user.post("/api/progress", body)[0] == 200
        html = " ".join(reader_user.get("/")[2].decode().split())
        assert f"· p. {page + 1}/2" in html, html


def test_a_catalog_title_override_shows_on_the_tile_the_card_and_the_continue_row_at_once(scanned, admin,
                                                                                          reader_user):
    save_done(reader_user, "1/1")
    before = tile(reader_user)
    assert "Moon Garden</span>" in before and api_card(reader_user)["title"] == "Moon Garden"
    rev = admin.get("/api/admin/catalog")[2]["rev"]
    status, _, body = admin.post("/api/admin/catalog/overrides", {"rev": rev, "m": "Moon Garden",
                                                                  "title": "The Moon Garden"})
    assert status == 200, body
    assert "The Moon Garden</span>" in tile(reader_user) and "2 chapters · 1 read" in tile(reader_user)
    assert api_card(reader_user)["title"] == "The Moon Garden"
    html = reader_user.get("/")[2].decode()
    row = html.split('id="continue-title"', 1)[1].split("</section>", 1)[0]
    assert "The Moon Garden</span>" in row


def test_a_restriction_change_takes_effect_at_the_next_request(scanned, admin, reader_user):
    save_done(reader_user, "1/1")
    assert api_card(reader_user)["read"] == 1  # the read state is cached for this user now
    status, _, data = admin.post("/api/admin/user/access", {"name": "reader", "only": ["Long Scroll"]})
    assert status == 200, data
    status, _, body = reader_user.get("/api/library")
    assert [m["name"] for m in body["manga"]] == ["Long Scroll"] and body["count"] == 1
    assert body["continue"] == []  # Moon Garden's progress no longer shows
    assert "Moon%20Garden" not in reader_user.get("/")[2].decode()
    status, _, data = admin.post("/api/admin/user/access", {"name": "reader", "only": None})
    assert status == 200, data
    assert api_card(reader_user)["read"] == 1
    assert [item["name"] for item in reader_user.get("/api/library")[2]["continue"]] == ["Moon Garden"]


def facet_tags(client):
    status, _, data = client.get("/api/library")
    assert status == 200, data
    return {f["value"]: f["count"] for f in data["facets"]["tags"]}, [r["name"] for r in data["recent"]]


def test_the_facets_and_the_recent_row_follow_a_catalog_tag_and_a_restriction(scanned, admin, reader_user):
    tags, recent = facet_tags(reader_user)  # made once here, then kept for this library and rule
    assert "webtoon-ish" not in tags and sorted(recent) == ["Long Scroll", "Moon Garden"]
    rev = admin.get("/api/admin/catalog")[2]["rev"]
    status, _, data = admin.post("/api/admin/catalog/overrides",
                                 {"rev": rev, "m": "Long Scroll", "tags": ["webtoon-ish"]})
    assert status == 200, data
    assert facet_tags(reader_user)[0]["webtoon-ish"] == 1
    assert 'tag%3Awebtoon-ish' in reader_user.get("/")[2].decode()
    status, _, data = admin.post("/api/admin/user/access", {"name": "reader", "only": ["Moon Garden"]})
    assert status == 200, data
    assert facet_tags(reader_user) == (facet_tags(reader_user)[0], ["Moon Garden"])
    assert "webtoon-ish" not in facet_tags(reader_user)[0]
    assert "webtoon-ish" in facet_tags(admin)[0]  # another rule, its own facets
    status, _, data = admin.post("/api/admin/user/access", {"name": "reader", "only": None})
    assert status == 200, data
    assert facet_tags(reader_user)[0]["webtoon-ish"] == 1


def related_section(client, name="Moon%20Garden"):
    status, _, body = client.get(f"/manga/{name}/")
    assert status == 200
    found = re.search(r'<section class="catalog"[\s\S]*?</section>', body.decode())
    return " ".join(found.group(0).split()) if found else ""


def catalog_post(admin, path, body):
    rev = admin.get("/api/admin/catalog")[2]["rev"]
    status, _, data = admin.post(f"/api/admin/catalog/{path}", {"rev": rev, **body})
    assert status == 200, data


def test_the_manga_pages_related_section_follows_the_catalog_a_restriction_and_the_role(scanned, admin,
                                                                                         reader_user):
    assert related_section(reader_user) == ""  # nothing related yet, and no curator's links for a reader
    assert "Edit metadata and cover" in related_section(admin)
    catalog_post(admin, "relations", {"a": "Moon Garden", "type": "sequel", "b": "Long Scroll"})
    mine = related_section(reader_user)
    assert 'Sequel:</span> <a href="/manga/Long%20Scroll/">Long Scroll</a>' in mine, mine
    assert "Edit metadata" not in mine and "Edit metadata and cover" in related_section(admin)
    catalog_post(admin, "overrides", {"m": "Long Scroll", "title": "The Long Scroll"})
    assert ">The Long Scroll</a>" in related_section(reader_user)
    catalog_post(admin, "relations", {"a": "Moon Garden", "type": "side-story", "b": "Not Here"})
    assert 'Not Here</span> <span class="pill missing"' in related_section(reader_user)
    catalog_post(admin, "groups", {"name": "Garden cycle", "members": ["Moon Garden", "Long Scroll"],
                                   "ordered": True})
    assert '<ol class="group-members"> <li aria-current="true" class="current"><strong>Moon Garden' \
        in related_section(reader_user)
    status, _, data = admin.post("/api/admin/user/access", {"name": "reader", "only": ["Moon Garden"]})
    assert status == 200, data
    hidden = related_section(reader_user)
    assert "Long Scroll" not in hidden and "Not Here" not in hidden  # only Moon Garden may be seen now
    assert "<strong>Moon Garden</strong>" in hidden
    assert "The Long Scroll" in related_section(admin)
