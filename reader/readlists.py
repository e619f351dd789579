"""The `readlists` section of db.json: ordered lists of chapters across manga (a crossover event, a
franchise's chronology; docs/using.md, "Read lists").

readlists[id] = {"id", "name", "summary", "owner", "shared", "items": [[manga name, chapter id]],
"created", "modified"}. The id ("r" + 20 base32 characters) is made once and stored, so the apps' ids
stay what they were. Who sees and who changes one is as for collections (reader/collections.py): its
owner, and everyone when it is shared; the admins change shared ones. A chapter appears once in a list.

Items a user may not see (reader/access.py) or that are gone from the library are left out of
everything that user is shown, counts included; an edit by someone who cannot see them keeps them.
"""
from __future__ import annotations

import base64
import secrets
from typing import Any

from django.utils.translation import gettext as _

from mangacircus import db
from mangacircus.clock import now_ms
from mangacircus.errors import Forbidden, Invalid, NotFound
from mangacircus.moves import Move

from . import access
from .collections import Account, can_edit, check_text, forget_owner, sees

MAX_LISTS = 2000  # in the whole server
MAX_ITEMS = 10_000
MAX_NAME = 100
MAX_SUMMARY = 2000

Item = tuple[str, str]  # (manga name, chapter id)


def new_id() -> str:
    return "r" + base64.b32encode(secrets.token_bytes(15)).decode()[:20].lower()


def validate(data: dict[str, Any]) -> None:
    for rid, item in data.get("readlists", {}).items():
        if not (isinstance(item, dict) and item.get("id") == rid and isinstance(item.get("name"), str)
                and isinstance(item.get("items"), list)
                and all(isinstance(i, list) and len(i) == 2 and all(isinstance(p, str) for p in i)
                        for i in item["items"])):
            raise ValueError(f'readlists["{rid}"] must have its id, a name and a list of [manga, chapter] items')


def forget_user(name: str) -> None:
    """events.user_deleted (under db.lock()): shared lists go to the admins, private ones with their owner."""
    forget_owner(db.section("readlists"), name)


def on_moved(moves: list[Move]) -> None:
    """events.library_moved (under db.lock()): items follow a renamed manga and renumbered chapters."""
    by_old = {m.old: m for m in moves}
    for item in db.section("readlists").values():
        moved = []
        for manga, cid in item["items"]:
            move = by_old.get(manga)
            moved.append([move.new, move.chapters.get(cid, cid)] if move else [manga, cid])
        item["items"] = [list(i) for i in dict.fromkeys(map(tuple, moved))]


def _copy(item: dict[str, Any]) -> dict[str, Any]:
    return {**item, "items": [list(i) for i in item["items"]]}


def visible(account: Account) -> list[dict[str, Any]]:
    """Copies of the read lists the account sees, by name (items unfiltered: see `items`)."""
    with db.lock():
        found = [_copy(i) for i in db.section("readlists").values() if sees(account, i)]
    return sorted(found, key=lambda i: (i["name"].casefold(), i["id"]))


def all_items() -> list[dict[str, Any]]:
    """Copies of every read list (imports/)."""
    with db.lock():
        return [_copy(i) for i in db.section("readlists").values()]


def get(account: Account, rid: str) -> dict[str, Any]:
    """A copy of one read list the account sees, or NotFound (one it may not see reads as missing)."""
    with db.lock():
        item = db.section("readlists").get(rid) if isinstance(rid, str) else None
        if item is None or not sees(account, item):
            raise NotFound(_("no read list with id %(rid)s") % {"rid": rid})
        return _copy(item)


def in_index(index: Any) -> Any:
    """exists(manga, chapter id) for `items`: whether `index` holds that chapter."""
    def exists(manga: str, cid: str) -> bool:
        found = index.get(manga)
        return found is not None and found.chapter(cid) is not None
    return exists


def items(account: Account, item: dict[str, Any], exists: Any) -> list[Item]:
    """The items the account may see and `exists(manga, chapter id)` finds in the library, in order."""
    sees = access.visible(account["name"])
    return [(m, c) for m, c in item["items"] if sees(m) and exists(m, c)]


def around(user: str, rid: str, manga: str, cid: str, index: Any) -> dict[str, Any] | None:
    """Where (manga, cid) is in the read list `rid` as `user` sees it: {id, name, position (from 1),
    count, prev, next}, prev and next each (Manga, Chapter) or None; None when the user does not see
    the list or the chapter is not in it (the reader then goes on in the manga, as without a list)."""
    try:
        item = get({"name": user}, rid)
    except NotFound:
        return None

    shown = items({"name": user}, item, in_index(index))
    if (manga, cid) not in shown:
        return None
    at = shown.index((manga, cid))

    def entry(k: int) -> Any:
        if not 0 <= k < len(shown):
            return None
        found = index.get(shown[k][0])
        return found, found.chapter(shown[k][1])

    return {"id": item["id"], "name": item["name"], "position": at + 1, "count": len(shown),
            "prev": entry(at - 1), "next": entry(at + 1)}


def containing(account: Account, manga: str, cid: str) -> list[dict[str, Any]]:
    return [i for i in visible(account) if [manga, cid] in i["items"]]


def _items(value: Any) -> list[Item]:
    if not isinstance(value, list) or not all(
            isinstance(i, (list, tuple)) and len(i) == 2 and all(isinstance(p, str) and p for p in i) for i in value):
        raise Invalid(_("items must be a list of [manga, chapter] pairs"))
    if len(value) > MAX_ITEMS:
        raise Invalid(_("a read list holds at most %(max_items)s chapters") % {"max_items": MAX_ITEMS})
    return list(dict.fromkeys((m, c) for m, c in value))


def _check_name(account: Account, name: str, but: str | None = None) -> None:
    for item in db.section("readlists").values():
        if item["id"] != but and sees(account, item) and item["name"].casefold() == name.casefold():
            raise Invalid(_("a read list named %(name)s exists already") % {"name": item['name']})


def create(account: Account, name: Any, *, summary: Any = "", shared: Any = None, items: Any = ()) -> dict[str, Any]:
    """A new read list owned by the account; `items` are chapters the caller checked exist and the
    account sees. `shared` None: shared for an admin, private for a user."""
    name = check_text(name, "name", MAX_NAME, empty=False)
    summary = check_text(summary, "summary", MAX_SUMMARY, empty=True)
    if shared is None:
        shared = bool(account.get("admin"))
    if not isinstance(shared, bool):
        raise Invalid(_("shared must be true or false"))
    chosen = _items(list(items))
    with db.lock():
        section = db.section("readlists")
        if len(section) >= MAX_LISTS:
            raise Invalid(_("this server holds at most %(max_lists)s read lists; delete some first")
                          % {"max_lists": MAX_LISTS})
        _check_name(account, name)
        now = now_ms()
        item = {"id": new_id(), "name": name, "summary": summary, "owner": account["name"], "shared": shared,
                "items": [list(i) for i in chosen], "created": now, "modified": now}
        section[item["id"]] = item
        db.touch()
        return _copy(item)


def _editable(account: Account, rid: str) -> dict[str, Any]:
    item = db.section("readlists").get(rid) if isinstance(rid, str) else None
    if item is None or not sees(account, item):
        raise NotFound(_("no read list with id %(rid)s") % {"rid": rid})
    if not can_edit(account, item):
        raise Forbidden(_("only its owner (or an admin, when it is shared) changes this read list"))
    return item


def update(account: Account, rid: str, changes: dict[str, Any]) -> dict[str, Any]:
    """Change the fields present in `changes` (name, summary, shared, items). `items` is the new
    order of what the account sees; items hidden from it keep their place at the end."""
    with db.lock():
        item = _editable(account, rid)
        new = dict(item)
        if "name" in changes:
            new["name"] = check_text(changes["name"], "name", MAX_NAME, empty=False)
            _check_name(account, new["name"], but=rid)
        if "summary" in changes:
            new["summary"] = check_text(changes["summary"], "summary", MAX_SUMMARY, empty=True)
        if "shared" in changes:
            if not isinstance(changes["shared"], bool):
                raise Invalid(_("shared must be true or false"))
            if changes["shared"] != item.get("shared") and item.get("owner") != account["name"]:
                raise Forbidden(_("only its owner shares or unshares a read list"))
            new["shared"] = changes["shared"]
        if "items" in changes:
            sees = access.visible(account["name"])
            given = [i for i in _items(changes["items"]) if sees(i[0])]
            kept = [tuple(i) for i in item["items"] if not sees(i[0]) and tuple(i) not in given]
            new["items"] = [list(i) for i in _items(given + kept)]
        new["modified"] = now_ms()
        item.clear()
        item.update(new)
        db.touch()
        return _copy(item)


def add(account: Account, rid: str, chosen: list[Item]) -> dict[str, Any]:
    """Append the chapters not in the list yet (chapters the caller checked)."""
    with db.lock():
        item = _editable(account, rid)
        there = {tuple(i) for i in item["items"]}
        fresh = [i for i in _items(chosen) if i not in there]
        if len(item["items"]) + len(fresh) > MAX_ITEMS:
            raise Invalid(_("a read list holds at most %(max_items)s chapters") % {"max_items": MAX_ITEMS})
        item["items"] += [list(i) for i in fresh]
        item["modified"] = now_ms()
        db.touch()
        return _copy(item)


def remove(account: Account, rid: str, chosen: list[Item]) -> dict[str, Any]:
    with db.lock():
        item = _editable(account, rid)
        gone = set(_items(chosen))
        item["items"] = [i for i in item["items"] if tuple(i) not in gone]
        item["modified"] = now_ms()
        db.touch()
        return _copy(item)


def delete(account: Account, rid: str) -> None:
    with db.lock():
        _editable(account, rid)
        del db.section("readlists")[rid]
        db.touch()


def import_many(lists: list[dict[str, Any]]) -> int:
    """Read lists brought from elsewhere (imports/, a .cbl file), in one pass under the lock: a new
    one {id: None, name, summary, owner, shared, items}, or {id, items} whose chapters not in it yet
    are appended; -> how many were written."""
    with db.lock():
        section = db.section("readlists")
        if len(section) + sum(1 for i in lists if i["id"] is None) > MAX_LISTS:
            raise Invalid(_("this server holds at most %(max_lists)s read lists; the import would pass it")
                          % {"max_lists": MAX_LISTS})
        now = now_ms()
        for wanted in lists:
            chosen = _items([list(i) for i in wanted["items"]])
            if wanted["id"] is None:
                item = {"id": new_id(), "name": wanted["name"][:MAX_NAME], "summary": wanted["summary"][:MAX_SUMMARY],
                        "owner": wanted["owner"], "shared": wanted["shared"], "items": [list(i) for i in chosen],
                        "created": now, "modified": now}
                section[item["id"]] = item
            else:
                item = section[wanted["id"]]
                there = {tuple(i) for i in item["items"]}
                item["items"] += [list(i) for i in chosen if i not in there][:MAX_ITEMS - len(item["items"])]
                item["modified"] = now
        if lists:
            db.touch()
        return len(lists)
