"""/komga/api/v1/collections…: MangaCircus's collections (reader/collections.py) as Komga's, read
and written as Komelia, KMReader and the Mihon extension do (docs/apps.md, "Collections").

A CollectionDto lists only the series the user may see, and `filtered` is always false: true would
tell a restricted user that the collection holds something hidden from them."""
from library import thumbs
from library.files import image_response
from mangacircus.errors import Invalid, NotFound
from reader import collections, progress

from . import dto, ids, lists
from .auth import app_view
from .series_views import TITLE_ORDER, _as_page, _query_filter, manga_or_404

SORTS = {"name": lambda c: (c["name"].casefold(), c["id"]), "createdDate": lambda c: c["created"],
         "lastModifiedDate": lambda c: c["modified"]}


def _members(account, item):
    """The Manga of each member the account sees, in the collection's order (by title when not ordered)."""
    index = ids.current()
    found = [index.get(n) for n in collections.members(account, item, lambda n: index.get(n) is not None)]
    if not item["ordered"]:
        found.sort(key=lambda m: (m.sort_title.casefold(), m.name))
    return found


def collection_dto(account, item):
    return {"id": item["id"], "name": item["name"], "ordered": item["ordered"],
            "seriesIds": [ids.series_id(m.name) for m in _members(account, item)],
            "createdDate": dto.dt(item["created"]), "lastModifiedDate": dto.dt(item["modified"]), "filtered": False}


def _series_names(account, value):
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        raise Invalid("seriesIds must be a list of series ids")
    return [manga_or_404(account["name"], sid).name for sid in value]


def _changes(account, data):
    """Komga's body fields as reader.collections' (only those sent)."""
    changes = {}
    for ours, theirs in (("name", "name"), ("ordered", "ordered"), ("summary", "summary")):
        if theirs in data:
            changes[ours] = data[theirs]
    if "seriesIds" in data:
        changes["members"] = _series_names(account, data["seriesIds"])
    return changes


@app_view(methods=("GET", "POST"))
def collections_list(request):
    """GET ?search=&library_id=&page=&size=&sort=&unpaged=: Page<CollectionDto>; POST {name, ordered,
    seriesIds, summary?}: a new collection (shared for an admin, private for a user), its DTO."""
    account = request.account
    if request.method == "POST":
        changes = _changes(account, request.data)
        if "name" not in changes:
            raise Invalid("name is required")
        item = collections.create(account, changes["name"], summary=changes.get("summary", ""),
                                  ordered=changes.get("ordered", False), members=changes.get("members", []))
        return collection_dto(account, item)
    libraries = lists.values(request, "library_id")
    words = (request.GET.get("search") or "").casefold()
    found = [c for c in collections.visible(account) if words in c["name"].casefold()
             and (not libraries or any(ids.library_of(m) in libraries for m in c["members"]))]
    found = lists.apply_sort(found, request, SORTS, [("name", False)])
    return lists.page(found, request, lambda c: collection_dto(account, c))


@app_view(methods=("GET", "PATCH", "DELETE"))
def collection_one(request, cid):
    """GET: the CollectionDto; PATCH {name?, ordered?, seriesIds?, summary?}: 204; DELETE: 204."""
    account = request.account
    if request.method == "PATCH":
        collections.update(account, cid, _changes(account, request.data))
        return None
    if request.method == "DELETE":
        collections.delete(account, cid)
        return None
    return collection_dto(account, collections.get(account, cid))


@app_view()
def collection_series(request, cid):
    """GET …/series with the series list's filters: Page<SeriesDto>, in the collection's order
    unless a sort is asked for."""
    account = request.account
    item = collections.get(account, cid)
    everything = progress.all_progress(account["name"])
    rows = _query_filter(request, [(m, everything.get(m.name, {})) for m in _members(account, item)])
    if lists.sorts(request):
        return _as_page(request, account["name"], rows, TITLE_ORDER)
    return lists.page(rows, request, lambda r: dto.series(r[0], r[1]))


@app_view()
def collection_thumbnail(request, cid):
    """The cover of the member the collection shows (its chosen one, else its first)."""
    account = request.account
    item = collections.get(account, cid)
    shown = _members(account, item)
    cover = collections.cover(item, [m.name for m in shown])
    path = thumbs.make(next(m for m in shown if m.name == cover)) if cover else None
    response = image_response(request, str(path)) if path else None
    if response is None:
        raise NotFound("this collection has no cover")
    return response


@app_view()
def series_collections(request, sid):
    """GET /series/{id}/collections: the collections the user sees that hold the series."""
    account = request.account
    manga = manga_or_404(account["name"], sid)
    return [collection_dto(account, c) for c in collections.containing(account, manga.name)]

