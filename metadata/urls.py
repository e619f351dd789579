from django.urls import path

from . import admin_views, api_views

urlpatterns = [
    # Settings → Admin → Metadata (metadata/admin_views.py)
    path("settings/admin/metadata/", admin_views.review, name="mc-settings-metadata"),
    path("settings/admin/metadata/covers/<str:file>", admin_views.cover, name="mc-settings-metadata-cover"),
    # /api/admin/metadata: the same, as JSON (metadata/api_views.py)
    path("api/admin/metadata", api_views.overview),
    path("api/admin/metadata/accept", api_views.accept),
    path("api/admin/metadata/accept-above", api_views.accept_above),
    path("api/admin/metadata/set-aside", api_views.set_aside),
    path("api/admin/metadata/search-again", api_views.search_again),
]
