"""Relations between manga, each stored once and seen from both sides.

A relation is stored in its canonical direction ({"a", "type", "b"} with a canonical type, and
a symmetric one with a ≤ b), so its inverse cannot disagree with it: "B prequel A" is the stored
"A sequel B" read from B, and deleting either side deletes the one record. Names need not be in
the library: a relation to a missing manga is kept and shown as missing.
"""
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

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
    "sequel": gettext_lazy("Sequel"), "prequel": gettext_lazy("Prequel"), "side-story": gettext_lazy("Side story"),
    "spin-off": gettext_lazy("Spin-off"), "parent": gettext_lazy("Parent story"),
    "alternate": gettext_lazy("Alternate version"), "adaptation": gettext_lazy("Adaptation"),
    "source": gettext_lazy("Source"), "same-universe": gettext_lazy("Same universe"),
}
MAX_NAME = 1000
MAX_NOTE = 1000


def _name(value, field):
    if not isinstance(value, str) or not value.strip():
        raise Invalid(_("%(field)s must be a manga name") % {"field": field})
    if len(value) > MAX_NAME:
        raise Invalid(_("%(field)s is longer than %(limit)s characters") % {"field": field, "limit": MAX_NAME})
    return value.strip()


def canonical(a, type_, b):
    """(a, type, b) in stored form; Invalid for a relation to itself or an unknown or ambiguous type."""
    a, b = _name(a, "a"), _name(b, "b")
    if not isinstance(type_, str) or type_ not in TYPES:
        raise Invalid(_("type %(type)s is not a relation type (%(types)s)")
                      % {"type": repr(type_), "types": ", ".join(sorted(TYPES))})
    if a == b:
        raise Invalid(_("%(name)s cannot be related to itself") % {"name": a})
    if type_ == "parent":
        raise Invalid(_("parent is the inverse of both side-story and spin-off: add it from the other side, "
                        "as “%(b)s side-story %(a)s” or “%(b)s spin-off %(a)s”") % {"a": a, "b": b})
    if type_ in INVERSES:
        a, type_, b = b, INVERSES[type_], a
    if type_ in SYMMETRIC and b < a:
        a, b = b, a
    return a, type_, b


class Duplicate(Invalid):
    """The relation is in the catalog already (a caller that offers relations skips it quietly)."""


def _same(rel, a, type_, b):
    return rel["a"] == a and rel["type"] == type_ and rel["b"] == b


def problem(relations, a, type_, b):
    """Why (a, type, b), canonical, cannot be added to `relations`, or None."""
    family = FAMILY.get(type_)
    for rel in relations:
        if _same(rel, a, type_, b):
            return _("%(a)s %(type)s %(b)s is already in the catalog") % {"a": a, "type": type_, "b": b}
        if family is None or FAMILY.get(rel["type"]) != family:
            continue
        if rel["a"] == b and rel["b"] == a:
            return (_("%(a)s %(type)s %(b)s contradicts %(b)s %(other)s %(a)s: "
                      "%(a)s cannot be both %(inverse)s and %(other)s of %(b)s")
                    % {"a": a, "type": type_, "b": b, "other": rel["type"], "inverse": CANONICAL[type_]})
        if rel["a"] == a and rel["b"] == b:
            return (_("%(a)s %(type)s %(b)s contradicts %(a)s %(other)s %(b)s: delete that one first")
                    % {"a": a, "type": type_, "b": b, "other": rel["type"]})
    return None


def add(by, a, type_, b, note="", rev=None, was=None):
    """Add a relation (either direction); returns it as stored. `was` (a, type, b): the relation it
    replaces, in the same change (an edit of its type, direction or note)."""
    a, type_, b = canonical(a, type_, b)
    if not isinstance(note, str) or len(note) > MAX_NOTE:
        raise Invalid(_("note must be text of at most %(max)s characters") % {"max": MAX_NOTE})
    old = canonical(*was) if was else None
    with store.edit(by, rev) as change:
        relations = change.data["relations"]
        others = relations
        if old:
            others = [r for r in relations if not _same(r, *old)]
            if len(others) == len(relations):
                raise NotFound(_("there is no relation %(relation)s") % {"relation": " ".join(old)})
        found = problem(others, a, type_, b)
        if found:
            raise (Duplicate if any(_same(r, a, type_, b) for r in others) else Invalid)(found)
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
            raise NotFound(_("there is no relation %(relation)s") % {"relation": f"{a} {type_} {b}"})
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
        item["label"] = str(LABELS.get(item["type"], item["type"]))
    seen.sort(key=lambda r: (r["type"], r["other"].casefold(), r["other"]))
    return seen
