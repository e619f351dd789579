"""Relations: inverses kept under every operation, refusals naming the problem."""
import random

import pytest

from catalog import relations, store
from mangacircus.errors import Conflict, Invalid, NotFound

NAMES = ["Moon Garden", "Moon Garden: Winter", "Long Scroll", "Gone Away", "Fox"]
INVERSE_OF = {**relations.CANONICAL, "prequel": "sequel", "source": "adaptation"}


def seen_pairs():
    """{(x, type, y)} as every manga sees its relations."""
    return {(x, r["type"], r["other"]) for x in NAMES for r in relations.of(x)}


def test_it_shows_the_inverse_on_the_other_side(catalog):
    relations.add("admin", "Moon Garden", "sequel", "Moon Garden: Winter")
    assert [(r["type"], r["other"]) for r in relations.of("Moon Garden: Winter")] == [("prequel", "Moon Garden")]
    relations.delete("admin", "Moon Garden: Winter", "prequel", "Moon Garden")  # from the other side
    assert relations.of("Moon Garden") == [] and relations.of("Moon Garden: Winter") == []


@pytest.mark.parametrize("seed", range(12))
def test_every_relation_has_its_inverse_under_random_operations(catalog, seed):
    rng = random.Random(seed)
    types = [t for t in relations.TYPES if t != "parent"]
    for _ in range(120):
        a, b = rng.sample(NAMES, 2)
        type_ = rng.choice(types)
        try:
            if rng.random() < 0.65:
                relations.add("admin", a, type_, b)
            else:
                relations.delete("admin", a, type_, b)
        except (Invalid, NotFound):
            pass
        pairs = seen_pairs()
        for x, t, y in pairs:
            if t == "parent":
                assert any((y, kind, x) in pairs for kind in ("side-story", "spin-off"))
            else:
                assert (y, INVERSE_OF[t], x) in pairs
            if t not in relations.SYMMETRIC:  # never both ways round
                assert (y, t, x) not in pairs
    assert len(relations.all_relations()) == len({(r["a"], r["type"], r["b"]) for r in relations.all_relations()})


@pytest.mark.parametrize(("a", "type_", "b", "words"), [
    ("Fox", "sequel", "Fox", "itself"),
    ("Fox", "remake", "Moon Garden", "not a relation type"),
    ("Fox", "parent", "Moon Garden", "inverse of both side-story and spin-off"),
    ("", "sequel", "Fox", "a must be"),
])
def test_it_refuses_bad_relations_naming_the_problem(catalog, a, type_, b, words):
    with pytest.raises(Invalid, match=words):
        relations.add("admin", a, type_, b)


def test_it_refuses_a_contradiction_and_a_duplicate(catalog):
    relations.add("admin", "Moon Garden", "sequel", "Fox")
    with pytest.raises(Invalid, match="cannot be both prequel and sequel"):
        relations.add("admin", "Fox", "sequel", "Moon Garden")
    with pytest.raises(Invalid, match="already in the catalog"):
        relations.add("admin", "Fox", "prequel", "Moon Garden")
    relations.add("admin", "Fox", "alternate", "Moon Garden")
    with pytest.raises(Invalid, match="already in the catalog"):
        relations.add("admin", "Moon Garden", "alternate", "Fox")


def test_it_refuses_a_stale_revision_and_changes_nothing(catalog):
    rev = store.revision()
    relations.add("admin", "Moon Garden", "sequel", "Fox", rev=rev)
    with pytest.raises(Conflict, match="changed since"):
        relations.add("admin", "Moon Garden", "sequel", "Long Scroll", rev=rev)
    assert [r["b"] for r in relations.all_relations()] == ["Fox"]


def test_it_keeps_a_bounded_history_of_who_did_what(catalog, monkeypatch):
    monkeypatch.setattr(store, "HISTORY", 5)
    for name in NAMES[1:]:
        relations.add("curator", "Moon Garden", "same-universe", name)
    relations.delete("curator", "Fox", "same-universe", "Moon Garden")
    with store.read() as data:
        history = list(data["history"])
    assert len(history) == 5
    assert history[-1]["by"] == "curator" and history[-1]["what"] == "deleted relation: Fox same-universe Moon Garden"
