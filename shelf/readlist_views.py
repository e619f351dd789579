"""Read lists: the JSON API (docs/api.md) and the read list pages."""
from django.shortcuts import render
from django.utils.translation import gettext as _

from mangacircus.errors import Invalid
from mangacircus.http import api, field
from mangacircus.pages import page
from reader import readlists

from . import cbl
from . import readlists as shown

CHANGES = ("name", "summary", "shared", "items")


@api(methods=("GET", "POST"))
def readlists_api(request):
    """GET: the read lists the user sees; POST {name, summary?, shared?, items?}: a new one."""
    account = request.account
    if request.method == "GET":
        return {"readlists": shown.listing(account)}
    data = request.data
    items = shown.chapter_items(account, data["items"]) if data.get("items") else []
    item = readlists.create(account, data.get("name"), summary=data.get("summary", ""), shared=data.get("shared"),
                            items=items)
    return shown.detail(account, item["id"])


@api(methods=("GET", "POST"))
def readlist_api(request, rid):
    """GET: one read list with its chapters; POST: change the fields sent (CHANGES); `items` is
    the new order, as [{m, c}]."""
    account = request.account
    if request.method == "POST":
        unknown = sorted(set(request.data) - set(CHANGES))
        if unknown:
            raise Invalid(_("unknown field %(name)s; a read list has %(fields)s")
                          % {"name": unknown[0], "fields": ', '.join(CHANGES)})
        changes = dict(request.data)
        if "items" in changes:
            changes["items"] = shown.chapter_items(account, changes["items"]) if changes["items"] else []
        readlists.update(account, rid, changes)
    return shown.detail(account, rid)


@api(methods=("POST",))
def readlist_add(request, rid):
    """{items: [{m, c} | {m, book} | {m}]}: appended, those already in it left where they are."""
    readlists.add(request.account, rid, shown.chapter_items(request.account, field(request.data, "items", list)))
    return shown.detail(request.account, rid)


@api(methods=("POST",))
def readlist_remove(request, rid):
    readlists.remove(request.account, rid, shown.chapter_items(request.account, field(request.data, "items", list)))
    return shown.detail(request.account, rid)


@api(methods=("POST",))
def readlist_delete(request, rid):
    readlists.delete(request.account, rid)
    return {"deleted": rid}


@api(methods=("POST",))
def readlist_import(request):
    """{cbl: the text of a ComicRack .cbl file, apply?}: the plan of what it matches; with apply, a
    new read list (or the chapters it lacks added to the user's list of that name)."""
    return cbl.import_text(request.account, field(request.data, "cbl", str), apply=request.data.get("apply") is True)


@page()
def readlists_page(request):
    account = request.account
    return render(request, "reader/readlists.html", {"lists": shown.listing(account)})


@page()
def readlist_page(request, rid):
    account = request.account
    item = shown.detail(account, rid)
    return render(request, "reader/readlist.html", {
        "r": item, "page_data": {"id": rid, "editable": item["editable"],
                                 "items": [{"m": i["m"], "c": i["c"]} for i in item["items"]]},
    })
