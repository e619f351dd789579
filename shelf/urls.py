from django.urls import path

from . import access_views, admin_views, api_views, collection_views, discovery_views, library_views, readlist_views

urlpatterns = [
    # Library & manga pages
    path("", library_views.home, name="mc-home"),
    path("manga/<str:name>/", library_views.manga, name="mc-manga"),
    path("notifications/", library_views.notifications, name="mc-notifications"),
    path("history/", library_views.recently_read, name="mc-history"),
    path("discover/", discovery_views.discover, name="mc-discover"),
    path("collections/", collection_views.collections_page, name="mc-collections"),
    path("collections/<str:cid>/", collection_views.collection_page, name="mc-collection"),
    path("readlists/", readlist_views.readlists_page, name="mc-readlists"),
    path("readlists/<str:rid>/", readlist_views.readlist_page, name="mc-readlist"),
    path("settings/admin/library/", admin_views.library, name="mc-settings-library"),
    path("settings/admin/users/<str:name>/access/", access_views.user_access, name="mc-settings-user-access"),
    # /api/: library, manga, read state, votes, follows, notifications
    path("api/library", api_views.library),
    path("api/manga", api_views.manga),
    path("api/history", api_views.recently_read),
    path("api/read", api_views.mark_read),
    path("api/unread", api_views.unread),
    path("api/read/many", api_views.mark_many),
    path("api/read/series", api_views.mark_series),
    path("api/vote", api_views.vote),
    path("api/follow", api_views.follow),
    path("api/notifications", api_views.notifications),
    path("api/offline/followed", api_views.offline_followed),
    # /api/collections, /api/want, /api/rating (shelf/collection_views.py)
    path("api/collections", collection_views.collections_api),
    path("api/collections/<str:cid>", collection_views.collection_api),
    path("api/collections/<str:cid>/add", collection_views.collection_add),
    path("api/collections/<str:cid>/remove", collection_views.collection_remove),
    path("api/collections/<str:cid>/delete", collection_views.collection_delete),
    path("api/want", collection_views.want),
    # /api/readlists (shelf/readlist_views.py)
    path("api/readlists", readlist_views.readlists_api),
    path("api/readlists/import", readlist_views.readlist_import),
    path("api/readlists/<str:rid>", readlist_views.readlist_api),
    path("api/readlists/<str:rid>/add", readlist_views.readlist_add),
    path("api/readlists/<str:rid>/remove", readlist_views.readlist_remove),
    path("api/readlists/<str:rid>/delete", readlist_views.readlist_delete),
    path("api/rating", collection_views.rate),
    path("api/notifications/read", api_views.notifications_read),
    # /api/discovery: the opt-in discovery feed (shelf/discovery.py)
    path("api/discovery", discovery_views.feed),
    path("api/discovery/dismiss", discovery_views.dismiss),
    # /api/admin: the overview
    path("api/admin", admin_views.admin_overview),
    path("api/admin/user/access", access_views.user_access_api),
]
