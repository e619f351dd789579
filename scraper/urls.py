from django.urls import path

from . import mangadex_views, proxy, views

urlpatterns = [
    # /settings/admin/scraper/: the admin screen, one URL per tab
    path("settings/admin/scraper/", views.scraper_home, name="mc-admin-scraper-home"),
    path("settings/admin/scraper/<slug:tab>/", views.scraper_tab, name="mc-admin-scraper"),
    # /api/admin/scraper/: admin-only proxy to the daemon's private API
    path("api/admin/scraper/<path:path>", proxy.forward),
    # Settings → User → MangaDex: each user's own MangaDex account (scraper/mangadex_views.py)
    path("settings/user/mangadex/", mangadex_views.settings_page, name="mc-settings-mangadex"),
    path("api/mangadex/account", mangadex_views.account),
    path("api/mangadex/account/disconnect", mangadex_views.disconnect),
    path("api/mangadex/follows", mangadex_views.follows),
    path("api/mangadex/read-markers", mangadex_views.import_read_markers),
]
