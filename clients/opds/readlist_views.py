"""/opds/readlists and /opds/v2/readlists: a shelf per read list the user sees (docs/apps.md), its
chapters in the list's order as publications, without those hidden from the user."""
from django.urls import reverse
from django.utils.translation import gettext as _

from reader import readlists, serverprefs

from ..komga import dto, ids
from ..komga.auth import app_view
from ..komga.readlist_views import rows, shown
from . import feed, v2, v2_views
from .views import _new_feed, _xml, chapter_entry


def _updated(item, found):
    return dto.dt(max([item["modified"]] + [m.updated or 0 for m, _ in found]))


def _title(manga, chapter):
    return f"{manga.title} · {dto.chapter_title(manga, chapter)}"


def _with_chapters(account):
    """[(read list, [(Manga, Chapter) the account sees])] of every list the account sees."""
    index = ids.current()
    return [(item, shown(account, item, index)) for item in readlists.visible(account)]


@app_view(cookies=False)
def shelves(request):
    everything = _with_chapters(request.account)
    latest = max((_updated(i, f) for i, f in everything), default=dto.dt(0))
    doc = _new_feed(request, "readlists", _("Read lists"), feed.NAVIGATION, latest)
    for item, found in everything:
        entry = doc.entry(entry_id=f"urn:mangacircus:readlist:{item['id']}", title=item["name"],
                          updated=_updated(item, found), content=item["summary"] or f"{len(found)} chapters")
        feed.link(entry, "subsection", reverse("opds-readlist", args=[item["id"]]), feed.ACQUISITION)
        if found and found[0][0].cover:
            cover = reverse("opds-thumbnail", args=[ids.series_id(found[0][0].name)])
            feed.link(entry, feed.REL_IMAGE, cover, "image/webp")
            feed.link(entry, feed.REL_THUMBNAIL, cover, "image/webp")
    return _xml(doc.bytes(), feed.NAVIGATION)


@app_view(cookies=False)
def shelf(request, rid):
    """A read list's acquisition feed: each chapter as in its manga's feed, titled with the manga."""
    account = request.account
    item = readlists.get(account, rid)
    found = rows(account, item)
    doc = _new_feed(request, f"readlist:{rid}", item["name"], feed.ACQUISITION,
                    _updated(item, [(r.manga, r.chapter) for r in found]))
    feed.link(doc.root, "up", reverse("opds-readlists"), feed.NAVIGATION)
    downloads = serverprefs.downloads_allowed()
    for row in found:
        chapter_entry(doc, account["name"], row.manga, row.chapter, row.entry, downloads,
                      title=_title(row.manga, row.chapter))
    return _xml(doc.bytes(), feed.ACQUISITION)


@v2_views.catalog_view
def shelves_v2(request):
    """/opds/v2/readlists: a navigation link per read list, with how many chapters the user sees in it."""
    everything = _with_chapters(request.account)
    navigation = [v2.link(reverse("opds2-readlist", args=[item["id"]]), v2.OPDS2, "subsection", item["name"],
                          properties={"numberOfItems": len(found)})
                  for item, found in everything]
    latest = max((_updated(i, f) for i, f in everything), default=dto.dt(0))
    return v2_views._json(v2.document(title=_("Read lists"), self_href=v2_views._self(request),
                                      modified=latest, navigation=navigation))


@v2_views.catalog_view
def shelf_v2(request, rid):
    account = request.account
    item = readlists.get(account, rid)
    found = rows(account, item)
    publications = []
    for row in found:
        publication = v2.publication(account["name"], row.manga, row.chapter, row.position, row.entry)
        publication["metadata"]["title"] = _title(row.manga, row.chapter)
        publications.append(publication)
    doc = v2.document(title=item["name"], self_href=v2_views._self(request),
                      modified=_updated(item, [(r.manga, r.chapter) for r in found]), publications=publications)
    doc["links"].append(v2.link(reverse("opds2-readlists"), v2.OPDS2, "up", _("Read lists")))
    return v2_views._json(doc)
