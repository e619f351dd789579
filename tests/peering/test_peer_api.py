"""The peer API on the reader (in process): who may call it, what it shows, and what it refuses."""
import hashlib
import logging
from urllib.parse import urlencode

import pytest

from library import contenthash

SECRET = "alpha-secret-0123456789abcdefXYZ"
OTHER = "beta-secret-0123456789abcdefXYZab"


@pytest.fixture
def paired(admin):
    status, _, data = admin.post("/api/admin/peers", {"name": "alpha", "url": "https://alpha.example",
                                                      "present": OTHER, "accept": SECRET})
    assert status == 200, data
    assert data["accept"] == SECRET and "present" not in data["peer"] and "acceptHash" not in data["peer"]
    return admin


def peer_get(server, path, secret=SECRET):
    return server.client().get(path, headers={"Authorization": f"Bearer {secret}"})


def share(admin, policy):
    status, _, data = admin.post("/api/admin/peers/alpha", {"share": policy})
    assert status == 200, data


def page_url(m, v, f):
    return "/api/peer/page?" + urlencode({"m": m, "v": v, "f": f})


def test_it_shares_nothing_until_told_then_exactly_the_chosen_set(server, paired):
    status, _, data = peer_get(server, "/api/peer/catalog")
    assert (status, data["manga"]) == (200, [])
    share(paired, ["Moon Garden"])
    assert [m["name"] for m in peer_get(server, "/api/peer/catalog")[2]["manga"]] == ["Moon Garden"]
    share(paired, "all")
    assert [m["name"] for m in peer_get(server, "/api/peer/catalog")[2]["manga"]] == ["Long Scroll", "Moon Garden"]
    share(paired, "none")
    assert peer_get(server, "/api/peer/catalog")[2]["manga"] == []


def test_it_lists_books_versions_sizes_and_hashes_that_match_the_files(server, paired, library_dir):
    share(paired, ["Moon Garden"])
    manga = peer_get(server, "/api/peer/catalog")[2]["manga"][0]
    assert manga["meta"]["authors"] == ["A. Writer"]
    chapter = manga["books"][0]["chapters"][1]
    assert [v["path"] for v in chapter["versions"]] == ["b01 Spring/c0002 Roots [MangaDex]",
                                                        "b01 Spring/c0002 Roots [Official]"]
    version = chapter["versions"][1]
    folder = library_dir / "Moon Garden" / version["path"]
    assert [p[0] for p in version["pages"]] == ["001.png", "002-003.png"]
    for name, size, sha in version["pages"]:
        data = (folder / name).read_bytes()
        assert (size, sha) == (len(data), hashlib.sha256(data).hexdigest())
    assert version["hash"] == contenthash.version_hash([tuple(p) for p in version["pages"]])
    assert version["size"] == sum(p[1] for p in version["pages"]) and version["pageCount"] == 2
    status, headers, body = peer_get(server, "/api/" + manga["coverUrl"].removeprefix("api/")) if manga["coverUrl"] \
        else (200, None, b"")
    assert status == 200


def test_it_serves_a_shared_page_byte_for_byte(server, paired, library_dir):
    share(paired, ["Moon Garden"])
    status, headers, body = peer_get(server, page_url("Moon Garden", "b01 Spring/c0001 Seeds", "002.png"))
    assert status == 200
    assert body == (library_dir / "Moon Garden/b01 Spring/c0001 Seeds/002.png").read_bytes()


def test_a_session_alone_gets_401_even_an_admins(server, paired):
    share(paired, "all")
    assert paired.get("/api/peer/catalog")[0] == 401
    assert paired.get(page_url("Moon Garden", "b01 Spring/c0001 Seeds", "001.png"))[0] == 401


def test_an_unshared_manga_is_404_like_a_missing_one(server, paired):
    share(paired, ["Long Scroll"])
    unshared = peer_get(server, page_url("Moon Garden", "b01 Spring/c0001 Seeds", "001.png"))
    missing = peer_get(server, page_url("Invented", "b01 Spring/c0001 Seeds", "001.png"))
    assert unshared[0] == missing[0] == 404
    assert unshared[2] == missing[2] == {"error": "not found"}


@pytest.mark.parametrize("m, v, f", [
    ("Moon Garden", "b01 Spring/../../Long Scroll/c0001 Start [Official]", "001.png"),
    ("Moon Garden", "b01 Spring/c0001 Seeds", "../c0002 Roots [Official]/001.png"),
    ("Moon Garden", "b01 Spring/c0001 Seeds", "../../../Long Scroll/c0001 Start [Official]/001.png"),
    ("Moon Garden", "b01 Spring/c0001 Seeds", "/etc/passwd"),
    ("Moon Garden", "b01 Spring/c0001 Seeds", "%2e%2e/001.png"),
    ("Moon Garden", "/b01 Spring/c0001 Seeds", "001.png"),
    ("Moon Garden", "b01 Spring/c0001 Seeds", "manga.json"),
    ("../Long Scroll", "c0001 Start [Official]", "001.png"),
    ("Moon Garden/..", "Long Scroll/c0001 Start [Official]", "001.png"),
    ("Moon Garden", "b01 Spring/c0001 Seeds", "001.png\x00.png"),
])
def test_it_refuses_traversal_as_not_found(server, paired, m, v, f):
    share(paired, ["Moon Garden"])
    assert peer_get(server, page_url(m, v, f))[:3:2] == (404, {"error": "not found"})


def test_wrong_disabled_and_revoked_secrets_get_401(server, paired):
    share(paired, "all")
    assert peer_get(server, "/api/peer/catalog", "wrong-secret-0123456789abcdef")[0] == 401
    assert server.client().get("/api/peer/catalog")[0] == 401
    assert paired.post("/api/admin/peers/alpha", {"enabled": False})[0] == 200
    assert peer_get(server, "/api/peer/catalog")[0] == 401
    assert paired.post("/api/admin/peers/alpha", {"enabled": True})[0] == 200
    status, _, data = paired.post("/api/admin/peers/alpha", {"newAccept": True})
    assert peer_get(server, "/api/peer/catalog")[0] == 401  # the old secret is revoked
    assert peer_get(server, "/api/peer/catalog", data["accept"])[0] == 200
    assert paired.post("/api/admin/peers/alpha", {"delete": True})[0] == 200
    assert peer_get(server, "/api/peer/catalog", data["accept"])[0] == 401


def test_wrong_secrets_count_towards_the_login_limit(server, paired):
    statuses = [peer_get(server, "/api/peer/catalog", f"wrong-{n:02d}-secret-0123456789abc")[0] for n in range(11)]
    assert statuses == [401] * 10 + [429]
    status, headers, data = peer_get(server, "/api/peer/catalog")
    assert status == 429 and int(headers["Retry-After"]) > 0  # even the right secret waits
    assert data == {"error": "too many attempts; try again in 15 minutes"}  # in words, not seconds
    # and the sign-in page shares the address's budget: 30 wrong attempts of any kind
    for n in range(20):
        server.client().post("/api/login", {"name": f"someone{n}", "password": "wrong password"})
    assert server.client().post("/api/login", {"name": "someone-else", "password": "wrong password"})[0] == 429


def test_every_answer_is_logged_with_the_peers_name(server, paired, caplog):
    share(paired, ["Moon Garden"])
    with caplog.at_level(logging.INFO, logger="mangacircus.peers"):
        peer_get(server, "/api/peer/catalog")
        peer_get(server, page_url("Moon Garden", "b01 Spring/c0001 Seeds", "001.png"))
        peer_get(server, page_url("Long Scroll", "c0001 Start [Official]", "001.png"))
    lines = [r.getMessage() for r in caplog.records if r.name == "mangacircus.peers"]
    assert lines[0] == "peer alpha: catalog (1 manga)"
    assert lines[1] == "peer alpha: page Moon Garden / b01 Spring/c0001 Seeds / 001.png"
    assert lines[2].startswith("peer alpha: page 'Long Scroll'") and lines[2].endswith("not found")


def test_accepted_secrets_are_stored_hashed(server, paired, data_dir):
    server.stop()
    stored = (data_dir / "peers.json").read_text()
    assert SECRET not in stored and hashlib.sha256(SECRET.encode()).hexdigest() in stored
    assert OTHER in stored  # the presented one has to be sent, so it is kept as given


def test_a_refused_change_leaves_the_peer_as_it_was_and_changes_are_on_disk_at_once(server, paired, data_dir):
    status, _, data = paired.post("/api/admin/peers/alpha", {"url": "https://other.example", "present": "short"})
    assert status == 400 and data["error"] == "the presented secret must be 24 to 200 visible characters without spaces"
    assert paired.get("/api/admin/peers")[2]["peers"][0]["url"] == "https://alpha.example"
    assert paired.post("/api/admin/peers/alpha", {"enabled": False})[0] == 200
    assert '"enabled":false' in (data_dir / "peers.json").read_text()  # no flush delay for a revocation


def test_a_renamed_folder_keeps_its_peer_id_and_a_follow_by_that_id_still_finds_it(server, paired, library_dir):
    from scraper.sources.peer import _named
    from tests.support.pages import wait_for_library

    wait_for_library(paired, 2)
    share(paired, ["Moon Garden"])
    [before] = peer_get(server, "/api/peer/catalog")[2]["manga"]
    assert (before["id"], before["name"]) == ("Moon Garden", "Moon Garden")
    (library_dir / "Moon Garden").rename(library_dir / "Moon Garden (2021)")
    status, _, report = paired.post("/api/admin/rescan", {"full": True})
    assert status == 200 and report["renamed"], report
    [after] = peer_get(server, "/api/peer/catalog")[2]["manga"]
    assert (after["id"], after["name"]) == ("Moon Garden", "Moon Garden (2021)")  # still shared, same id
    # the follower's series id, made from the id, finds it under its new name; an old follow by
    # folder name finds a manga of that name
    catalog = [after, {"id": "Long Scroll", "name": "Long Scroll"}]
    assert _named(catalog, "Moon Garden")["name"] == "Moon Garden (2021)"
    assert _named(catalog, "Long Scroll")["name"] == "Long Scroll" and _named(catalog, "Star Sea") is None
