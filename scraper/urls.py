from django.urls import path

from . import proxy, views

urlpatterns = [
    # /settings/admin/scraper/: the admin screen, one URL per tab
    path("settings/admin/scraper/", views.scraper_home, name="mc-admin-scraper-home"),
    path("settings/admin/scraper/<slug:tab>/", views.scraper_tab, name="mc-admin-scraper"),
    # /api/admin/scraper/: admin-only proxy to the daemon's private API
    path("api/admin/scraper/<path:path>", proxy.forward),
]
