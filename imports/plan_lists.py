"""The dry run's collections, ratings and want-to-read (docs/import.md): each found here by its
series, each with its line in the plan, and what reader.collections, reader.ratings and
reader.wanttoread will be handed (apply.py)."""
from accounts import users
from reader import access, collections, ratings, readlists, wanttoread


def _fold(text):
    return str(text).casefold().strip()


def series_label(ref):
    return ref if isinstance(ref, str) else ref.get("name") or ref.get("title") or "?"


def find_manga(library, ref):
    """A series as the other server names it (a name, or {name, title, mangadex}) -> a Manga or None."""
    if isinstance(ref, str):
        ref = {"name": ref}
    manga = library.by_mangadex.get(ref.get("mangadex")) if ref.get("mangadex") else None
    for key in ("name", "title"):
        if manga is None and ref.get(key):
            manga = library.manga_named(ref[key])
    return manga


def _seen_by(user):
    """Whether `user` (an account here, maybe one the import makes) may see a manga."""
    return access.visible(user) if users.exists(user) else (lambda name: True)


def plan_collections(plan, library, source, account_of):
    stored = collections.all_items()
    taken = {}  # (owner or None, folded name) -> the collection it lands in
    for item in stored:
        taken.setdefault((item["owner"] if not item["shared"] else None, _fold(item["name"])), item)
    for wanted in source.collections:
        owner = account_of.get(wanted["owner"]) if wanted["owner"] is not None else None
        what = f"collection {wanted['name']}"
        if wanted["owner"] is not None and owner is None:
            plan.line("not_found", what, "", "its user is not in the database")
            continue
        sees = _seen_by(owner) if owner else (lambda name: True)
        members, missing = [], []
        for ref in wanted["series"]:
            manga = find_manga(library, ref)
            if manga is None or not sees(manga.name):
                missing.append(series_label(ref))
            elif manga.name not in members:
                members.append(manga.name)
        for name in missing:
            plan.line("not_found", f"{what}: {name}", "", f"no manga named {name}"
                      + (f" that {owner} may see" if owner else ""))
        key = (owner if not wanted["shared"] else None, _fold(wanted["name"]))
        # Made by an earlier import under its renamed name (_free_name) when the name was taken.
        existing = taken.get(key) or taken.get((key[0], _fold(_renamed(wanted["name"], source.kind))))
        whose = f"{owner}'s" if owner and not wanted["shared"] else "shared"
        if existing is not None:
            new = [m for m in members if m not in existing["members"]]
            if not new:
                plan.counts["unchanged"] += 1
                continue
            existing = {**existing, "members": existing["members"] + new}
            taken[key] = existing
            plan.collections.append({"id": existing["id"], "members": new})
            plan.line("matched", what, f"{whose} collection {existing['name']}",
                      f"a collection of that name exists; {len(new)} manga added")
            continue
        name = _free_name(wanted["name"], owner, stored, source.kind)
        item = {"id": None, "name": name, "summary": wanted["summary"], "ordered": wanted["ordered"],
                "owner": owner, "shared": wanted["shared"] or owner is None, "members": members}
        taken[key] = item
        plan.collections.append(item)
        plan.line("created", what, f"{whose} collection {name}", f"{len(members)} manga"
                  + ("" if owner else "; the admins edit it here, as a collection of the whole server"))


def _free_name(name, owner, stored, kind):
    """The collection's name, unless another collection its owner sees has it (names are unique among
    those one sees): then "<name> (<Source>)"."""
    clash = any(_fold(i["name"]) == _fold(name) and (i["shared"] or i["owner"] == owner) for i in stored)
    return _renamed(name, kind) if clash else name


def _renamed(name, kind):
    return f"{name} ({kind.capitalize()})"


def _found(plan, library, wanted, account_of, what):
    """(account here, Manga) of a rating or want-to-read entry, or None after its "not found" line."""
    user = account_of.get(wanted["user"])
    label = series_label(wanted["series"])
    manga = find_manga(library, wanted["series"]) if user else None
    if user is None:
        plan.line("not_found", what, "", "its user is not in the database")
    elif manga is None or not _seen_by(user)(manga.name):
        plan.line("not_found", what, "", f"no manga named {label}" + (f" that {user} may see" if manga else ""))
    else:
        return user, manga
    return None


def plan_ratings(plan, library, source, account_of):
    for wanted in source.ratings:
        what = f"rating: {series_label(wanted['series'])}"
        found = _found(plan, library, wanted, account_of, what)
        if found is None:
            continue
        user, manga = found
        if users.exists(user) and ratings.rating(user, manga.name)["mine"]:
            plan.counts["unchanged"] += 1  # a rating given here is kept
        elif (user, manga.name) not in {(u, m) for u, m, _ in plan.ratings}:
            plan.ratings.append((user, manga.name, wanted["stars"]))
            plan.line("created", f"{what} by {user}", f"{manga.name}: {wanted['stars']} of 5", "rated there")


def plan_wants(plan, library, source, account_of):
    for wanted in source.wants:
        what = f"want to read: {series_label(wanted['series'])}"
        found = _found(plan, library, wanted, account_of, what)
        if found is None:
            continue
        user, manga = found
        if (users.exists(user) and wanttoread.wants(user, manga.name)) or (user, manga.name) in plan.wants:
            plan.counts["unchanged"] += 1
        else:
            plan.wants.append((user, manga.name))
            plan.line("created", f"{what} by {user}", f"{user}'s want to read: {manga.name}", "on the list there")


def plan_readlists(plan, library, source, account_of):
    """Read lists: each book found as a position's chapter is (library.find); one of that name that
    the same owner has here (any shared one, for a shared list) is filled instead of made twice."""
    stored = readlists.all_items()
    taken = {(None if i["shared"] else i["owner"], _fold(i["name"])): i for i in stored}
    for wanted in source.readlists:
        owner = account_of.get(wanted["owner"]) if wanted["owner"] is not None else None
        what = f"read list {wanted['name']}"
        if wanted["owner"] is not None and owner is None:
            plan.line("not_found", what, "", "its user is not in the database")
            continue
        sees = _seen_by(owner) if owner else (lambda name: True)
        items = []
        for book in wanted["books"]:
            hit, how = library.find({"mangadex": None, "chapter": None, **book})
            label = book.get("what") or book.get("path") or f"{book['series']} #{book['number']}"
            if hit is None or not sees(hit[0].name):
                why = how if hit is None else f"{hit[0].name} is hidden from {owner}"
                plan.line("not_found", f"{what}: {label}", "", why)
            elif (hit[0].name, hit[1].id) not in items:
                items.append((hit[0].name, hit[1].id))
        key = (None if wanted["shared"] or owner is None else owner, _fold(wanted["name"]))
        existing = taken.get(key)
        whose = f"{owner}'s" if key[0] else "shared"
        if existing is not None:
            there = {tuple(i) for i in existing["items"]}
            new = [i for i in items if i not in there]
            if not new:
                plan.counts["unchanged"] += 1
                continue
            existing["items"] = existing["items"] + [list(i) for i in new]
            plan.readlists.append({"id": existing["id"], "items": new})
            plan.line("matched", what, f"{whose} read list {existing['name']}",
                      f"a read list of that name exists; {len(new)} chapter(s) added")
            continue
        item = {"id": None, "name": wanted["name"], "summary": wanted["summary"], "owner": owner,
                "shared": wanted["shared"] or owner is None, "items": items}
        taken[key] = {**item, "items": [list(i) for i in items]}
        plan.readlists.append(item)
        plan.line("created", what, f"{whose} read list {wanted['name']}", f"{len(items)} chapter(s)"
                  + ("" if owner else "; the admins edit it here, as a list of the whole server"))
