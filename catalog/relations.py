"""Relations between manga, each stored once and seen from both sides.

A relation is stored in its canonical direction ({"a", "type", "b"} with a canonical type, and
a symmetric one with a ≤ b), so its inverse cannot disagree with it: "B prequel A" is the stored
"A sequel B" read from B, and deleting either side deletes the one record. Names need not be in
the library: a relation to a missing manga is kept and shown as missing.
"""
from mangacircus.clock import now_ms
from mangacircus.errors import Invalid, NotFound

from . import store

# canonical type → its inverse (what b is to a)
CANONICAL = {
    "sequel": "prequel",
    "side-story": "parent",
    "spin-off": "parent",
    "alternate": "alternate",
    "adaptation": "source",
    "same-universe": "same-universe",
}
# an inverse type given by a curator → the canonical type it stands for (stored swapped)
INVERSES = {"prequel": "sequel", "source": "adaptation"}
SYMMETRIC = {"alternate", "same-universe"}
# types that say the same kind of thing about an ordered pair: one pair holds at most one of a family
FAMILY = {"sequel": "order", "side-story": "derived", "spin-off": "derived", "adaptation": "adapted"}
TYPES = tuple(CANONICAL) + tuple(INVERSES) + ("parent",)
LABELS = {
    "sequel": "Sequel", "prequel": "Prequel", "side-story": "Side story", "spin-off": "Spin-off",
    "parent": "Parent story", "alternate": "Alternate version", "adaptation": "Adaptation",
    "source": "Source", "same-universe": "Same universe",
}
MAX_NAME = 1000
MAX_NOTE = 1000


def _name(value, field):
    if not isinstance(value, str) or not value.strip():
        raise Invalid(f"{field} must be a manga name")
    if len(value) > MAX_NAME:
        raise Invalid(f"{field} is longer than {MAX_NAME} characters")
    return value.strip()


def canonical(a, type_, b):
    """(a, type, b) in stored form; Invalid for a relation to itself or an unknown or ambiguous type."""
    a, b = _name(a, "a"), _name(b, "b")
    if not isinstance(type_, str) or type_ not in TYPES:
        raise Invalid(f"type {type_!r} is not a relation type ({', '.join(sorted(TYPES))})")
    if a == b:
        raise Invalid(f"{a} cannot be related to itself")
    if type_ == "parent":
        raise Invalid(f"parent is the inverse of both side-story and spin-off: add it from the other side, "
                      f"as “{b} side-story {a}” or “{b} spin-off {a}”")
    if type_ in INVERSES:
        a, type_, b = b, INVERSES[type_], a
    if type_ in SYMMETRIC and b < a:
        a, b = b, a
    return a, type_, b


def _same(rel, a, type_, b):
    return rel["a"] == a and rel["type"] == type_ and rel["b"] == b


def problem(relations, a, type_, b):
    """Why (a, type, b), canonical, cannot be added to `relations`, or None."""
    family = FAMILY.get(type_)
    for rel in relations:
        if _same(rel, a, type_, b):
            return f"{a} {type_} {b} is already in the catalog"
        if family is None or FAMILY.get(rel["type"]) != family:
            continue
        if rel["a"] == b and rel["b"] == a:
            return (f"{a} {type_} {b} contradicts {b} {rel['type']} {a}: "
                    f"{a} cannot be both {CANONICAL[type_]} and {rel['type']} of {b}")
        if rel["a"] == a and rel["b"] == b:
            return f"{a} {type_} {b} contradicts {a} {rel['type']} {b}: delete that one first"
    return None


def add(by, a, type_, b, note="", rev=None, was=None):
    """Add a relation (either direction); returns it as stored. `was` (a, type, b): the relation it
    replaces, in the same change (an edit of its type, direction or note)."""
    a, type_, b = canonical(a, type_, b)
    if not isinstance(note, str) or len(note) > MAX_NOTE:
        raise Invalid(f"note must be text of at most {MAX_NOTE} characters")
    old = canonical(*was) if was else None
    with store.edit(by, rev) as change:
        relations = change.data["relations"]
        others = relations
        if old:
            others = [r for r in relations if not _same(r, *old)]
            if len(others) == len(relations):
                raise NotFound(f"there is no relation {' '.join(old)}")
        found = problem(others, a, type_, b)
        if found:
            raise Invalid(found)
        record = {"a": a, "type": type_, "b": b, "note": note.strip(), "by": by, "t": now_ms()}
        relations[:] = others + [record]
        change.what = (f"changed relation {' '.join(old)} to {a} {type_} {b}" if old
                       else f"added relation: {a} {type_} {b}")
        change.names = {a, b} | (set(old[::2]) if old else set())
    return dict(record)


def delete(by, a, type_, b, rev=None):
    """Delete a relation, named from either side."""
    a, type_, b = canonical(a, type_, b)
    with store.edit(by, rev) as change:
        relations = change.data["relations"]
        kept = [r for r in relations if not _same(r, a, type_, b)]
        if len(kept) == len(relations):
            raise NotFound(f"there is no relation {a} {type_} {b}")
        relations[:] = kept
        change.what = f"deleted relation: {a} {type_} {b}"
        change.names = {a, b}


def all_relations():
    with store.read() as data:
        return [dict(r) for r in data["relations"]]


def of(name, relations=None):
    """Every relation of `name`, seen from it: [{type, label, other, note}], by type then name."""
    if relations is None:
        with store.read() as data:  # copy only this manga's relations, not the whole list
            relations = [dict(r) for r in data["relations"] if r["a"] == name or r["b"] == name]
    seen = []
    for rel in relations:
        if rel["a"] == name:
            seen.append({"type": rel["type"], "other": rel["b"], "note": rel.get("note", ""), "stored": rel})
        elif rel["b"] == name:
            seen.append({"type": CANONICAL.get(rel["type"], rel["type"]), "other": rel["a"],
                         "note": rel.get("note", ""), "stored": rel})
    for item in seen:
        item["label"] = LABELS.get(item["type"], item["type"])
    seen.sort(key=lambda r: (r["type"], r["other"].casefold(), r["other"]))
    return seen
