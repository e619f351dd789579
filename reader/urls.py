from django.urls import path

from . import (
    access_views,
    admin_views,
    api_library,
    api_reading,
    api_settings,
    apps_views,
    discovery_views,
    download_views,
    library_views,
    settings_clock,
    settings_views,
)

urlpatterns = [
    # Library & manga pages
    path("", library_views.home, name="mc-home"),
    path("manga/<str:name>/", library_views.manga, name="mc-manga"),
    path("notifications/", library_views.notifications, name="mc-notifications"),
    path("history/", library_views.recently_read, name="mc-history"),
    path("discover/", discovery_views.discover, name="mc-discover"),
    # /settings/: the User and Admin workspaces (the sections are registered in reader/apps.py)
    path("settings/", settings_views.settings_home, name="mc-settings"),
    path("settings/user/reading/", settings_views.reading, name="mc-settings-reading"),
    path("settings/user/notifications/", settings_views.notifications, name="mc-settings-notifications"),
    path("settings/user/clock/", settings_clock.clock, name="mc-settings-clock"),
    path("settings/user/apps/", apps_views.apps, name="mc-settings-apps"),
    path("settings/admin/library/", admin_views.library, name="mc-settings-library"),
    path("settings/admin/apps/", apps_views.admin_apps, name="mc-settings-admin-apps"),
    # Downloads as CBZ (reader/cbz.py)
    path("download/<str:manga>/<str:book>/<str:chapter>/", download_views.chapter, name="mc-download-chapter"),
    path("download/<str:manga>/<str:book>/", download_views.book, name="mc-download-book"),
    path("settings/admin/users/<str:name>/access/", access_views.user_access, name="mc-settings-user-access"),
    # /api/: the user and their settings
    path("api/me", api_settings.me),
    path("api/settings", api_settings.update_settings),
    # /api/: library, manga, read state, votes, follows, notifications
    path("api/library", api_library.library),
    path("api/manga", api_library.manga),
    path("api/history", api_library.recently_read),
    path("api/read", api_library.mark_read),
    path("api/unread", api_library.unread),
    path("api/read/many", api_library.mark_many),
    path("api/vote", api_library.vote),
    path("api/follow", api_library.follow),
    path("api/notifications", api_library.notifications),
    path("api/notifications/read", api_library.notifications_read),
    # /api/discovery: the opt-in discovery feed (reader/discovery.py)
    path("api/discovery", discovery_views.feed),
    path("api/discovery/dismiss", discovery_views.dismiss),
    # /api/reading: the Active Reading Clock (reader/api_reading.py)
    path("api/reading/pulse", api_reading.pulse),
    path("api/reading/export", api_reading.export, name="mc-reading-export"),
    path("api/reading/delete", api_reading.delete),
    # /api/admin: the overview
    path("api/admin", admin_views.admin_overview),
    path("api/admin/user/access", access_views.user_access_api),
]
