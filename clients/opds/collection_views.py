"""/opds/collections: a shelf per collection the user sees (docs/apps.md), its manga in the
collection's order (by title when it is not ordered), without those hidden from the user."""
from urllib.parse import quote

from django.urls import reverse

from reader import collections, progress

from ..komga.auth import app_view
from ..komga.collection_views import _members
from . import feed
from .views import _latest, _new_feed, _series_feed, _xml


@app_view(cookies=False)
def shelves(request):
    account = request.account
    everything = progress.all_progress(account["name"])
    doc = _new_feed(request, "collections", "Collections", feed.NAVIGATION, _latest([]))
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
