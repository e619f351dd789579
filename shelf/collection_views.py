"""Collections, want to read and ratings: the JSON API (docs/api.md) and the collection pages."""
from django.shortcuts import render
from django.utils.translation import gettext as _

from mangacircus.errors import Invalid
from mangacircus.http import api, field, text_field
from mangacircus.pages import page
from reader import collections, lookup, ratings, wanttoread

from . import collections as shown
from . import pagecache

CHANGES = ("name", "summary", "ordered", "shared", "members", "cover")


@api(methods=("GET", "POST"))
def collections_api(request):
    """GET: the collections the user sees; POST {name, summary?, ordered?, shared?, members?}: a new one."""
    account = request.account
    if request.method == "GET":
        return {"collections": shown.listing(account)}
    data = request.data
    members = shown.manga_names(account, data.get("members", []))
    item = collections.create(account, data.get("name"), summary=data.get("summary", ""),
                              ordered=data.get("ordered", True), shared=data.get("shared"), members=members)
    return shown.detail(account, item["id"])


@api(methods=("GET", "POST"))
def collection_api(request, cid):
    """GET: one collection with its members; POST: change the fields sent (CHANGES)."""
    account = request.account
    if request.method == "POST":
        changes = {k: v for k, v in request.data.items() if k in CHANGES}
        unknown = sorted(set(request.data) - set(CHANGES))
        if unknown:
            raise Invalid(_("unknown field %(name)s; a collection has %(fields)s")
                          % {"name": unknown[0], "fields": ', '.join(CHANGES)})
        if "members" in changes:
            changes["members"] = shown.manga_names(account, changes["members"])
        if changes.get("cover") is not None:
            changes["cover"] = lookup.manga_or_404(text_field(changes, "cover"), user=account["name"]).name
        collections.update(account, cid, changes)
    return shown.detail(account, cid)


@api(methods=("POST",))
def collection_add(request, cid):
    """{members: [names]}: appended, those already in it left where they are."""
    collections.add(request.account, cid, shown.manga_names(request.account, field(request.data, "members", list)))
    return shown.detail(request.account, cid)


@api(methods=("POST",))
def collection_remove(request, cid):
    collections.remove(request.account, cid, shown.manga_names(request.account, field(request.data, "members", list)))
    return shown.detail(request.account, cid)


@api(methods=("POST",))
def collection_delete(request, cid):
    collections.delete(request.account, cid)
    return {"deleted": cid}


@api(methods=("POST",))
def rate(request):
    """{m, stars}: 1 to 5, 0 withdraws."""
    user = request.account["name"]
    found = lookup.manga_field(request.data, user=user)
    return {"m": found.name, "rating": ratings.rate(user, found.name, field(request.data, "stars", int))}


@api(methods=("GET", "POST"))
def want(request):
    """GET: the user's want-to-read list; POST {m, on}: add or remove a manga."""
    user = request.account["name"]
    if request.method == "GET":
        return {"manga": shown.want_list(user)}
    found = lookup.manga_field(request.data, user=user)
    return {"m": found.name, "wantToRead": wanttoread.want(user, found.name, field(request.data, "on", bool))}


@page()
@pagecache.cached
def collections_page(request):
    """Collections: the user's want-to-read list, then every collection they see."""
    account = request.account
    return render(request, "reader/collections.html", {
        "want": shown.want_list(account["name"]), "collections": shown.listing(account),
        "page_data": {"admin": bool(account.get("admin"))},
    })


@page()
def collection_page(request, cid):
    account = request.account
    item = shown.detail(account, cid)
    return render(request, "reader/collection.html", {
        "c": item, "page_data": {"id": cid, "editable": item["editable"], "ordered": item["ordered"]},
    })
