"""Collections, ratings and want-to-read brought by an import (imports/plan_lists.py): each found
here by its series, a collection of the same name filled rather than made twice, a private one that
would clash with a shared name renamed, a rating given here kept; the second import changes nothing."""
import pytest

from imports import apply, plan
from imports.source import Source
from reader import collections, ratings, wanttoread
from tests.conftest import PASSWORD
from tests.support.pages import wait_for_library


def lines(p, key):
    return {(item["what"], item["target"], item["reason"]) for item in p.lists[key]}


@pytest.fixture
def ready(server, admin):
    wait_for_library(admin, 2)
    assert admin.post("/api/admin/user", {"name": "bea", "password": PASSWORD})[0] == 200
    return server


def source():
    s = Source("kavita", "kavita.db")
    s.add_user("1", "bea", "bea")
    s.add_user("2", "cy", "cy")
    s.add_collection(None, "Favourites", ["Long Scroll", {"name": "Moon Garden"}], ordered=True, shared=True)
    s.add_collection("1", "favourites", ["Moon Garden"], ordered=False, shared=False)  # clashes with the shared one
    s.add_collection("2", "Later", [{"name": "Star Sea"}, {"name": "?", "title": "Long Scroll"}], ordered=False,
                     shared=False)
    s.add_rating("1", "Moon Garden", 4)
    s.add_rating("2", "Long Scroll", 5)
    s.add_rating("2", "Star Sea", 3)
    s.add_want("1", "Long Scroll")
    s.add_want("2", {"name": "Nowhere"})
    return s


def test_the_lists_are_planned_found_by_series_then_written_and_a_second_import_changes_nothing(ready):
    ratings.rate("bea", "Moon Garden", 2)  # given here: kept
    collections.create({"name": "admin", "admin": True}, "Favourites", members=["Long Scroll"])
    first = plan.build(source())
    assert lines(first, "matched") >= {("collection Favourites", "shared collection Favourites",
                                        "a collection of that name exists; 1 manga added")}
    assert lines(first, "created") >= {
        ("collection favourites", "bea's collection favourites (Kavita)", "1 manga"),
        ("collection Later", "cy's collection Later", "1 manga"),
        ("rating: Long Scroll by cy", "Long Scroll: 5 of 5", "rated there"),
        ("want to read: Long Scroll by bea", "bea's want to read: Long Scroll", "on the list there")}
    assert lines(first, "not_found") >= {
        ("collection Later: Star Sea", "", "no manga named Star Sea that cy may see"),
        ("rating: Star Sea", "", "no manga named Star Sea"),
        ("want to read: Nowhere", "", "no manga named Nowhere")}
    assert first.counts["unchanged"] == 1  # bea's own rating of Moon Garden
    done = apply.apply(first)
    assert (done["collections"], done["ratings"], done["wants"]) == (3, 1, 1)
    items = {(c["name"], c["owner"]): c for c in collections.all_items()}
    assert items[("Favourites", "admin")]["members"] == ["Long Scroll", "Moon Garden"]
    assert items[("favourites (Kavita)", "bea")]["members"] == ["Moon Garden"]
    assert items[("Later", "cy")]["members"] == ["Long Scroll"]  # found by its title
    assert ratings.rating("bea", "Moon Garden")["mine"] == 2 and ratings.rating("cy", "Long Scroll")["mine"] == 5
    assert wanttoread.listed("bea") == ["Long Scroll"]

    again = plan.build(source())
    assert again.changes == 0 and not again.lists["created"] and not again.lists["matched"][2:]
    assert apply.apply(again)["backup"] is None
    assert len(collections.all_items()) == 3


def test_a_collection_of_a_user_not_in_the_source_is_not_found(server):
    s = Source("kavita", "kavita.db")
    s.add_collection("9", "Ghosts", ["Moon Garden"], ordered=False, shared=False)
    s.add_rating("9", "Moon Garden", 3)
    p = plan.Plan("kavita", "kavita.db")
    from imports import plan_lists

    plan_lists.plan_collections(p, None, s, {})
    plan_lists.plan_ratings(p, None, s, {})
    assert lines(p, "not_found") == {("collection Ghosts", "", "its user is not in the database"),
                                     ("rating: Moon Garden", "", "its user is not in the database")}
    assert p.changes == 0
