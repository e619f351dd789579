"""/komga/api/v1/books…: chapters as Komga books, their pages, images and read progress."""
from datetime import datetime, timezone
from typing import NamedTuple

from library import files, thumbs
from library.model import stamp_ms
from mangacircus.errors import Invalid, NotFound
from reader import access, progress, readlists, serverprefs
from shelf import library as shelf
from shelf import pagecache

from .. import cbz
from . import dto, ids, lists, numbering, search, state
from .auth import app_view, query_bool
from .series_views import visible_series


class Row(NamedTuple):
    manga: object
    chapter: object
    position: int
    entry: dict | None


def _changed(row):
    return row.chapter.versions[0].stamp and stamp_ms(row.chapter.versions[0].stamp) or row.manga.updated or 0


def _released_ms(row):
    found = dto.chapter_release(row.chapter)
    return int(datetime.fromisoformat(found).replace(tzinfo=timezone.utc).timestamp() * 1000) if found else None


def _by_release(row):
    """Books without a release date first (ascending), as Komga's SQLite orders NULLs."""
    found = dto.chapter_release(row.chapter)
    return (found is not None, found or "")


BOOK_SORTS = {
    "metadata.numberSort": lambda r: (r.manga.sort_title.casefold(), numbering.number_sorts(r.manga)[r.chapter.id]),
    "metadata.title": lambda r: dto.chapter_title(r.manga, r.chapter).casefold(),
    "createdDate": _changed, "created": _changed, "lastModifiedDate": _changed, "lastModified": _changed,
    "metadata.releaseDate": _by_release,
    "readProgress.readDate": lambda r: (r.entry or {}).get("t") or 0,
    "readProgress.lastModified": lambda r: (r.entry or {}).get("t") or 0,
    "series": lambda r: r.manga.sort_title.casefold(), "name": lambda r: r.chapter.id,
    "media.pagesCount": lambda r: r.chapter.versions[0].page_count,
}
NUMBER_ORDER = [("metadata.numberSort", False)]


def rows_of(manga, entries):
    return [Row(manga, c, i, entries.get(c.id)) for i, c in enumerate(manga.chapters(), start=1)]


def _page(request, user, rows, default=NUMBER_ORDER):
    rows = lists.apply_sort(rows, request, BOOK_SORTS, default)
    return lists.page(rows, request, lambda r: dto.book(user, r.manga, r.chapter, r.position, r.entry))


def book_or_404(user, bid):
    found = ids.chapter_by_id(bid)
    if found is None or not access.can_see(user, found[0].name):
        raise NotFound(f"no book {bid}")
    return found


def _filtered(request, rows):
    if query_bool(request, "deleted") or query_bool(request, "oneshot"):
        return []
    libraries = lists.values(request, "library_id")
    statuses = lists.upper_values(request, "read_status")
    media = lists.upper_values(request, "media_status")
    if media and "READY" not in media:
        return []
    words = (request.GET.get("search") or "").casefold().split()
    return [r for r in rows if (not libraries or ids.library_of(r.manga.name) in libraries)
            and (not statuses or state.status(r.entry) in statuses)
            and all(w in f"{r.manga.title} {dto.chapter_title(r.manga, r.chapter)}".casefold() for w in words)]


@app_view()
@pagecache.cached_data
def series_books(request, sid):
    """GET /api/v1/series/{id}/books (Mihon's chapter list: unpaged, by numberSort)."""
    user = request.account["name"]
    manga = ids.manga_by_id(sid)
    if manga is None or not access.can_see(user, manga.name):
        raise NotFound(f"no series {sid}")
    return _page(request, user, _filtered(request, rows_of(manga, progress.manga_progress(user, manga.name))))


def all_rows(user):
    return [r for manga, entries in visible_series(user) for r in rows_of(manga, entries)]


@app_view()
@pagecache.cached_data
def books_list(request):
    user = request.account["name"]
    return _page(request, user, _filtered(request, all_rows(user)), default=[("metadata.title", False)])


def _book_field(row, in_lists):
    def field_of(name):
        if name == "libraryid":
            return ids.library_of(row.manga.name)
        if name == "seriesid":
            return ids.series_id(row.manga.name)
        if name == "readstatus":
            return state.status(row.entry)
        if name in ("deleted", "oneshot"):
            return False
        if name == "releasedate":
            return _released_ms(row)
        if name == "title":
            return dto.chapter_title(row.manga, row.chapter)
        if name == "numbersort":
            return numbering.number_sorts(row.manga)[row.chapter.id]
        if name == "mediastatus":
            return "READY"
        if name == "mediaprofile":
            return "DIVINA"
        if name == "readlistid":
            return in_lists.get((row.manga.name, row.chapter.id), [])
        if name in ("tag", "author", "poster"):
            return None
        raise KeyError(name)
    return field_of


def _readlist_ids(account):
    """{(manga, chapter id): [read list id]} of the read lists the account sees."""
    found = {}
    for item in readlists.visible(account):
        for manga, cid in item["items"]:
            found.setdefault((manga, cid), []).append(item["id"])
    return found


@app_view(methods=("POST",))
def books_search(request):
    """POST /api/v1/books/list {condition, fullTextSearch} (Komelia's home and series screens, KMReader)."""
    user = request.account["name"]
    condition, words = search.parse_body(request.data)
    in_lists = _readlist_ids(request.account)
    rows = [r for r in all_rows(user)
            if search.matches(condition, _book_field(r, in_lists))
            and all(w in f"{r.manga.title} {dto.chapter_title(r.manga, r.chapter)}".casefold() for w in words)]
    return _page(request, user, rows)


@app_view()
def books_latest(request):
    user = request.account["name"]
    rows = sorted(all_rows(user), key=lambda r: -_changed(r))
    return lists.page(rows, request, lambda r: dto.book(user, r.manga, r.chapter, r.position, r.entry))


@app_view()
def books_ondeck(request):
    """The next chapter of each manga where the user finished a chapter and has none in progress."""
    user = request.account["name"]
    rows = []
    for manga, entries in visible_series(user):
        if not entries or any(not e.get("done") for e in entries.values()):
            continue
        target = shelf.continue_target(manga, entries)
        if target and target["action"] == "next":
            chapter = manga.chapter(target["id"])
            position = manga.chapters().index(chapter) + 1
            rows.append((max(e.get("t") or 0 for e in entries.values()), Row(manga, chapter, position, None)))
    rows = [r for _, r in sorted(rows, key=lambda x: -x[0])]
    return lists.page(rows, request, lambda r: dto.book(user, r.manga, r.chapter, r.position, r.entry))


def _row(user, bid):
    manga, chapter = book_or_404(user, bid)
    position = manga.chapters().index(chapter) + 1
    return Row(manga, chapter, position, progress.chapter_progress(user, manga.name, chapter.id))


@app_view()
def book_one(request, bid):
    user = request.account["name"]
    row = _row(user, bid)
    return dto.book(user, row.manga, row.chapter, row.position, row.entry)


def _neighbour(request, bid, step):
    user = request.account["name"]
    row = _row(user, bid)
    chapters = row.manga.chapters()
    at = row.position - 1 + step
    if not 0 <= at < len(chapters):
        raise NotFound("no such book")
    chapter = chapters[at]
    return dto.book(user, row.manga, chapter, at + 1, progress.chapter_progress(user, row.manga.name, chapter.id))


@app_view()
def book_next(request, bid):
    return _neighbour(request, bid, 1)


@app_view()
def book_previous(request, bid):
    return _neighbour(request, bid, -1)


def _version(request, bid):
    user = request.account["name"]
    manga, chapter = book_or_404(user, bid)
    if len(chapter.versions) == 1:  # no choice to make: no need for the progress record
        return manga, chapter, chapter.versions[0]
    entry = progress.chapter_progress(user, manga.name, chapter.id)
    return manga, chapter, state.chosen_version(user, manga, chapter, entry)


@app_view()
def book_pages(request, bid):
    return dto.pages(_version(request, bid)[2])


def page_response(request, version, number, width=None):
    """The page image through /lib/'s own checks and answer (library/files.py); `width`: the pixels
    a PDF's page is drawn at (its width ladder), the others have one size."""
    names = version.files()
    if not 0 <= number < len(names):
        raise Invalid("Page number does not exist")
    response = files.page_response(request, f"{version.path}/{names[number]}", width)
    if response is None:
        raise NotFound("the page image cannot be read")
    return response


def _page_number(request, n):
    zero = query_bool(request, "zero_based") is True
    convert = request.GET.get("convert")
    if convert not in (None, "", "png", "jpeg"):
        raise Invalid("convert must be png or jpeg")
    return n if zero else n - 1


@app_view()
def book_page(request, bid, n):
    return page_response(request, _version(request, bid)[2], _page_number(request, n))


@app_view()
def book_page_thumbnail(request, bid, n):
    """A page's thumbnail: the page itself (the apps scale it)."""
    return page_response(request, _version(request, bid)[2], n - 1)


@app_view()
def book_thumbnail(request, bid):
    """A book's thumbnail: its series' cover."""
    manga, _ = book_or_404(request.account["name"], bid)
    path = thumbs.make(manga)
    response = files.image_response(request, str(path)) if path else None
    if response is None:
        raise NotFound("no thumbnail")
    return response


@app_view(methods=("PATCH", "DELETE"))
def book_read_progress(request, bid):
    user = request.account["name"]
    manga, chapter = book_or_404(user, bid)
    if request.method == "DELETE":
        state.forget(user, manga, chapter)
        return None
    completed = request.data.get("completed")
    if completed is not None and not isinstance(completed, bool):
        raise Invalid("completed must be true or false")
    if completed:
        state.set_completed(user, manga, chapter)
    elif "page" in request.data:
        state.set_page(user, manga, chapter, request.data["page"])
    else:
        raise Invalid("page must be specified if completed is false or null")
    return None


@app_view()
def book_file(request, bid):
    """The chapter as a CBZ, in the user's version (when the admin allows downloads)."""
    if not serverprefs.downloads_allowed():
        raise NotFound("downloads are turned off on this server")
    manga, chapter, version = _version(request, bid)
    return cbz.chapter_response(request, manga, chapter, version)

