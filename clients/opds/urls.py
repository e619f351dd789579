"""/opds/: the OPDS 1.2 catalog (docs/apps.md)."""
from django.urls import path

from ..komga import urls as _converters  # noqa: F401  (registers the sid, bid, cid and rid converters)
from . import collection_views, readlist_views, v2_urls, views

urlpatterns = [
    path("opds/", views.root, name="opds-root"),
    path("opds/series", views.series, name="opds-series"),
    path("opds/recent", views.recent, name="opds-recent"),
    path("opds/continue", views.continue_reading, name="opds-continue"),
    path("opds/followed", views.followed, name="opds-followed"),
    path("opds/collections", collection_views.shelves, name="opds-collections"),
    path("opds/collections/<cid:cid>", collection_views.shelf, name="opds-collection"),
    path("opds/readlists", readlist_views.shelves, name="opds-readlists"),
    path("opds/readlists/<rid:rid>", readlist_views.shelf, name="opds-readlist"),
    path("opds/genres", views.genres, name="opds-genres"),
    path("opds/genres/<path:name>", views.genre, name="opds-genre"),
    path("opds/tags", views.tags, name="opds-tags"),
    path("opds/tags/<path:name>", views.tag, name="opds-tag"),
    path("opds/search", views.search, name="opds-search"),
    path("opds/search.xml", views.opensearch, name="opds-opensearch"),
    path("opds/series/<sid:sid>", views.manga, name="opds-manga"),
    path("opds/series/<sid:sid>/thumbnail", views.thumbnail, name="opds-thumbnail"),
    path("opds/books/<bid:bid>/file", views.file, name="opds-file"),
    path("opds/books/<bid:bid>/pages/<int:n>", views.page, name="opds-page"),
    *v2_urls.urlpatterns,
]
