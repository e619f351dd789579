"""The admin's part through /api/admin/metadata: candidates, one accept, the batch, bad input."""
from urllib.parse import quote

from catalog import proposals, relations
from metadata import matches

from .conftest import make_worker, run_all


def test_it_lists_the_manga_that_wait_with_their_candidates_side_by_side(app, admin_client):
    run_all(make_worker())
    status, _, data = admin_client.get("/api/admin/metadata")
    assert status == 200
    waiting = {item["name"]: item for item in data["waiting"]}
    assert waiting["Monster Remake"]["state"] == "review"
    first = waiting["Monster Remake"]["candidates"][0]
    assert {"title", "year", "authors", "cover", "score", "provider", "id"} <= set(first)
    assert data["counts"]["matched"] >= 5


def test_an_admin_accepts_a_candidate_and_the_manga_page_shows_what_it_filled(app, admin_client):
    run_all(make_worker())
    status, _, found = admin_client.post("/api/admin/metadata/accept",
                                         {"m": "Monster Remake", "provider": "anilist", "id": "30001"})
    assert status == 200, found
    assert (matches.state("Monster Remake")["how"], matches.state("Monster Remake")["by"]) == ("admin", "admin")
    _, _, manga = admin_client.get(f"/api/manga?m={quote('Monster Remake')}")
    assert manga["meta"]["description"].startswith("The story of Monster.")
    assert manga["meta"]["authors"] == ["Naoki Urasawa"] and manga["meta"]["year"] == 1994
    assert manga["meta"]["genres"] == ["Drama"] and manga["meta"]["tags"] == ["Tragedy"]
    status, headers, _ = admin_client.get("/" + manga["cover"])
    assert status == 200 and headers["Content-Type"] == "image/webp"
    html = admin_client.get(f"/manga/{quote('Monster Remake')}/")[2].decode()
    assert "Information from" in html and "AniList" in html and "Where each field comes from" in html


def test_a_later_result_of_the_worker_does_not_undo_an_admins_choice(app, admin_client):
    worker = make_worker()
    run_all(worker)
    admin_client.post("/api/admin/metadata/accept", {"m": "Monster Remake", "provider": "anilist", "id": "30002"})
    stale = next(r for r in worker.channel.results if r["name"] == "Monster Remake")
    assert matches.record(stale)["kept"] is False
    assert matches.state("Monster Remake")["id"] == "30002"


def test_match_all_above_takes_the_best_candidate_of_each_waiting_manga(app, admin_client):
    run_all(make_worker())
    status, _, data = admin_client.post("/api/admin/metadata/accept-above", {"score": 0.5})
    assert status == 200 and data["accepted"] == ["Monster Remake"]
    assert matches.state("Monster Remake")["state"] == "matched"


def test_relations_become_catalog_relations_when_both_are_here_and_proposals_otherwise(app, admin_client):
    run_all(make_worker())
    seen = {(r["a"], r["type"], r["b"]) for r in relations.all_relations()}
    assert ("Solo Leveling Novel", "adaptation", "Solo Leveling") in seen
    assert any(p["a"] == "Shingeki no Kyojin" and p["b"] == "Attack on Titan: Next" and p["type"] == "sequel"
               for p in proposals.open_proposals())


def test_it_refuses_bad_input_with_a_message(app, admin_client):
    run_all(make_worker())
    cases = [
        ({"m": "Invented", "provider": "anilist", "id": "1"}, 404, "there is no manga Invented"),
        ({"m": "Monster Remake", "provider": "anilist", "id": "99"}, 404, "has no candidate anilist:99"),
        ({"m": "Monster Remake", "provider": "anilist"}, 400, "id is required"),
    ]
    for body, status, message in cases:
        got, _, data = admin_client.post("/api/admin/metadata/accept", body)
        assert (got, message in data["error"]) == (status, True), data
    got, _, data = admin_client.post("/api/admin/metadata/accept-above", {"score": "high"})
    assert got == 400 and "score must be a number from 0 to 1" in data["error"]


def test_set_aside_and_search_again(app, admin_client):
    run_all(make_worker())
    assert admin_client.post("/api/admin/metadata/set-aside", {"m": "Monster"})[0] == 200
    _, _, manga = admin_client.get("/api/manga?m=Monster")
    assert manga["meta"]["description"] is None
    assert matches.due() == []
    assert admin_client.post("/api/admin/metadata/search-again", {"m": "Monster"})[0] == 200
    assert [i["name"] for i in matches.due()] == ["Monster"]
