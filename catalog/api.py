"""The curators' JSON API under /api/admin/catalog (admins only; docs/catalog.md, docs/api.md).

Every change carries `rev`, the catalog revision the curator last saw: a stale one gets 409.
"""
from django.http import JsonResponse
from django.utils.translation import gettext as _

from library import index as library_index
from mangacircus.errors import Invalid
from mangacircus.http import api, field, text_field

from . import groups, overrides, proposals, relations, store


def _rev(data):
    rev = field(data, "rev", int)
    if rev < 0:
        raise Invalid(_("rev must be a whole number from 0"))
    return rev


def present(name, index=None):
    return (index or library_index.current()).get(name) is not None


def overview(history=100):
    """Everything a curator sees, with each named manga marked present or missing."""
    index = library_index.current()
    with store.read() as data:
        rev = data["rev"]
        hist = [dict(h) for h in data["history"][-history:]][::-1] if history else []
        over = {name: dict(v) for name, v in data["overrides"].items() if isinstance(v, dict)}
    rels = relations.all_relations()
    for r in rels:
        r["aMissing"], r["bMissing"] = not present(r["a"], index), not present(r["b"], index)
    grps = groups.all_groups()
    for g in grps:
        g["missing"] = [m for m in g["members"] if not present(m, index)]
    return {"rev": rev, "relations": rels, "groups": grps, "overrides": over,
            "proposals": proposals.open_proposals(), "history": hist}


@api(auth="admin")
def catalog(request):
    return overview()


def _by(request):
    return request.account["name"]


@api(auth="admin", methods=("POST",))
def add_relation(request):
    d = request.data
    was = field(d, "was", dict, required=False)
    rel = relations.add(_by(request), d.get("a"), d.get("type"), d.get("b"),
                        note=text_field(d, "note", required=False, default=""), rev=_rev(d),
                        was=(was.get("a"), was.get("type"), was.get("b")) if was else None)
    return {"relation": rel, "rev": store.revision()}


@api(auth="admin", methods=("POST",))
def delete_relation(request):
    d = request.data
    relations.delete(_by(request), d.get("a"), d.get("type"), d.get("b"), rev=_rev(d))
    return {"rev": store.revision()}


@api(auth="admin", methods=("POST",))
def save_group(request):
    d = request.data
    fields = {k: d[k] for k in ("name", "description", "members", "ordered") if k in d}
    if d.get("id"):
        group = groups.update(_by(request), text_field(d, "id", max_length=40), fields, rev=_rev(d))
    else:
        group = groups.create(_by(request), fields, rev=_rev(d))
    return {"group": group, "rev": store.revision()}


@api(auth="admin", methods=("POST",))
def move_member(request):
    d = request.data
    group = groups.move(_by(request), text_field(d, "id", max_length=40), text_field(d, "member"),
                        field(d, "to", int), rev=_rev(d))
    return {"group": group, "rev": store.revision()}


@api(auth="admin", methods=("POST",))
def delete_group(request):
    d = request.data
    groups.delete(_by(request), text_field(d, "id", max_length=40), rev=_rev(d))
    return {"rev": store.revision()}


@api(auth="admin", methods=("POST",))
def set_override(request):
    d = request.data
    name = text_field(d, "m")
    manga = library_index.current().get(name)
    fields = {k: v for k, v in d.items() if k not in ("m", "rev")}
    value = overrides.set_override(_by(request), name, fields, manga=manga, rev=_rev(d))
    return {"m": name, "override": value, "rev": store.revision()}


@api(auth="admin", methods=("POST",))
def import_proposals(request):
    """A research batch: all or nothing; 400 with {error, errors: [{index, field, reason}]}."""
    try:
        result = proposals.import_batch(_by(request), request.data)
    except proposals.BatchInvalid as e:
        return JsonResponse({"error": e.message, "errors": e.errors}, status=400)
    return {**result, "rev": store.revision()}


@api(auth="admin", methods=("POST",))
def decide(request):
    d = request.data
    proposal = proposals.decide(_by(request), text_field(d, "id", max_length=40), field(d, "accept", bool),
                                reason=text_field(d, "reason", required=False, default=""), rev=_rev(d))
    return {"proposal": proposal, "rev": store.revision()}
