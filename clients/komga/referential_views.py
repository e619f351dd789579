"""/komga/api/v1/tags…, /authors… and /api/v2/authors…: the tag and author lists the apps fill
their filters with, for the whole library or one series, as Komga's referential controllers answer
them, for the whole library, one series, a collection's series or the series of a read list's books."""
from mangacircus.errors import NotFound
from reader import collections, readlists

from . import dto, ids, lists
from .auth import app_view
from .series_views import visible_series


def _distinct(values):
    return sorted(set(v for v in values if v), key=str.casefold)


def _scope(request, order):
    """The [(manga, entries)] the request's filter names, the first of `order` that is given
    winning, as in Komga: library_id (the series of those libraries), collection_id and readlist_id
    (their series the user sees; one they cannot see is nothing), series_id (those series; one the
    user cannot see is a 404)."""
    user = request.account["name"]
    for name in order:
        wanted = lists.values(request, name)
        if not wanted:
            continue
        if name == "library_id":
            return [(m, e) for m, e in visible_series(user) if ids.library_of(m.name) in wanted]
        if name in ("collection_id", "readlist_id"):
            names = _listed(request.account, name, wanted)
            return [(m, e) for m, e in visible_series(user) if m.name in names]
        found = {ids.series_id(m.name): (m, e) for m, e in visible_series(user)}
        missing = [s for s in wanted if s not in found]
        if missing:
            raise NotFound(f"no series {missing[0]}")
        return [found[s] for s in dict.fromkeys(wanted)]
    return visible_series(user)


def _listed(account, kind, wanted):
    """The manga names of the collections (or read lists) with these ids that the account sees."""
    names = set()
    for key in wanted:
        try:
            if kind == "collection_id":
                names |= set(collections.get(account, key)["members"])
            else:
                names |= {m for m, _c in readlists.get(account, key)["items"]}
        except NotFound:
            continue
    return names


V1_ORDER = ("library_id", "collection_id", "series_id")
V2_ORDER = ("library_id", "collection_id", "series_id", "readlist_id")


@app_view()
def tags(request):
    """GET /api/v1/tags: the series' tags and their books' (ComicInfo Tags), as Komga lists both."""
    return _distinct(t for m, _ in _scope(request, ("library_id", "collection_id")) for t in dto.all_tags(m))


@app_view()
def book_tags(request):
    """GET /api/v1/tags/book (Komelia asks each time a series opens, with series_id)."""
    scope = _scope(request, ("series_id", "readlist_id", "library_id"))
    return _distinct(t for m, _ in scope for t in dto.book_tags(m))


@app_view()
def series_tags(request):
    """GET /api/v1/tags/series."""
    return _distinct(t for m, _ in _scope(request, ("library_id", "collection_id")) for t in dto.series_tags(m))


def _authors(request, order):
    """Every {name, role} in scope whose name holds the search words (and of the role asked for)."""
    words = (request.GET.get("search") or "").casefold()
    role = (request.GET.get("role") or "").strip().lower()
    seen = {}
    for manga, _ in _scope(request, order):
        for a in dto.authors(manga):
            if words in a["name"].casefold() and (not role or a["role"] == role):
                seen[(a["name"], a["role"])] = a
    return sorted(seen.values(), key=lambda a: (a["name"].casefold(), a["role"]))


@app_view()
def authors_v1(request):
    return _authors(request, V1_ORDER)


@app_view()
def authors_v2(request):
    return lists.page(_authors(request, V2_ORDER), request, lambda a: a)


def _names(request, order):
    return _distinct(a["name"] for a in _authors(request, order))


def _roles(request, order):
    return sorted({a["role"] for a in _authors(request, order)})


@app_view()
def author_names_v1(request):
    """GET /api/v1/authors/names?search=: the names alone, library-wide."""
    return _names(request, ())


@app_view()
def author_roles_v1(request):
    return _roles(request, ())


@app_view()
def author_names_v2(request):
    return lists.page(_names(request, V2_ORDER), request, lambda n: n)


@app_view()
def author_roles_v2(request):
    return lists.page(_roles(request, V2_ORDER), request, lambda r: r)
