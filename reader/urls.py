from django.urls import path

from . import (
    admin_views,
    api_library,
    api_reading,
    api_settings,
    discovery_views,
    library_views,
    settings_clock,
    settings_views,
)

urlpatterns = [
    # Library & manga pages
    path("", library_views.home, name="mc-home"),
    path("manga/<str:name>/", library_views.manga, name="mc-manga"),
    path("notifications/", library_views.notifications, name="mc-notifications"),
    path("discover/", discovery_views.discover, name="mc-discover"),
    # /settings/: the User and Admin workspaces (the sections are registered in reader/apps.py)
    path("settings/", settings_views.settings_home, name="mc-settings"),
    path("settings/user/reading/", settings_views.reading, name="mc-settings-reading"),
    path("settings/user/notifications/", settings_views.notifications, name="mc-settings-notifications"),
    path("settings/user/clock/", settings_clock.clock, name="mc-settings-clock"),
    path("settings/admin/library/", admin_views.library, name="mc-settings-library"),
    # /api/: the user and their settings
    path("api/me", api_settings.me),
    path("api/settings", api_settings.update_settings),
    # /api/: library, manga, read state, votes, follows, notifications
    path("api/library", api_library.library),
    path("api/manga", api_library.manga),
    path("api/read", api_library.mark_read),
    path("api/unread", api_library.unread),
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
]
