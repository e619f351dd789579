"""Matching against the fake AniList: the ambiguous cases, an id that wins, the threshold."""
from metadata import matches, matching

from .conftest import make_worker, run_all


def _states():
    return {name: matches.state(name) for name in ("Monster", "Monster Remake", "Shingeki no Kyojin", "Solo Leveling",
                                                   "Solo Leveling Novel", "Named By Id", "Lantern Fields")}


def test_it_tells_two_entries_of_one_title_apart_by_the_year_and_leaves_them_to_an_admin_without_one(app):
    run_all(make_worker())
    states = _states()
    monster = states["Monster"]
    assert (monster["state"], monster["id"], monster["how"]) == ("matched", "30001", "auto")
    remake = states["Monster Remake"]
    assert remake["state"] == "review"
    assert {c["record"]["id"] for c in remake["candidates"][:2]} == {"30001", "30002"}
    assert remake["candidates"][0]["score"] == remake["candidates"][1]["score"]


def test_it_matches_a_romanised_folder_name_to_the_english_entry(app):
    run_all(make_worker())
    state = matches.state("Shingeki no Kyojin")
    assert (state["state"], state["id"]) == ("matched", "53390")


def test_it_matches_a_manhwa_to_the_comic_and_its_novel_to_the_novel(app, fake):
    run_all(make_worker())
    assert matches.state("Solo Leveling")["id"] == "105398"
    assert matches.state("Solo Leveling Novel")["id"] == "105399"


def test_an_id_in_manga_json_wins_over_searching(app, fake):
    worker = make_worker()
    run_all(worker)
    state = matches.state("Named By Id")
    assert (state["state"], state["id"], state["how"]) == ("matched", "30002", "id")
    # its title ("Monster", no year) alone would have been a tie: nothing was searched for it
    result = next(r for r in worker.channel.results if r["name"] == "Named By Id")
    assert result["candidates"] == [] and result["score"] == 1.0


def test_it_takes_a_clear_winner_over_a_longer_title_and_nothing_under_the_threshold():
    wanted = {"titles": ["Lantern Fields"], "year": None, "authors": [], "kind": "comic"}
    exact = {"title": "Lantern Fields", "titles": ["Lantern Fields", "Touro no Hara"], "format": "manga"}
    longer = {"title": "Lantern Fields Deluxe", "titles": ["Lantern Fields Deluxe"], "format": "manga"}
    scored = sorted([(matching.score(wanted, r), r["title"]) for r in (exact, longer)], reverse=True)
    assert matching.choose(scored, 0.85)[1] == "Lantern Fields"
    assert matching.choose(scored, 0.9) is None
    assert matching.normalise("Kaguya-sama: Love Is War!") == "kaguya sama love is war"
    assert matching.author_score(["Oda Eiichirou"], ["Eiichirou Oda"]) == 1.0


def test_every_search_and_fetch_went_to_the_fake_through_the_shared_client(app, fake):
    run_all(make_worker())
    assert fake.queries()  # the providers were reached on loopback only because their bases were moved
    assert "id:30002" in fake.queries()
    assert {path.split("?")[0] for _t, _m, path, _b in fake.log} <= {"/anilist"} | {
        path for _t, _m, path, _b in fake.log if path.startswith("/covers/")}
