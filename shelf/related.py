"""The catalog as a reader sees it on a manga page: relations and groups with links to the
members in the library and the missing ones marked (names only: a missing manga has no page)."""
from catalog import groups, overrides, relations
from reader import access, lookup


def _member(index, name):
    manga = index.get(name)
    if manga is None:
        return {"name": name, "title": name, "url": None, "missing": True}
    return {"name": name, "title": overrides.title(manga), "url": lookup.manga_url(name), "missing": False}


def sections(name, index=None, user=None):
    """{"relations": [{type, label, note, name, title, url, missing}], "groups": [{id, name, description,
    ordered, members: [member + current]}]} of the manga `name`. A member hidden from `user` by a
    restriction is left out, as if the catalog did not name it."""
    index = index if index is not None else lookup.current()
    see = access.visible(user) if user is not None else (lambda other: True)
    rels = [{"type": r["type"], "label": r["label"], "note": r["note"], **_member(index, r["other"])}
            for r in relations.of(name) if see(r["other"])]
    found = []
    for group in groups.of(name):
        members = [{**_member(index, m), "current": m == name} for m in group["members"] if see(m)]
        found.append({"id": group["id"], "name": group["name"], "description": group["description"],
                      "ordered": group["ordered"], "members": members})
    return {"relations": rels, "groups": found}
