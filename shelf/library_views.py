"""Server-rendered pages: the library (/), a manga (/manga/<name>/) and the notifications list.

Each page renders complete without JavaScript; its script (static/js/<page>.js) only enhances it
through the JSON API, reading its start data from the json_script "page-data".
"""
from urllib.parse import urlencode

from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import get_script_prefix
from django.views.decorators.http import require_http_methods

from library import meta as library_meta
from mangacircus.pages import page
from reader import lookup, notes, readlists, serverprefs

from . import collections, discovery, discovery_views, filters, history, manga_detail, pagecache, story, tiles
from . import library as shelf

PAGE_SIZE = 120


def _page_number(request):
    try:
        return max(1, min(10_000, int(request.GET.get("page", "1"))))
    except ValueError:
        return 1


@page()
@pagecache.cached
def home(request):
    q = request.GET.get("q", "")[:200].strip()
    sort = request.GET.get("sort", "title")
    sort = sort if sort in shelf.SORTS else "title"
    number = _page_number(request)
    data = shelf.library(request.account["name"], q=q, sort=sort, offset=(number - 1) * PAGE_SIZE,
                         limit=PAGE_SIZE)
    more = number * PAGE_SIZE < data["total"]
    params = {k: v for k, v in (("q", q), ("sort", sort if sort != "title" else "")) if v}
    user = request.account["name"]
    first = number == 1 and not q
    root = get_script_prefix()
    return render(request, "reader/home.html", {
        **data, "grid": tiles.grid(data["manga"], root),
        "continue_html": tiles.resume_items(data["continue"], root),
        "recent_html": tiles.recent_items(data["recent"], root),
        "facets_html": tiles.facet_lists(data["facets"]),
        "story": story.summary(user) if first else None,
        "discover": discovery.feed(user)["items"][:discovery_views.ROW] if first else [],
        "q": q, "sort": sort, "sorts": shelf.SORTS.items(), "page_number": number,
        "next_query": urlencode({**params, "page": number + 1}) if more else None,
        "page_data": {"q": q, "sort": sort, "pageSize": PAGE_SIZE, "shown": data["offset"] + len(data["manga"]),
                      "total": data["total"]},
    })


PICK_CHAPTERS = 500  # the read-list picker lists each chapter up to this many, else books only


@page()
@pagecache.cached  # keyed like the library page: the user's progress, follows, votes, the catalog, the index
def manga(request, name):
    found = lookup.manga_or_404(name, user=request.account["name"])
    detail = manga_detail.detail(request.account["name"], found)
    meta = detail["meta"]
    admin = bool(request.account.get("admin"))
    downloads = serverprefs.downloads_allowed()
    for book in detail["books"]:
        book["rows_html"] = tiles.chapter_list(book, found.name, get_script_prefix(), downloads)
    return render(request, "reader/manga.html", {
        "editable": [c for c in collections.listing(request.account) if c["editable"]],
        "readlists": [{"id": r["id"], "name": r["name"]} for r in readlists.visible(request.account)
                      if readlists.can_edit(request.account, r)],
        "pick_chapters": sum(len(b["chapters"]) for b in detail["books"]) <= PICK_CHAPTERS,
        "unread": manga_detail.unread_files(found) if admin else None,
        "provided": manga_detail.provider_notes(found, admin),
        "m": detail, "meta": meta, "downloads": downloads, "filter_links": _filter_links(meta),
        "catalog_html": tiles.catalog_section(detail, admin, get_script_prefix()),
        "direction": {"name": library_meta.DIRECTION_NAMES.get(detail["direction"], detail["direction"]),
                      "source": library_meta.DIRECTION_SOURCES[detail["directionFrom"]]},
        "page_data": {"m": found.name, "following": detail["following"], "rating": detail["rating"]},
    })


def _filter_links(meta):
    """The library filtered by each author, artist, tag and the status: [(text, "?q=…")] per field."""
    def links(kind, values):
        return [(v, filters.library_query(filters.term(kind, v))) for v in values]
    return {"authors": links("author", meta["authors"]), "artists": links("author", meta["artists"]),
            "tags": links("tag", meta["tags"]), "genres": links("genre", meta["genres"]),
            "status": filters.library_query(filters.term("status", meta["status"])) if meta["status"] else None}


@page()
@require_http_methods(["GET", "POST"])
def notifications(request):
    """The full list (the bell's dropdown shows the same from the API); POST marks all read."""
    user = request.account["name"]
    if request.method == "POST":
        notes.mark_read(user, notes.ALL)
        return HttpResponseRedirect(request.path)
    index = lookup.current()
    items = notes.notifications(user)
    for note in items:
        note["url"] = lookup.note_url(index, note)
    return render(request, "reader/notifications.html", {"notes": items})


@page()
def recently_read(request):
    """Recently read: where the user stopped in each chapter, newest first, a page at a time."""
    number = _page_number(request)
    data = history.entries(request.account["name"], offset=(number - 1) * history.PAGE_SIZE)
    more = number * history.PAGE_SIZE < data["total"]
    return render(request, "reader/history.html", {
        **data, "page_number": number,
        "next_query": urlencode({"page": number + 1}) if more else None,
        "prev_query": urlencode({"page": number - 1}) if number > 1 else None,
    })
