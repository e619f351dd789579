"""A refresh replaces the provider layer only: a curator's edit, and a relation they deleted, stay."""
from catalog import relations
from catalog import store as catalog_store
from metadata import matches

from .conftest import make_worker, run_all


def _make_due(name):
    with matches.STATE.edit() as data:
        data["manga"][name]["looked"] = 0


def test_a_hand_edit_survives_a_refresh(app, admin_client, fake):
    run_all(make_worker())
    rev = catalog_store.revision()
    status, _, body = admin_client.post("/api/admin/catalog/overrides",
                                        {"rev": rev, "m": "Monster", "description": "Told by hand.", "tags": ["Mine"]})
    assert status == 200, body
    fake.media[30001]["description"] = "A newer summary from the provider."
    fake.media[30001]["genres"] = ["Mystery"]
    _make_due("Monster")
    worker = make_worker()
    # the cache answers the same question for a day: a refresh a month later finds it expired
    for path in (worker.client.dir / "cache").rglob("*.json"):
        path.unlink()
    run_all(worker)
    assert [r["name"] for r in worker.channel.results] == ["Monster"]
    _, _, manga = admin_client.get("/api/manga?m=Monster")
    assert manga["meta"]["description"] == "Told by hand."
    assert "Mine" in manga["meta"]["tags"] and manga["meta"]["genres"] == ["Mystery"]


def test_a_relation_a_curator_deleted_is_not_made_again(app, admin_client):
    run_all(make_worker())
    relations.delete("admin", "Solo Leveling Novel", "adaptation", "Solo Leveling")
    for name in ("Solo Leveling", "Solo Leveling Novel"):
        _make_due(name)
    run_all(make_worker())
    assert not any(r["b"] == "Solo Leveling" for r in relations.all_relations())


def test_a_refresh_that_fails_keeps_the_match_and_says_why(app, admin_client, fake):
    run_all(make_worker())
    fake.media.pop(30001)
    _make_due("Monster")
    worker = make_worker()
    for path in (worker.client.dir / "cache").rglob("*.json"):
        path.unlink()
    run_all(worker)
    state = matches.state("Monster")
    assert (state["state"], state["id"]) == ("matched", "30001")
    assert any("AniList" in w and "404" in w for w in state["warnings"])
    _, _, data = admin_client.get("/api/admin/metadata")
    assert any(item["name"] == "Monster" and item["warnings"] for item in data["waiting"])
