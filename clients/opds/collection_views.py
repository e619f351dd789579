"""/opds/collections and /opds/v2/collections: a shelf per collection the user sees (docs/apps.md),
its manga in the collection's order (by title when it is not ordered), without those hidden from
the user."""
from urllib.parse import quote

from django.urls import reverse
from django.utils.translation import gettext as _

from reader import collections, progress

from ..komga.auth import app_view
from ..komga.collection_views import _members
from . import feed, v2, v2_views
from .views import _latest, _new_feed, _series_feed, _xml


@app_view(cookies=False)
def shelves(request):
    account = request.account
    everything = progress.all_progress(account["name"])
    doc = _new_feed(request, "collections", _("Collections"), feed.NAVIGATION, _latest([]))
    for item in collections.visible(account):
        rows = [(m, everything.get(m.name, {})) for m in _members(account, item)]
        entry = doc.entry(entry_id=f"urn:mangacircus:collection:{item['id']}", title=item["name"],
                          updated=_latest(rows), content=item["summary"] or f"{len(rows)} manga")
        feed.link(entry, "subsection", reverse("opds-collection", args=[item["id"]]), feed.NAVIGATION)
    return _xml(doc.bytes(), feed.NAVIGATION)


@app_view(cookies=False)
def shelf(request, cid):
    account = request.account
    item = collections.get(account, cid)
    everything = progress.all_progress(account["name"])
    rows = [(m, everything.get(m.name, {})) for m in _members(account, item)]
    return _series_feed(request, f"collection:{quote(cid)}", item["name"], rows)


@v2_views.catalog_view
def shelves_v2(request):
    """/opds/v2/collections: a navigation link per collection, with how many manga the user sees in it."""
    account = request.account
    navigation = [v2.link(reverse("opds2-collection", args=[item["id"]]), v2.OPDS2, "subsection", item["name"],
                          properties={"numberOfItems": len(_members(account, item))})
                  for item in collections.visible(account)]
    return v2_views._json(v2.document(title=_("Collections"), self_href=v2_views._self(request),
                                      modified=_latest([]), navigation=navigation))


@v2_views.catalog_view
def shelf_v2(request, cid):
    account = request.account
    item = collections.get(account, cid)
    everything = progress.all_progress(account["name"])
    rows = [(m, everything.get(m.name, {})) for m in _members(account, item)]
    return v2_views._series_feed(request, item["name"], rows)
