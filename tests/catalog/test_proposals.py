"""Research proposals: whole-batch validation with per-item errors, duplicates reported, decisions."""
import pytest

from tests.support.pages import wait_for_library

URL = "/api/admin/catalog/proposals"
EVIDENCE = [{"url": "https://example.org/news", "quote": "a sequel was announced"}]


def relation(a="Moon Garden", type_="sequel", b="Long Scroll", **extra):
    return {"kind": "relation", "a": a, "type": type_, "b": b, "evidence": EVIDENCE, **extra}


@pytest.fixture
def curator(server, admin):
    wait_for_library(admin, 2)
    return admin


def overview(client):
    return client.get("/api/admin/catalog")[2]


def test_it_stores_a_valid_batch_as_open_proposals_that_change_nothing(curator):
    batch = {"proposals": [relation(), {"kind": "group", "name": "Cycle", "members": ["Moon Garden", "Elsewhere"],
                                        "evidence": [{"quote": "both by one studio"}]},
                           {"kind": "metadata", "m": "Long Scroll", "altTitles": ["長い"], "evidence": EVIDENCE}]}
    status, _, body = curator.post(URL, batch)
    assert status == 200, body
    assert len(body["stored"]) == 3 and body["duplicates"] == []
    view = overview(curator)
    assert view["relations"] == [] and view["groups"] == [] and view["overrides"] == {}
    assert [p["state"] for p in view["proposals"]] == ["open"] * 3


def test_one_invalid_item_refuses_the_batch_listing_each_error(curator):
    batch = {"proposals": [relation(), relation(type_="reboot"), relation(evidence=[{"url": "javascript:alert(1)"}]),
                           {"kind": "rumour"}]}
    status, _, body = curator.post(URL, batch)
    assert status == 400
    assert "nothing was stored" in body["error"]
    assert [(e["index"], e["field"]) for e in body["errors"]] == [
        (1, "type"), (2, "evidence[0].url"), (3, "kind")]
    assert overview(curator)["proposals"] == []


def test_it_reports_duplicates_instead_of_storing_them_twice(curator):
    curator.post("/api/admin/catalog/relations", {"rev": overview(curator)["rev"], "a": "Moon Garden", "type": "sequel",
                                                  "b": "Long Scroll"})
    status, _, body = curator.post(URL, {"proposals": [
        relation(), relation("Long Scroll", "prequel", "Moon Garden"), relation(type_="alternate"),
        relation(b="Moon Garden", a="Long Scroll", type_="alternate")]})
    assert status == 200
    assert len(body["stored"]) == 1
    assert [d["index"] for d in body["duplicates"]] == [0, 1, 3]
    assert "already in the catalog" in body["duplicates"][0]["reason"]
    assert "the same as open proposal" in body["duplicates"][2]["reason"]
    again = curator.post(URL, {"proposals": [relation(type_="alternate")]})[2]
    assert again["stored"] == [] and len(again["duplicates"]) == 1


def test_accepting_applies_a_proposal_and_rejecting_keeps_the_reason(curator):
    stored = curator.post(URL, {"proposals": [relation(), relation(type_="same-universe")]})[2]["stored"]
    rev = overview(curator)["rev"]
    status, _, body = curator.post("/api/admin/catalog/proposals/decide", {"rev": rev, "id": stored[0], "accept": True})
    assert status == 200 and body["proposal"]["state"] == "accepted"
    reject = {"rev": body["rev"], "id": stored[1], "accept": False, "reason": "not the same world"}
    status, _, body = curator.post("/api/admin/catalog/proposals/decide", reject)
    assert body["proposal"]["reason"] == "not the same world"
    view = overview(curator)
    assert [(r["a"], r["type"], r["b"]) for r in view["relations"]] == [("Moon Garden", "sequel", "Long Scroll")]
    assert view["proposals"] == []
    again = curator.post("/api/admin/catalog/proposals/decide", {"rev": view["rev"], "id": stored[1], "accept": True})
    assert again[0] == 409 and "rejected already" in again[2]["error"]


def test_an_accepted_metadata_proposal_reaches_the_library_filter(curator):
    proposal = {"kind": "metadata", "m": "Long Scroll", "altTitles": ["Endless Paper"], "evidence": EVIDENCE}
    stored = curator.post(URL, {"proposals": [proposal]})[2]["stored"]
    assert curator.get("/api/library?q=endless")[2]["total"] == 0
    decided = curator.post("/api/admin/catalog/proposals/decide",
                           {"rev": overview(curator)["rev"], "id": stored[0], "accept": True})
    assert decided[0] == 200
    assert [m["name"] for m in curator.get("/api/library?q=endless")[2]["manga"]] == ["Long Scroll"]
