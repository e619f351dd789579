"""/komga/api/v1/readlists…: MangaCircus's read lists (reader/readlists.py) as Komga's, read and
written as Komelia, KMReader and the Mihon extension do (docs/apps.md, "Read lists").

A ReadListDto lists only the chapters the user may see, in the list's order, and `filtered` is
always false, as for collections: true would tell a restricted user that the list holds something
hidden from them. A read list always keeps its order: `ordered` is true, and the `ordered` of a
body is accepted and left alone."""
from library import thumbs
from library.files import image_response
from mangacircus.errors import Invalid, NotFound
from reader import progress, readlists
from shelf import manga_detail

from . import dto, ids, lists
from .auth import app_view
from .book_views import Row, _filtered, book_or_404
from .collection_views import SORTS
from .series_views import _author_filters


def shown(account, item, index=None):
    """(Manga, Chapter) of each item the account sees, in the list's order."""
    index = index or ids.current()
    chosen = readlists.items(account, item, readlists.in_index(index))
    return [(index.get(m), index.get(m).chapter(c)) for m, c in chosen]


def rows(account, item):
    """A Row per chapter the account sees, with its place in its manga and the user's progress."""
    pairs = shown(account, item)
    entries, places = {}, {}
    for manga in {id(m): m for m, _ in pairs}.values():
        entries[manga.name] = progress.manga_progress(account["name"], manga.name)
        places[manga.name] = {c.id: n for n, c in enumerate(manga.chapters(), start=1)}
    return [Row(m, c, places[m.name][c.id], entries[m.name].get(c.id)) for m, c in pairs]


def readlist_dto(account, item, pairs=None):
    pairs = shown(account, item) if pairs is None else pairs
    return {"id": item["id"], "name": item["name"], "summary": item["summary"], "ordered": True,
            "bookIds": [ids.book_id(m.name, c.id) for m, c in pairs],
            "createdDate": dto.dt(item["created"]), "lastModifiedDate": dto.dt(item["modified"]), "filtered": False}


def _items(account, value):
    if not isinstance(value, list) or not all(isinstance(b, str) for b in value):
        raise Invalid("bookIds must be a list of book ids")
    return [(m.name, c.id) for m, c in (book_or_404(account["name"], bid) for bid in value)]


def _changes(account, data):
    """Komga's body fields as reader.readlists' (only those sent)."""
    if "ordered" in data and not isinstance(data["ordered"], bool):
        raise Invalid("ordered must be true or false")
    changes = {k: data[k] for k in ("name", "summary") if k in data and data[k] is not None}
    if data.get("bookIds") is not None:
        changes["items"] = _items(account, data["bookIds"])
    return changes


@app_view(methods=("GET", "POST"))
def readlists_list(request):
    """GET ?search=&library_id=&page=&size=&sort=&unpaged=: Page<ReadListDto>; POST {name, summary?,
    ordered?, bookIds}: a new read list (shared for an admin, private for a user), its DTO."""
    account = request.account
    if request.method == "POST":
        changes = _changes(account, request.data)
        if "name" not in changes:
            raise Invalid("name is required")
        item = readlists.create(account, changes["name"], summary=changes.get("summary", ""),
                                items=changes.get("items", []))
        return readlist_dto(account, item)
    libraries = lists.values(request, "library_id")
    words = (request.GET.get("search") or "").casefold()
    found = [r for r in readlists.visible(account) if words in r["name"].casefold()
             and (not libraries or any(ids.library_of(m) in libraries for m, _c in r["items"]))]
    found = lists.apply_sort(found, request, SORTS, [("name", False)])
    index = ids.current()
    return lists.page(found, request, lambda r: readlist_dto(account, r, shown(account, r, index)))


@app_view(methods=("GET", "PATCH", "DELETE"))
def readlist_one(request, rid):
    """GET: the ReadListDto; PATCH {name?, summary?, ordered?, bookIds?}: 204; DELETE: 204."""
    account = request.account
    if request.method == "PATCH":
        readlists.update(account, rid, _changes(account, request.data))
        return None
    if request.method == "DELETE":
        readlists.delete(account, rid)
        return None
    return readlist_dto(account, readlists.get(account, rid))


def _book_filter(request):
    """The tag= and author=name,role filters of Komga's read list books, on what the BookDto shows
    (the chapter's tags; its groups as translators, and the manga's writers and artists)."""
    tags = {v.casefold() for v in lists.values(request, "tag")}
    people = _author_filters(request)

    def keep(row):
        if tags and not tags & {t.casefold() for t in manga_detail.chapter_tags(row.chapter)}:
            return False
        if people:
            book = dto.book(request.account["name"], row.manga, row.chapter, row.position, row.entry)
            names = {(a["name"].casefold(), a["role"]) for a in book["metadata"]["authors"] + dto.authors(row.manga)}
            return any(name == n and role in ("", r) for name, role in people for n, r in names)
        return True

    return keep


@app_view()
def readlist_books(request, rid):
    """GET …/books (read_status=, media_status=, library_id=, deleted=, tag=, author=): Page<BookDto>
    in the list's order (Komga ignores a sort here too)."""
    account = request.account
    user = account["name"]
    keep = _book_filter(request)
    found = [r for r in _filtered(request, rows(account, readlists.get(account, rid))) if keep(r)]
    return lists.page(found, request, lambda r: dto.book(user, r.manga, r.chapter, r.position, r.entry))


@app_view()
def readlist_thumbnail(request, rid):
    """The cover of the manga of the list's first chapter (as the user sees the list)."""
    account = request.account
    pairs = shown(account, readlists.get(account, rid))
    path = thumbs.make(pairs[0][0]) if pairs else None
    response = image_response(request, str(path)) if path else None
    if response is None:
        raise NotFound("this read list has no cover")
    return response


def _neighbour(request, rid, bid, step):
    account = request.account
    found = rows(account, readlists.get(account, rid))
    at = next((k for k, r in enumerate(found) if ids.book_id(r.manga.name, r.chapter.id) == bid), None)
    if at is None or not 0 <= at + step < len(found):
        raise NotFound("no such book in this read list")
    row = found[at + step]
    return dto.book(account["name"], row.manga, row.chapter, row.position, row.entry)


@app_view()
def readlist_book_next(request, rid, bid):
    return _neighbour(request, rid, bid, 1)


@app_view()
def readlist_book_previous(request, rid, bid):
    return _neighbour(request, rid, bid, -1)


@app_view()
def book_readlists(request, bid):
    """GET /books/{id}/readlists: the read lists the user sees that hold the chapter."""
    account = request.account
    manga, chapter = book_or_404(account["name"], bid)
    return [readlist_dto(account, r) for r in readlists.containing(account, manga.name, chapter.id)]

