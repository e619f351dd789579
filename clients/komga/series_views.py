"""/komga/api/v1/series…: the manga as Komga series, with the user's read counts."""
from library import thumbs
from library.files import image_response
from mangacircus.errors import Invalid, NotFound
from reader import access, collections, progress
from shelf import pagecache, summaries

from . import dto, ids, lists, search, state
from .auth import app_view, query_bool

SERIES_SORTS = {
    "metadata.titleSort": lambda r: (r[0].sort_title.casefold(), r[0].name),
    "metadata.title": lambda r: (r[0].title.casefold(), r[0].name),
    "name": lambda r: r[0].name.casefold(),
    "createdDate": lambda r: r[0].added or 0, "created": lambda r: r[0].added or 0,
    "lastModifiedDate": lambda r: r[0].updated or 0, "lastModified": lambda r: r[0].updated or 0,
    "booksMetadata.releaseDate": lambda r: dto.release_date(r[0]) or "",
    "booksCount": lambda r: len(r[0].chapters()),
    "readDate": lambda r: max((e.get("t") or 0 for e in r[1].values()), default=0),
    "relevance": lambda r: (r[0].sort_title.casefold(), r[0].name),
}
TITLE_ORDER = [("metadata.titleSort", False)]


def visible_series(user):
    """[(manga, the user's progress entries)] for every manga the user may see, in title order."""
    everything = progress.all_progress(user)
    index = ids.current()
    return [(m, everything.get(m.name, {})) for m in index.sorted() if access.can_see(user, m.name)]


def manga_or_404(user, sid):
    manga = ids.manga_by_id(sid)
    if manga is None or not access.can_see(user, manga.name):
        raise NotFound(f"no series {sid}")
    return manga


def read_status(manga, entries):
    total, read, started = dto.counts(manga, entries)
    if total and read == total:
        return "READ"
    return "IN_PROGRESS" if read or started else "UNREAD"


def _words_match(manga, words):
    if not words:
        return True
    summary = summaries.by_name().get(manga.name)
    text = summary.search if summary else manga.title.casefold()
    return all(w in text for w in words)


def _author_filters(request):
    """author=name,role (repeated): [(name, role)]."""
    found = []
    for raw in request.GET.getlist("author"):
        name, _, role = raw.rpartition(",") if "," in raw else (raw, "", "")
        found.append((name.strip().casefold(), role.strip().lower()))
    return found


def _query_filter(request, rows):
    words = (request.GET.get("search") or "").casefold().split()
    libraries = lists.values(request, "library_id")
    statuses = lists.upper_values(request, "read_status")
    series_status = lists.upper_values(request, "status")
    genres = {v.casefold() for v in lists.values(request, "genre")}
    tags = {v.casefold() for v in lists.values(request, "tag")}
    publishers = {v.casefold() for v in lists.values(request, "publisher")}
    languages = {v.casefold() for v in lists.values(request, "language")}
    people = _author_filters(request)
    if query_bool(request, "deleted") or query_bool(request, "oneshot") or query_bool(request, "complete"):
        return []
    kept = []
    for manga, entries in rows:
        if libraries and ids.library_of(manga.name) not in libraries:
            continue
        if not _words_match(manga, words):
            continue
        if statuses and read_status(manga, entries) not in statuses:
            continue
        if series_status and dto.series_status(manga) not in series_status:
            continue
        if genres and not genres & {g.casefold() for g in dto.genres(manga)}:
            continue
        if tags and not tags & {t.casefold() for t in dto.all_tags(manga)}:
            continue
        if publishers and dto.text(manga.meta, "publisher").casefold() not in publishers:
            continue
        if languages and dto.text(manga.meta, "language").casefold() not in languages:
            continue
        if people:
            mine = {(a["name"].casefold(), a["role"]) for a in dto.authors(manga)}
            if not any((n, r) in mine or (not r and any(n == m[0] for m in mine)) for n, r in people):
                continue
        kept.append((manga, entries))
    return kept


def _as_page(request, user, rows, default=TITLE_ORDER):
    rows = lists.apply_sort(rows, request, SERIES_SORTS, default)
    return lists.page(rows, request, lambda r: dto.series(r[0], r[1]))


@app_view()
@pagecache.cached_data
def series_list(request):
    """GET /api/v1/series (Mihon: popular, latest, search and filters)."""
    user = request.account["name"]
    return _as_page(request, user, _query_filter(request, visible_series(user)))


def _series_field(manga, entries, user):
    def field_of(name):
        if name == "libraryid":
            return ids.library_of(manga.name)
        if name == "readstatus":
            return read_status(manga, entries)
        if name == "seriesstatus":
            return dto.series_status(manga)
        if name in ("deleted", "oneshot", "complete"):
            return False
        if name in ("title", "titlesort"):
            return manga.title if name == "title" else manga.sort_title
        if name == "genre":
            return dto.genres(manga)
        if name == "tag":
            return dto.all_tags(manga)
        if name in ("publisher", "language"):
            return dto.text(manga.meta, name)
        if name == "author":
            return [a["name"] for a in dto.authors(manga)]
        if name == "collectionid":
            return [c["id"] for c in collections.containing({"name": user}, manga.name)]
        if name in ("sharinglabel", "agerating"):
            return None
        raise KeyError(name)
    return field_of


@app_view(methods=("POST",))
def series_search(request):
    """POST /api/v1/series/list {condition, fullTextSearch} (Komelia, KMReader)."""
    user = request.account["name"]
    condition, words = search.parse_body(request.data)
    rows = [(m, e) for m, e in visible_series(user)
            if _words_match(m, words) and search.matches(_condition_value(condition), _series_field(m, e, user))]
    return _as_page(request, user, rows)


def _condition_value(condition):
    """Author conditions carry {"value": {"name": …, "role": …}}: compare the name."""
    if isinstance(condition, dict):
        out = {}
        for k, v in condition.items():
            if isinstance(v, list):
                out[k] = [_condition_value(c) for c in v]
            elif isinstance(v, dict) and isinstance(v.get("value"), dict):
                out[k] = {**v, "value": v["value"].get("name")}
            elif isinstance(v, dict) and k.lower() in ("allof", "anyof"):
                out[k] = _condition_value(v)
            else:
                out[k] = v
        return out
    return condition


@app_view()
def series_new(request):
    user = request.account["name"]
    if query_bool(request, "oneshot") or query_bool(request, "deleted"):
        return lists.empty_page(request)
    rows = sorted(visible_series(user), key=lambda r: -(r[0].added or 0))
    return lists.page(rows, request, lambda r: dto.series(r[0], r[1]))


@app_view()
def series_updated(request):
    user = request.account["name"]
    if query_bool(request, "oneshot") or query_bool(request, "deleted"):
        return lists.empty_page(request)
    rows = sorted(visible_series(user), key=lambda r: -(r[0].updated or 0))
    return lists.page(rows, request, lambda r: dto.series(r[0], r[1]))


@app_view()
def series_one(request, sid):
    user = request.account["name"]
    manga = manga_or_404(user, sid)
    return dto.series(manga, progress.manga_progress(user, manga.name))


@app_view()
def series_thumbnail(request, sid):
    manga = manga_or_404(request.account["name"], sid)
    path = thumbs.make(manga)
    response = image_response(request, str(path)) if path else None
    if response is None:
        raise NotFound("this series has no cover")
    return response


@app_view(methods=("POST", "DELETE"))
def series_read_progress(request, sid):
    """POST: mark every chapter read; DELETE: forget every chapter's progress."""
    user = request.account["name"]
    manga = manga_or_404(user, sid)
    entries = progress.manga_progress(user, manga.name)
    for chapter in manga.chapters():
        if request.method == "DELETE":
            if chapter.id in entries:
                state.forget(user, manga, chapter)
        elif not (entries.get(chapter.id) or {}).get("done"):
            state.set_completed(user, manga, chapter)
    return None


@app_view(methods=("GET", "PUT"))
def tachiyomi(request, sid):
    """The Mihon tracker: GET the summary, PUT {"lastBookNumberSortRead": x}."""
    user = request.account["name"]
    manga = manga_or_404(user, sid)
    if request.method == "PUT":
        value = request.data.get("lastBookNumberSortRead")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise Invalid("lastBookNumberSortRead must be a number")
        state.mark_up_to(user, manga, float(value))
        return None
    return state.tachiyomi_progress(user, manga)


