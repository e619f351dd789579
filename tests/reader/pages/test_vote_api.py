"""POST /api/vote: the re-ranked versions, totals plus the user's own vote, and refusals."""
V_DEX, V_OFFICIAL = "c0002 Roots [MangaDex]", "c0002 Roots [Official]"


def _vote(client, version, value, **extra):
    return client.post("/api/vote", {"m": "Moon Garden", "c": "1/2", "v": version, "value": value, **extra})


def test_it_reranks_by_the_sum_of_votes_and_shows_only_my_own_vote(scanned, reader_user, other_user):
    status, _, data = _vote(reader_user, V_OFFICIAL, 1)
    assert status == 200
    assert [(v["name"], v["score"], v["mine"]) for v in data["versions"]] == [(V_OFFICIAL, 1, 1), (V_DEX, 0, 0)]
    data = _vote(other_user, V_OFFICIAL, -1)[2]
    assert [(v["score"], v["mine"]) for v in data["versions"]] == [(0, 0), (0, -1)]  # back to folder order
    assert all(set(v) == {"name", "source", "title", "pages", "score", "mine", "priority", "url"}
               for v in data["versions"])
    theirs = reader_user.get("/api/manga?m=Moon%20Garden")[2]["books"][0]["chapters"][1]["versions"]
    assert {v["name"]: v["mine"] for v in theirs} == {V_DEX: 0, V_OFFICIAL: 1}


def test_it_withdraws_a_vote_with_zero(scanned, reader_user):
    _vote(reader_user, V_OFFICIAL, 1)
    data = _vote(reader_user, V_OFFICIAL, 0)[2]
    assert [(v["score"], v["mine"]) for v in data["versions"]] == [(0, 0), (0, 0)]


def test_it_refuses_unknown_versions_and_bad_values(scanned, reader_user):
    assert _vote(reader_user, "c0002 Roots [Invented]", 1)[0] == 404
    assert reader_user.post("/api/vote", {"m": "Moon Garden", "c": "7/7", "v": V_DEX, "value": 1})[0] == 404
    for value in (2, "1", True, None, 1.0):
        status, _, data = _vote(reader_user, V_DEX, value)
        assert status == 400 and data["error"].startswith("value"), value
    status, _, data = reader_user.post("/api/vote", {"m": "Moon Garden", "c": "1/2", "value": 1})
    assert status == 400 and data["error"].startswith("v ")
    assert "Invented" not in (scanned.data / "db.json").read_text()
