"""Groups of manga: a name, a description, members (ordered or not). Members need not be in the
library: missing ones are kept, shown as missing, and come back when their folder does."""
import secrets

from django.utils.translation import gettext as _

from mangacircus.errors import Invalid, NotFound

from . import store

MAX_MEMBERS = 500
MAX_NAME = 200
MAX_DESCRIPTION = 5000


def _text(value, field, limit, required=False):
    if not isinstance(value, str):
        raise Invalid(_("%(field)s must be text") % {"field": field})
    value = value.strip()
    if required and not value:
        raise Invalid(_("%(field)s must not be empty") % {"field": field})
    if len(value) > limit:
        raise Invalid(_("%(field)s is longer than %(limit)s characters") % {"field": field, "limit": limit})
    return value


def clean_members(members):
    if not isinstance(members, list):
        raise Invalid(_("members must be a list of manga names"))
    if len(members) > MAX_MEMBERS:
        raise Invalid(_("a group has at most %(max)s members") % {"max": MAX_MEMBERS})
    clean = []
    for i, name in enumerate(members):
        name = _text(name, f"members[{i}]", 1000, required=True)
        if name in clean:
            raise Invalid(_("members[%(i)s]: %(name)s is in the group twice") % {"i": i, "name": name})
        clean.append(name)
    return clean


def clean_group(fields):
    return {
        "name": _text(fields.get("name", ""), "name", MAX_NAME, required=True),
        "description": _text(fields.get("description", ""), "description", MAX_DESCRIPTION),
        "members": clean_members(fields.get("members", [])),
        "ordered": _bool(fields.get("ordered", True), "ordered"),
    }


def _bool(value, field):
    if not isinstance(value, bool):
        raise Invalid(_("%(field)s must be true or false") % {"field": field})
    return value


def _find(data, group_id):
    for group in data["groups"]:
        if group["id"] == group_id:
            return group
    raise NotFound(_("there is no group %(id)s") % {"id": group_id})


def create(by, fields, rev=None):
    group = clean_group(fields)
    with store.edit(by, rev) as change:
        taken = {g["id"] for g in change.data["groups"]}
        group_id = "g" + secrets.token_hex(3)
        while group_id in taken:
            group_id = "g" + secrets.token_hex(3)
        group = {"id": group_id, **group}
        change.data["groups"].append(group)
        change.what = f"created group {group['name']} ({len(group['members'])} members)"
        change.names = set(group["members"])
    return dict(group)


def update(by, group_id, fields, rev=None):
    """Replace a group's name, description, ordered flag and members (those given)."""
    with store.edit(by, rev) as change:
        group = _find(change.data, group_id)
        new = clean_group({**group, **fields})
        before = set(group["members"])
        group.update(new)
        change.what = f"edited group {group['name']}"
        change.names = before | set(group["members"])
    return dict(group)


def move(by, group_id, member, to, rev=None):
    """Move a member to position `to` (0-based, clamped)."""
    if not isinstance(to, int) or isinstance(to, bool):
        raise Invalid(_("to must be a whole number"))
    with store.edit(by, rev) as change:
        group = _find(change.data, group_id)
        if member not in group["members"]:
            raise NotFound(_("%(member)s is not in group %(group)s") % {"member": member, "group": group["name"]})
        members = group["members"]
        members.remove(member)
        to = max(0, min(to, len(members)))
        members.insert(to, member)
        change.what = f"moved {member} to place {to + 1} in group {group['name']}"
    return dict(group)


def delete(by, group_id, rev=None):
    with store.edit(by, rev) as change:
        group = _find(change.data, group_id)
        change.data["groups"].remove(group)
        change.what = f"deleted group {group['name']}"
        change.names = set(group["members"])


def get(group_id):
    with store.read() as data:
        group = _find(data, group_id)
        return {**group, "members": list(group["members"])}


def all_groups():
    with store.read() as data:
        return [{**g, "members": list(g["members"])} for g in data["groups"]]


def of(name):
    """The groups `name` is a member of, by group name."""
    with store.read() as data:
        found = [{**g, "members": list(g["members"])} for g in data["groups"] if name in g["members"]]
    return sorted(found, key=lambda g: (g["name"].casefold(), g["id"]))
