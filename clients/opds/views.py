"""/opds/: an OPDS 1.2 catalog with Page Streaming (docs/apps.md). Navigation feeds (by title,
recently added, continue reading, followed, collections (collection_views.py), read lists
(readlist_views.py), by genre, by tag), an acquisition feed per manga with a CBZ per chapter and a
page stream, OpenSearch. Same credentials as /komga/ (Basic, an API key), no cookies."""
import inspect
from urllib.parse import quote, urlencode

from django.http import HttpResponse
from django.urls import reverse
from django.utils.encoding import escape_uri_path
from django.utils.translation import gettext as _

from mangacircus.errors import Invalid, NotFound
from reader import progress, serverprefs, social
from shelf import library as shelf

from ..komga import book_views, dto, ids, state
from ..komga.auth import app_view
from ..komga.series_views import manga_or_404, series_thumbnail, visible_series
from . import feed, pages

PER_PAGE = 50
TITLE = "MangaCircus"


def _xml(body, kind):
    return HttpResponse(body, content_type=kind)


def _new_feed(request, feed_id, title, kind, updated):
    return feed.Feed(feed_id=f"urn:mangacircus:{feed_id}", title=title, updated=updated,
                     self_href=request.get_full_path(), kind=kind, start_href=reverse("opds-root"),
                     search_href=reverse("opds-opensearch"))


def _latest(rows):
    return dto.dt(max((m.updated or 0 for m, _ in rows), default=0))


@app_view(cookies=False)
def root(request):
    user = request.account["name"]
    rows = visible_series(user)
    doc = _new_feed(request, "root", TITLE, feed.NAVIGATION, _latest(rows))
    feed.link(doc.root, "alternate", reverse("opds2-root"), "application/opds+json", title="OPDS 2.0")
    for key, title, name, text in (
            ("series", _("Library"), "opds-series", _("Every manga by title")),
            ("recent", _("Recently added"), "opds-recent", _("The manga added last")),
            ("continue", _("Continue reading"), "opds-continue", _("Where you stopped")),
            ("followed", _("Followed"), "opds-followed", _("The manga you follow")),
            ("collections", _("Collections"), "opds-collections", _("A shelf per collection")),
            ("readlists", _("Read lists"), "opds-readlists", _("A shelf per read list, its chapters in order")),
            ("genres", _("By genre"), "opds-genres", _("The library by genre")),
            ("tags", _("By tag"), "opds-tags", _("The library by tag, the chapters' tags too"))):
        entry = doc.entry(entry_id=f"urn:mangacircus:{key}", title=title, updated=_latest(rows), content=text)
        feed.link(entry, "subsection", reverse(name), feed.NAVIGATION)
    return _xml(doc.bytes(), feed.NAVIGATION)


def _series_feed(request, feed_id, title, rows):
    """A paginated navigation feed of manga, each leading to its acquisition feed."""
    try:
        page = max(int(request.GET.get("page") or 1), 1)
    except ValueError:
        page = 1
    total = len(rows)
    last = max((total + PER_PAGE - 1) // PER_PAGE, 1)
    doc = _new_feed(request, feed_id, title, feed.NAVIGATION, _latest(rows))

    def at(n):
        query = {k: v for k, v in request.GET.items() if k != "page"}
        return f"{escape_uri_path(request.path)}?{urlencode({**query, 'page': n})}"

    doc.paging(total=total, per_page=PER_PAGE, start_index=(page - 1) * PER_PAGE + 1, first=at(1), last=at(last),
               previous=at(page - 1) if page > 1 else None, next_=at(page + 1) if page < last else None)
    for manga, entries in rows[(page - 1) * PER_PAGE: page * PER_PAGE]:
        sid = ids.series_id(manga.name)
        total_ch, read, _unread = dto.counts(manga, entries)
        # A navigation entry: no author, or Readium's converter (Thorium) makes it a publication
        entry = doc.entry(entry_id=f"urn:mangacircus:series:{sid}", title=manga.title, updated=dto.dt(manga.updated),
                          summary=_summary(f"{total_ch} chapters, {read} read", manga),
                          categories=dto.genres(manga), language=dto.text(manga.meta, "language"))
        feed.link(entry, "subsection", reverse("opds-manga", args=[sid]), feed.ACQUISITION)
        if manga.cover:
            cover = reverse("opds-thumbnail", args=[sid])
            feed.link(entry, feed.REL_IMAGE, cover, "image/webp")
            feed.link(entry, feed.REL_THUMBNAIL, cover, "image/webp")
    return _xml(doc.bytes(), feed.NAVIGATION)


def _summary(counts, manga):
    description = dto.text(manga.meta, "description")
    return f"{counts}. {description}" if description else counts


@app_view(cookies=False)
def series(request):
    return _series_feed(request, "series", _("Library"), visible_series(request.account["name"]))


@app_view(cookies=False)
def recent(request):
    rows = sorted(visible_series(request.account["name"]), key=lambda r: -(r[0].added or 0))
    return _series_feed(request, "recent", _("Recently added"), rows)


@app_view(cookies=False)
def continue_reading(request):
    rows = [r for r in visible_series(request.account["name"]) if r[1] and shelf.continue_target(r[0], r[1])]
    rows.sort(key=lambda r: -max(e.get("t") or 0 for e in r[1].values()))
    return _series_feed(request, "continue", _("Continue reading"), rows)


@app_view(cookies=False)
def followed(request):
    user = request.account["name"]
    following = social.follows(user)
    return _series_feed(request, "followed", _("Followed"), [r for r in visible_series(user) if r[0].name in following])


def _by_value(request, kind, title, values):
    """A navigation feed of the values `values(manga)` gives (genres, tags), each with its manga count."""
    rows = visible_series(request.account["name"])
    counted = {}
    for manga, _entries in rows:
        for value in {v.casefold(): v for v in values(manga)}.values():
            counted[value] = counted.get(value, 0) + 1
    doc = _new_feed(request, f"{kind}s", title, feed.NAVIGATION, _latest(rows))
    for value in sorted(counted, key=str.casefold):
        entry = doc.entry(entry_id=f"urn:mangacircus:{kind}:{quote(value)}", title=value, updated=_latest(rows),
                          content=f"{counted[value]} manga")
        feed.link(entry, "subsection", reverse(f"opds-{kind}", args=[value]), feed.NAVIGATION)
    return _xml(doc.bytes(), feed.NAVIGATION)


def _with_value(request, kind, name, values):
    rows = [r for r in visible_series(request.account["name"])
            if name.casefold() in {v.casefold() for v in values(r[0])}]
    if not rows:
        raise NotFound(f"no manga with the {kind} {name}")
    return _series_feed(request, f"{kind}:{quote(name)}", name, rows)


@app_view(cookies=False)
def genres(request):
    return _by_value(request, "genre", _("By genre"), dto.genres)


@app_view(cookies=False)
def genre(request, name):
    return _with_value(request, "genre", name, dto.genres)


@app_view(cookies=False)
def tags(request):
    """The manga's tags and their chapters' (ComicInfo Tags), as the Komga API's tag filter."""
    return _by_value(request, "tag", _("By tag"), dto.all_tags)


@app_view(cookies=False)
def tag(request, name):
    return _with_value(request, "tag", name, dto.all_tags)


@app_view(cookies=False)
def search(request):
    words = (request.GET.get("q") or "").casefold().split()
    rows = [r for r in visible_series(request.account["name"]) if _matches(r[0], words)]
    return _series_feed(request, "search", _("Search: %(query)s") % {"query": request.GET.get("q") or ""}, rows)


def _matches(manga, words):
    text = f"{manga.name} {manga.title} {' '.join(dto.strings(manga.meta, 'altTitles'))} " \
           f"{' '.join(a['name'] for a in dto.authors(manga))}".casefold()
    return all(w in text for w in words)


@app_view(cookies=False)
def opensearch(request):
    template = request.build_absolute_uri(reverse("opds-search")) + "?q={searchTerms}"
    return HttpResponse(feed.opensearch(TITLE, template), content_type=feed.SEARCH_TYPE)


@app_view(cookies=False)
def manga(request, sid):
    """A manga's acquisition feed: one entry per chapter, with its CBZ and its page stream."""
    user = request.account["name"]
    found = manga_or_404(user, sid)
    entries = progress.manga_progress(user, found.name)
    doc = _new_feed(request, f"series:{sid}", found.title, feed.ACQUISITION, dto.dt(found.updated))
    feed.link(doc.root, "up", reverse("opds-series"), feed.NAVIGATION)
    downloads = serverprefs.downloads_allowed()
    for chapter in found.chapters():
        chapter_entry(doc, user, found, chapter, entries.get(chapter.id), downloads)
    return _xml(doc.bytes(), feed.ACQUISITION)


def chapter_entry(doc, user, manga, chapter, entry_state, downloads, title=None):
    """A chapter's acquisition entry: its CBZ (when `downloads`), its page stream, the cover."""
    sid, bid = ids.series_id(manga.name), ids.book_id(manga.name, chapter.id)
    version = state.chosen_version(user, manga, chapter, entry_state)
    pages_line = f"{version.page_count} pages · {version.name}"
    description = dto.text(manga.meta, "description")
    # the description first: Readium's converter (Thorium) takes the content for it
    entry = doc.entry(entry_id=f"urn:mangacircus:book:{bid}", title=title or dto.chapter_title(manga, chapter),
                      updated=dto.dt(manga.updated), authors=dto.strings(manga.meta, "authors"),
                      content="\n\n".join(filter(None, [description, pages_line])),
                      categories=dto.genres(manga), language=dto.text(manga.meta, "language"))
    if downloads:
        feed.link(entry, feed.REL_ACQUISITION, reverse("opds-file", args=[bid]), feed.CBZ)
    kind, convert = pages.stream_type(version)
    stream = feed.link(entry, feed.REL_STREAM, reverse("opds-page", args=[bid, 0]).removesuffix("0")
                       + "{pageNumber}?maxWidth={maxWidth}" + ("&type=jpeg" if convert else ""), kind)
    stream.set(f"{{{feed.PSE}}}count", str(version.page_count))
    if entry_state:
        stream.set(f"{{{feed.PSE}}}lastRead", str(state.page_of(entry_state, version) - 1))
        stream.set(f"{{{feed.PSE}}}lastReadDate", dto.dt(entry_state.get("t")))
    if manga.cover:
        cover = reverse("opds-thumbnail", args=[sid])
        feed.link(entry, feed.REL_IMAGE, cover, "image/webp")
        feed.link(entry, feed.REL_THUMBNAIL, cover, "image/webp")
    return entry


@app_view(cookies=False)
def page(request, bid, n):
    """A streamed page: {pageNumber} counts from 0; maxWidth draws a PDF's page at that width (the
    first step of its ladder as wide), other pages are sent at their size; `type=jpeg` (what the
    link of a chapter of mixed image types asks for) sends it as a JPEG."""
    wanted = request.GET.get("type")
    if wanted not in (None, "", "jpeg"):
        raise Invalid("type must be jpeg")
    max_width = request.GET.get("maxWidth", "")
    width = int(max_width) if max_width.isascii() and max_width.isdigit() and 0 < int(max_width) <= 100_000 else None
    version = book_views._version(request, bid)[2]
    if not wanted:
        return book_views.page_response(request, version, n, width)
    names = version.files()
    if not 0 <= n < len(names):
        raise Invalid("Page number does not exist")
    response = pages.jpeg_response(request, f"{version.path}/{names[n]}")
    if response is None:
        raise NotFound("the page image cannot be read")
    return response


# The same views as /komga/'s, without the session cookies.
file = app_view(cookies=False)(inspect.unwrap(book_views.book_file))
thumbnail = app_view(cookies=False)(inspect.unwrap(series_thumbnail))
