"""Collections, want to read and ratings as one user sees them (data of /api/collections and of the
collection pages): only members the user may see and that are in the library, counts included."""
from django.utils.translation import gettext as _

from mangacircus.errors import Invalid
from reader import access, collections, lookup, ratings, wanttoread

from . import summaries


def _by_name():
    return summaries.by_name(lookup.current())


def member_card(summary):
    return {"name": summary.name, "title": summary.title, "url": summary.url, "cover": summary.cover}


def shown_members(account, item, by_name=None):
    """The Summary of each member the account sees, in the collection's order (by title when it is
    not ordered)."""
    by_name = by_name if by_name is not None else _by_name()
    names = collections.members(account, item, by_name.__contains__)
    found = [by_name[n] for n in names]
    if not item["ordered"]:
        found.sort(key=lambda s: (s.title.casefold(), s.name))
    return found


def summary(account, item, by_name=None):
    """{id, name, summary, ordered, shared, owner, editable, count, cover, url}."""
    by_name = by_name if by_name is not None else _by_name()
    shown = shown_members(account, item, by_name)
    cover = collections.cover(item, [s.name for s in shown])
    return {"id": item["id"], "name": item["name"], "summary": item["summary"], "ordered": item["ordered"],
            "shared": item["shared"], "owner": item["owner"], "editable": collections.can_edit(account, item),
            "count": len(shown), "cover": by_name[cover].cover if cover else None,
            "url": f"collections/{item['id']}/", "modified": item["modified"]}


def listing(account):
    by_name = _by_name()
    return [summary(account, item, by_name) for item in collections.visible(account)]


def detail(account, cid):
    item = collections.get(account, cid)
    by_name = _by_name()
    shown = shown_members(account, item, by_name)
    return {**summary(account, item, by_name), "members": [member_card(s) for s in shown]}


def manga_names(account, value):
    """The manga a body's `members` names, each checked (404 for one missing or hidden)."""
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        raise Invalid(_("members must be a list of manga names"))
    index = lookup.current()
    return [lookup.manga_or_404(n, index, user=account["name"]).name for n in value]


def want_list(user):
    by_name = _by_name()
    sees = access.visible(user)
    return [member_card(by_name[n]) for n in wanttoread.listed(user) if n in by_name and sees(n)]


def of_manga(account, name):
    """What the manga page shows: the rating, want to read, and the collections holding it."""
    return {"rating": ratings.rating(account["name"], name), "wantToRead": wanttoread.wants(account["name"], name),
            "collections": [{"id": i["id"], "name": i["name"]} for i in collections.containing(account, name)]}
