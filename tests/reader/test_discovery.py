"""The discovery feed: opt-in, deterministic, explained, never what was started, dismissals honoured,
and another user's reading only ever through an aggregate of at least three users."""
import json

import pytest

from shelf import discovery
from tests.conftest import PASSWORD
from tests.reader.discovery_library import discovery_tree
from tests.support.app import AppServer
from tests.support.forms import post_form
from tests.support.pages import wait_for_library


@pytest.fixture
def site(data_dir, tmp_path):
    srv = AppServer(data_dir, discovery_tree(tmp_path / "library")).start()
    admin = srv.client().signup("admin", PASSWORD)
    wait_for_library(admin, 8)
    rev = admin.get("/api/admin/catalog")[2]["rev"]
    relation = {"rev": rev, "a": "Alpha", "type": "sequel", "b": "Gamma"}
    assert admin.post("/api/admin/catalog/relations", relation)[0] == 200
    group = {"rev": rev + 1, "name": "Duo", "members": ["Beta", "Delta", "Away"]}
    assert admin.post("/api/admin/catalog/groups", group)[0] == 200
    srv.admin = admin
    yield srv
    srv.stop()


def user(site, name, discovery_on=True):
    assert site.admin.post("/api/admin/user", {"name": name, "password": PASSWORD})[0] == 200
    client = site.client().login(name, PASSWORD)
    if discovery_on:
        assert client.post("/api/settings", {"discovery": True})[0] == 200
    return client


def finish(client, manga):
    for c in ("0/1", "0/2"):
        assert client.post("/api/read", {"m": manga, "c": c})[0] == 200


def start(client, manga):
    assert client.post("/api/read", {"m": manga, "c": "0/1"})[0] == 200


def feed(client):
    status, _, body = client.get("/api/discovery")
    assert status == 200
    return body


def test_it_is_off_until_the_user_opts_in(site):
    reader = user(site, "reader", discovery_on=False)
    finish(reader, "Alpha")
    assert feed(reader) == {"on": False, "items": []}
    assert "The discovery feed is off" in reader.get("/discover/")[2].decode()
    assert "discover-row" not in reader.get("/")[2].decode()


def test_it_explains_every_item_in_a_deterministic_order(site):
    reader = user(site, "reader")
    finish(reader, "Alpha")
    assert reader.post("/api/follow", {"m": "Beta", "on": True})[0] == 200
    items = feed(reader)["items"]
    assert [(i["name"], i["reasons"]) for i in items] == [
        ("Gamma", ["Sequel to Alpha, which you finished"]),
        ("Beta", ["You follow it and have not started it"]),
        ("Delta", ["In Duo, with Beta"]),
        ("Epsilon", ["Same author or artist as Alpha"]),
        ("Zeta", ["Tagged fantasy, like Alpha"]),
    ]
    assert feed(reader) == feed(reader)
    site.stop()
    site.start()
    assert feed(site.client().login("reader", PASSWORD))["items"] == items
    assert "Alpha" not in [i["name"] for i in items]  # finished: started things are never suggested


def test_it_never_suggests_what_was_started_and_keeps_to_the_limit(site, monkeypatch):
    reader = user(site, "reader")
    finish(reader, "Alpha")
    start(reader, "Gamma")
    assert "Gamma" not in [i["name"] for i in feed(reader)["items"]]
    monkeypatch.setattr(discovery, "LIMIT", 2)
    assert len(feed(reader)["items"]) == 2


def test_dismissals_are_honoured_and_can_be_undone(site):
    reader = user(site, "reader")
    finish(reader, "Alpha")
    assert reader.post("/api/discovery/dismiss", {"m": "Gamma"})[2] == {"m": "Gamma", "dismissed": True}
    assert "Gamma" not in [i["name"] for i in feed(reader)["items"]]
    assert reader.post("/api/discovery/dismiss", {"m": "Gamma", "undo": True})[0] == 200
    assert feed(reader)["items"][0]["name"] == "Gamma"
    post_form(reader, "/discover/", {"m": "Epsilon", "undo": "0"})
    page = reader.get("/discover/")[2].decode()
    assert "Epsilon was dismissed" in page and 'aria-label="Bring back Epsilon"' in page
    assert "Epsilon" not in [i["name"] for i in feed(reader)["items"]]
    post_form(reader, "/discover/", {"m": "Epsilon", "undo": "1"})
    assert "Epsilon" in [i["name"] for i in feed(reader)["items"]]
    assert reader.post("/api/discovery/dismiss", {"m": "Nowhere"})[0] == 404


def test_another_users_reading_shows_only_through_an_aggregate_of_three(site, monkeypatch):
    monkeypatch.setattr(discovery, "POPULAR_TTL", 0)  # the count of readers is cached for 30 s
    a = user(site, "usera")
    finish(a, "Alpha")
    before = feed(a)
    b = user(site, "userb")
    finish(b, "Eta")  # nothing of A's points at Eta
    start(b, "Theta")
    b.post("/api/follow", {"m": "Theta", "on": True})
    finish(b, "Beta")  # Beta's group has Delta
    assert feed(a) == before  # B's reading changes nothing in A's feed
    for name in ("userc", "userd"):
        start(user(site, name), "Eta")
    after = feed(a)["items"]
    changed = [i for i in after if i not in before["items"]]
    assert [(i["name"], i["reasons"]) for i in changed] == [("Eta", ["Read by 3 people on this server"])]
    assert "Theta" not in [i["name"] for i in after]


def test_deleting_an_account_deletes_its_dismissals(site, data_dir):
    reader = user(site, "reader")
    assert reader.post("/api/discovery/dismiss", {"m": "Gamma"})[0] == 200
    assert site.admin.post("/api/admin/user/delete", {"name": "reader"})[0] == 200
    site.stop()
    assert "reader" not in json.loads((data_dir / "db.json").read_text())["dismissed"]
    site.start()
