from django.urls import path

from . import clock_views, offline_views, push_views, read_views, settings_views

urlpatterns = [
    # /read/: the reader page, and its data
    path("read/<str:manga>/<str:book>/<str:chapter>/", read_views.read, name="mc-read"),
    path("api/chapter", read_views.chapter_api),
    path("api/progress", read_views.progress_api),
    # /settings/: the User and Admin workspaces (each app registers its sections in its apps.py)
    path("settings/", settings_views.settings_home, name="mc-settings"),
    path("settings/user/reading/", settings_views.reading, name="mc-settings-reading"),
    path("settings/user/notifications/", settings_views.notifications, name="mc-settings-notifications"),
    path("settings/user/clock/", clock_views.clock, name="mc-settings-clock"),
    path("settings/user/offline/", offline_views.storage, name="mc-settings-offline"),
    # /api/: the user and their settings
    path("api/me", settings_views.me),
    path("api/settings", settings_views.update_settings),
    # /api/reading: the Active Reading Clock (reader/clock_views.py)
    path("api/reading/pulse", clock_views.pulse),
    path("api/reading/export", clock_views.export, name="mc-reading-export"),
    path("api/reading/delete", clock_views.delete),
    # /api/push: Web Push devices (reader/push_views.py)
    path("api/push", push_views.devices),
    path("api/push/subscribe", push_views.subscribe),
    path("api/push/unsubscribe", push_views.unsubscribe),
    path("api/push/test", push_views.test),
    # offline reading (reader/offline_views.py): the service worker at the app's root, its fallback page
    path("sw.js", offline_views.worker, name="mc-worker"),
    path("offline/", offline_views.offline_page, name="mc-offline"),
]
