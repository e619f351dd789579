"""The `collections` section of db.json: named, ordered sets of manga (docs/using.md, "Collections").

collections[id] = {"id", "name", "summary", "ordered", "owner", "shared", "members": [manga names],
"cover": a member's name or None, "created", "modified"}. The id ("c" + 20 base32 characters) is made
once and stored, so the apps' ids stay what they were. An admin's collection is shared by default, a
user's private unless they share it. Who sees one: its owner, and everyone when it is shared. Who
changes one: its owner, and the admins when it is shared (an owner's deletion leaves their shared
collections to the admins, owner None, and takes their private ones with it).

Members a user may not see (reader/access.py) or that are gone from the library are left out of
everything that user is shown, counts included; an edit by someone who cannot see them keeps them.
"""
from __future__ import annotations

import base64
import secrets
from typing import Any

from django.utils.translation import gettext as _

from mangacircus import db
from mangacircus import moves as moved
from mangacircus.clock import now_ms
from mangacircus.errors import Forbidden, Invalid, NotFound
from mangacircus.moves import Move

from . import access

MAX_COLLECTIONS = 2000  # in the whole server
MAX_MEMBERS = 10_000
MAX_NAME = 100
MAX_SUMMARY = 2000

Account = dict[str, Any]  # the request's account: {"name", "admin", …}


def new_id() -> str:
    return "c" + base64.b32encode(secrets.token_bytes(15)).decode()[:20].lower()


def validate(data: dict[str, Any]) -> None:
    for cid, item in data.get("collections", {}).items():
        if not (isinstance(item, dict) and item.get("id") == cid and isinstance(item.get("name"), str)
                and isinstance(item.get("members"), list)):
            raise ValueError(f'collections["{cid}"] must have its id, a name and a list of members')


def forget_user(name: str) -> None:
    """events.user_deleted (under db.lock())."""
    forget_owner(db.section("collections"), name)


def forget_owner(section: dict[str, Any], name: str) -> None:
    """A deleted owner's shared items go to the admins (owner None), their private ones with them
    (collections, and read lists: reader/readlists.py)."""
    for cid, item in list(section.items()):
        if item.get("owner") == name:
            if item.get("shared"):
                item["owner"] = None
            else:
                del section[cid]


def on_moved(moves: list[Move]) -> None:
    """events.library_moved (under db.lock()): members and covers follow a renamed manga."""
    renamed = {m.old: m.new for m in moves if m.old != m.new}
    for item in db.section("collections").values():
        moved.names(item["members"], moves)
        if item.get("cover") in renamed:
            item["cover"] = renamed[item["cover"]]


def sees(account: Account, item: dict[str, Any]) -> bool:
    return bool(item.get("shared")) or item.get("owner") == account["name"]


def can_edit(account: Account, item: dict[str, Any]) -> bool:
    return item.get("owner") == account["name"] or bool(account.get("admin") and item.get("shared"))


def _copy(item: dict[str, Any]) -> dict[str, Any]:
    return {**item, "members": list(item["members"])}


def visible(account: Account) -> list[dict[str, Any]]:
    """Copies of the collections the account sees, by name (members unfiltered: see `members`)."""
    with db.lock():
        found = [_copy(i) for i in db.section("collections").values() if sees(account, i)]
    return sorted(found, key=lambda i: (i["name"].casefold(), i["id"]))


def get(account: Account, cid: str) -> dict[str, Any]:
    """A copy of one collection the account sees, or NotFound (one it may not see reads as missing)."""
    with db.lock():
        item = db.section("collections").get(cid) if isinstance(cid, str) else None
        if item is None or not sees(account, item):
            raise NotFound(_("no collection with id %(cid)s") % {"cid": cid})
        return _copy(item)


def members(account: Account, item: dict[str, Any], exists: Any) -> list[str]:
    """The members the account may see and `exists(name)` finds in the library, in stored order
    (a collection that is not `ordered` is shown by title: the caller sorts it)."""
    sees = access.visible(account["name"])
    return [n for n in item["members"] if sees(n) and exists(n)]


def cover(item: dict[str, Any], shown: list[str]) -> str | None:
    """The member whose cover the collection shows: the one chosen while it is shown, else the first."""
    chosen = item.get("cover")
    return chosen if chosen in shown else (shown[0] if shown else None)


def containing(account: Account, name: str) -> list[dict[str, Any]]:
    """The collections the account sees that hold the manga `name`."""
    return [i for i in visible(account) if name in i["members"]]


def check_text(value: Any, field: str, limit: int, *, empty: bool) -> str:
    if not isinstance(value, str):
        raise Invalid(_("%(field)s must be a string") % {"field": field})
    value = value.strip()
    if not value and not empty:
        raise Invalid(_("%(field)s must not be empty") % {"field": field})
    if len(value) > limit:
        raise Invalid(_("%(field)s is longer than %(limit)s characters") % {"field": field, "limit": limit})
    return value


def _check_name(account: Account, name: str, but: str | None = None) -> None:
    for item in db.section("collections").values():
        if item["id"] != but and sees(account, item) and item["name"].casefold() == name.casefold():
            raise Invalid(_("a collection named %(name)s exists already") % {"name": item['name']})


def _names(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(n, str) and n for n in value):
        raise Invalid(_("members must be a list of manga names"))
    if len(value) > MAX_MEMBERS:
        raise Invalid(_("a collection holds at most %(max_members)s manga") % {"max_members": MAX_MEMBERS})
    return list(dict.fromkeys(value))


def create(account: Account, name: Any, *, summary: Any = "", ordered: Any = True, shared: Any = None,
           members: Any = ()) -> dict[str, Any]:
    """A new collection owned by the account; `members` are names the caller checked exist and the
    account sees. `shared` None: shared for an admin, private for a user."""
    name = check_text(name, "name", MAX_NAME, empty=False)
    summary = check_text(summary, "summary", MAX_SUMMARY, empty=True)
    if not isinstance(ordered, bool):
        raise Invalid(_("ordered must be true or false"))
    if shared is None:
        shared = bool(account.get("admin"))
    if not isinstance(shared, bool):
        raise Invalid(_("shared must be true or false"))
    names = _names(list(members))
    with db.lock():
        section = db.section("collections")
        if len(section) >= MAX_COLLECTIONS:
            raise Invalid(_("this server holds at most %(max_collections)s collections; delete some first")
                          % {"max_collections": MAX_COLLECTIONS})
        _check_name(account, name)
        now = now_ms()
        item = {"id": new_id(), "name": name, "summary": summary, "ordered": ordered, "owner": account["name"],
                "shared": shared, "members": names, "cover": None, "created": now, "modified": now}
        section[item["id"]] = item
        db.touch()
        return _copy(item)


def all_items() -> list[dict[str, Any]]:
    """Copies of every collection (imports/: a plan matches those of the same name)."""
    with db.lock():
        return [_copy(item) for item in db.section("collections").values()]


def import_many(items: list[dict[str, Any]]) -> int:
    """Collections brought from another server (imports/), in one pass under the lock: a new one
    {id: None, name, summary, ordered, owner (None: the whole server's), shared, members}, or
    {id, members} whose members not in it yet are appended; -> how many were written."""
    with db.lock():
        section = db.section("collections")
        now = now_ms()
        if len(section) + sum(1 for i in items if i["id"] is None) > MAX_COLLECTIONS:
            raise Invalid(_("this server holds at most %(max_collections)s collections; the import would pass it")
                          % {"max_collections": MAX_COLLECTIONS})
        for wanted in items:
            if wanted["id"] is None:
                item = {"id": new_id(), "name": wanted["name"][:MAX_NAME], "summary": wanted["summary"][:MAX_SUMMARY],
                        "ordered": wanted["ordered"], "owner": wanted["owner"], "shared": wanted["shared"],
                        "members": list(dict.fromkeys(wanted["members"]))[:MAX_MEMBERS], "cover": None,
                        "created": now, "modified": now}
                section[item["id"]] = item
            else:
                item = section[wanted["id"]]
                room = MAX_MEMBERS - len(item["members"])
                item["members"] += [m for m in wanted["members"] if m not in item["members"]][:room]
                item["modified"] = now
        if items:
            db.touch()
        return len(items)


def _editable(account: Account, cid: str) -> dict[str, Any]:
    item = db.section("collections").get(cid) if isinstance(cid, str) else None
    if item is None or not sees(account, item):
        raise NotFound(_("no collection with id %(cid)s") % {"cid": cid})
    if not can_edit(account, item):
        raise Forbidden(_("only its owner (or an admin, when it is shared) changes this collection"))
    return item


def update(account: Account, cid: str, changes: dict[str, Any]) -> dict[str, Any]:
    """Change the fields present in `changes` (name, summary, ordered, shared, members, cover).
    `members` is the new order of what the account sees; members hidden from it keep their place
    at the end. Only the owner shares or unshares."""
    with db.lock():
        item = _editable(account, cid)
        new = dict(item)
        if "name" in changes:
            new["name"] = check_text(changes["name"], "name", MAX_NAME, empty=False)
            _check_name(account, new["name"], but=cid)
        if "summary" in changes:
            new["summary"] = check_text(changes["summary"], "summary", MAX_SUMMARY, empty=True)
        if "ordered" in changes:
            if not isinstance(changes["ordered"], bool):
                raise Invalid(_("ordered must be true or false"))
            new["ordered"] = changes["ordered"]
        if "shared" in changes:
            if not isinstance(changes["shared"], bool):
                raise Invalid(_("shared must be true or false"))
            if changes["shared"] != item.get("shared") and item.get("owner") != account["name"]:
                raise Forbidden(_("only its owner shares or unshares a collection"))
            new["shared"] = changes["shared"]
        if "members" in changes:
            sees = access.visible(account["name"])
            given = [n for n in _names(changes["members"]) if sees(n)]
            kept = [n for n in item["members"] if not sees(n) and n not in given]
            new["members"] = _names(given + kept)
        if "cover" in changes:
            chosen = changes["cover"]
            if chosen is not None and chosen not in new["members"]:
                raise Invalid(_("cover must name a member of the collection, or be null"))
            new["cover"] = chosen
        new["modified"] = now_ms()
        item.clear()
        item.update(new)
        db.touch()
        return _copy(item)


def add(account: Account, cid: str, names: list[str]) -> dict[str, Any]:
    """Append the manga not in the collection yet (names the caller checked)."""
    with db.lock():
        item = _editable(account, cid)
        fresh = [n for n in dict.fromkeys(names) if n not in item["members"]]
        if len(item["members"]) + len(fresh) > MAX_MEMBERS:
            raise Invalid(_("a collection holds at most %(max_members)s manga") % {"max_members": MAX_MEMBERS})
        item["members"] += fresh
        item["modified"] = now_ms()
        db.touch()
        return _copy(item)


def remove(account: Account, cid: str, names: list[str]) -> dict[str, Any]:
    with db.lock():
        item = _editable(account, cid)
        gone = set(names)
        item["members"] = [n for n in item["members"] if n not in gone]
        if item.get("cover") in gone:
            item["cover"] = None
        item["modified"] = now_ms()
        db.touch()
        return _copy(item)


def delete(account: Account, cid: str) -> None:
    with db.lock():
        _editable(account, cid)
        del db.section("collections")[cid]
        db.touch()
