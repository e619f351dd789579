"""/opds/v2/: the OPDS 2.0 catalog (docs/apps.md, "OPDS 2.0"). Covers, CBZ files and page images
are /opds/'s own routes."""
from django.urls import path

from ..komga import urls as _converters  # noqa: F401  (registers the sid, bid, cid and rid converters)
from . import collection_views, readlist_views
from . import v2_views as views

urlpatterns = [
    path("opds/v2/", views.root, name="opds2-root"),
    path("opds/v2/series", views.series, name="opds2-series"),
    path("opds/v2/recent", views.recent, name="opds2-recent"),
    path("opds/v2/continue", views.continue_reading, name="opds2-continue"),
    path("opds/v2/followed", views.followed, name="opds2-followed"),
    path("opds/v2/collections", collection_views.shelves_v2, name="opds2-collections"),
    path("opds/v2/collections/<cid:cid>", collection_views.shelf_v2, name="opds2-collection"),
    path("opds/v2/readlists", readlist_views.shelves_v2, name="opds2-readlists"),
    path("opds/v2/readlists/<rid:rid>", readlist_views.shelf_v2, name="opds2-readlist"),
    path("opds/v2/genres", views.genres, name="opds2-genres"),
    path("opds/v2/genres/<path:name>", views.genre, name="opds2-genre"),
    path("opds/v2/tags", views.tags, name="opds2-tags"),
    path("opds/v2/tags/<path:name>", views.tag, name="opds2-tag"),
    path("opds/v2/search", views.search, name="opds2-search"),
    path("opds/v2/series/<sid:sid>", views.manga, name="opds2-manga"),
    path("opds/v2/books/<bid:bid>/manifest", views.book_manifest, name="opds2-manifest"),
]
