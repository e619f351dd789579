"""/opds/v2/: the OPDS 2.0 catalog (docs/apps.md, "OPDS 2.0"), the same shelves as /opds/ in JSON,
and a Divina manifest per chapter. Same credentials as /opds/ (Basic, an API key), no cookies; a
request without them gets an OPDS Authentication Document with its 401."""
from functools import wraps
from urllib.parse import urlencode

import orjson
from django.http import HttpResponse
from django.urls import reverse
from django.utils.encoding import escape_uri_path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from mangacircus.errors import NotFound
from reader import progress, social
from shelf import library as shelf

from ..komga import book_views, dto
from ..komga.auth import app_view
from ..komga.series_views import manga_or_404, visible_series
from . import v2
from .views import PER_PAGE, TITLE

GROUP_SIZE = 10
SHELVES = (  # (title, route, what the link says), as /opds/'s root lists them
    (_lazy("Library"), "opds2-series", _lazy("Every manga by title")),
    (_lazy("Recently added"), "opds2-recent", _lazy("The manga added last")),
    (_lazy("Continue reading"), "opds2-continue", _lazy("Where you stopped")),
    (_lazy("Followed"), "opds2-followed", _lazy("The manga you follow")),
    (_lazy("Collections"), "opds2-collections", _lazy("A shelf per collection")),
    (_lazy("Read lists"), "opds2-readlists", _lazy("A shelf per read list, its chapters in order")),
    (_lazy("By genre"), "opds2-genres", _lazy("The library by genre")),
    (_lazy("By tag"), "opds2-tags", _lazy("The library by tag, the chapters' tags too")),
)


def catalog_view(view):
    """app_view, whose 401 carries the Authentication Document naming Basic, as Authentication for
    OPDS 1.0 asks: that is what makes a Readium-based reader show its sign-in form."""
    inner = app_view(cookies=False)(view)

    @wraps(inner)
    def wrapper(request, *args, **kwargs):
        response = inner(request, *args, **kwargs)
        if response.status_code != 401:
            return response
        doc = v2.authentication(request.build_absolute_uri(reverse("opds2-root")), orjson.loads(response.content))
        challenge = HttpResponse(orjson.dumps(doc), status=401, content_type=v2.AUTHENTICATION)
        if response.has_header("WWW-Authenticate"):
            challenge["WWW-Authenticate"] = response["WWW-Authenticate"]
        return challenge

    return wrapper


def _json(doc, kind=v2.OPDS2):
    return HttpResponse(orjson.dumps(doc), content_type=kind)


def _latest(rows):
    return dto.dt(max((m.updated or 0 for m, _ in rows), default=0))


def _self(request):
    return request.get_full_path()


def _recent_rows(user):
    return sorted(visible_series(user), key=lambda r: -(r[0].added or 0))


def _continue_rows(user):
    rows = [r for r in visible_series(user) if r[1] and shelf.continue_target(r[0], r[1])]
    rows.sort(key=lambda r: -max(e.get("t") or 0 for e in r[1].values()))
    return rows


def _next_chapter(user, manga, entries):
    """The publication "Continue" leads to in a manga."""
    target = shelf.continue_target(manga, entries)
    chapters = manga.chapters()
    position = next(i for i, c in enumerate(chapters) if c.id == target["id"])
    return v2.publication(user, manga, chapters[position], position + 1, entries.get(target["id"]))


@catalog_view
def root(request):
    """Every shelf as navigation, and two groups to start from: the chapters to continue (as
    publications) and the manga added last."""
    user = request.account["name"]
    rows = visible_series(user)
    navigation = [v2.link(reverse(name), v2.OPDS2, "subsection", str(title)) for title, name, _ in SHELVES]
    groups = []
    continuing = _continue_rows(user)
    if continuing:
        groups.append({"metadata": {"title": _("Continue reading"), "numberOfItems": len(continuing)},
                       "links": [v2.link(reverse("opds2-continue"), v2.OPDS2, "self")],
                       "publications": [_next_chapter(user, m, e) for m, e in continuing[:GROUP_SIZE]]})
    recent = _recent_rows(user)
    if recent:
        groups.append({"metadata": {"title": _("Recently added"), "numberOfItems": len(recent)},
                       "links": [v2.link(reverse("opds2-recent"), v2.OPDS2, "self")],
                       "navigation": [v2.manga_link(m) for m, _ in recent[:GROUP_SIZE]]})
    return _json(v2.document(title=TITLE, self_href=_self(request), modified=_latest(rows), navigation=navigation,
                             groups=groups))


def _series_doc(request, title, rows):
    """A paginated feed of manga, each a navigation link to its own feed."""
    try:
        page = max(int(request.GET.get("page") or 1), 1)
    except ValueError:
        page = 1

    def at(n):
        query = {k: v for k, v in request.GET.items() if k != "page"}
        return f"{escape_uri_path(request.path)}?{urlencode({**query, 'page': n})}"

    paging = v2.paging(at, total=len(rows), per_page=PER_PAGE, page=page)
    shown = rows[(page - 1) * PER_PAGE: page * PER_PAGE]
    return v2.document(title=title, self_href=_self(request), modified=_latest(rows), paging=paging,
                       navigation=[v2.manga_link(m) for m, _ in shown])


def _series_feed(request, title, rows):
    return _json(_series_doc(request, title, rows))


@catalog_view
def series(request):
    return _series_feed(request, _("Library"), visible_series(request.account["name"]))


@catalog_view
def recent(request):
    return _series_feed(request, _("Recently added"), _recent_rows(request.account["name"]))


@catalog_view
def continue_reading(request):
    """The manga in progress, newest first, and, as publications, the chapter to continue in each."""
    user = request.account["name"]
    rows = _continue_rows(user)
    doc = _series_doc(request, _("Continue reading"), rows)
    if rows:
        page = doc["metadata"]["currentPage"]
        doc["publications"] = [_next_chapter(user, m, e) for m, e in rows[(page - 1) * PER_PAGE: page * PER_PAGE]]
    return _json(doc)


@catalog_view
def followed(request):
    user = request.account["name"]
    following = social.follows(user)
    return _series_feed(request, _("Followed"), [r for r in visible_series(user) if r[0].name in following])


def _by_value(request, title, route, values):
    rows = visible_series(request.account["name"])
    counted = {}
    for manga, _entries in rows:
        for value in {v.casefold(): v for v in values(manga)}.values():
            counted[value] = counted.get(value, 0) + 1
    navigation = [v2.link(reverse(route, args=[value]), v2.OPDS2, "subsection", value,
                          properties={"numberOfItems": counted[value]}) for value in sorted(counted, key=str.casefold)]
    return _json(v2.document(title=title, self_href=_self(request), modified=_latest(rows), navigation=navigation))


def _with_value(request, kind, name, values):
    rows = [r for r in visible_series(request.account["name"])
            if name.casefold() in {v.casefold() for v in values(r[0])}]
    if not rows:
        raise NotFound(f"no manga with the {kind} {name}")
    return _series_feed(request, name, rows)


@catalog_view
def genres(request):
    return _by_value(request, _("By genre"), "opds2-genre", dto.genres)


@catalog_view
def genre(request, name):
    return _with_value(request, "genre", name, dto.genres)


@catalog_view
def tags(request):
    return _by_value(request, _("By tag"), "opds2-tag", dto.all_tags)


@catalog_view
def tag(request, name):
    return _with_value(request, "tag", name, dto.all_tags)


def _matches(manga, words):
    text = f"{manga.name} {manga.title} {' '.join(dto.strings(manga.meta, 'altTitles'))} " \
           f"{' '.join(a['name'] for a in dto.authors(manga))}".casefold()
    return all(w in text for w in words)


@catalog_view
def search(request):
    """`query` (the template's `{?query}`): every word in the title, an alternative title, the
    folder's name or an author."""
    query = request.GET.get("query") or ""
    rows = [r for r in visible_series(request.account["name"]) if _matches(r[0], query.casefold().split())]
    return _series_feed(request, _("Search: %(query)s") % {"query": query}, rows)


@catalog_view
def manga(request, sid):
    """A manga's feed: each chapter a publication, in reading order."""
    user = request.account["name"]
    found = manga_or_404(user, sid)
    entries = progress.manga_progress(user, found.name)
    publications = [v2.publication(user, found, chapter, n, entries.get(chapter.id))
                    for n, chapter in enumerate(found.chapters(), start=1)]
    doc = v2.document(title=found.title, self_href=_self(request), modified=dto.dt(found.updated),
                      publications=publications)
    doc["links"].append(v2.link(reverse("opds2-series"), v2.OPDS2, "up", _("Library")))
    return _json(doc)


@catalog_view
def book_manifest(request, bid):
    """A chapter's Divina manifest (the version the user reads), for a reader to stream its pages."""
    found, chapter, version = book_views._version(request, bid)
    position = next(n for n, c in enumerate(found.chapters(), start=1) if c.id == chapter.id)
    return _json(v2.manifest(found, chapter, version, position, request.build_absolute_uri(request.path)),
                 v2.DIVINA)
