from django.urls import path

from . import admin_views

urlpatterns = [
    path("settings/admin/import/", admin_views.import_page, name="mc-admin-import"),
    path("api/admin/import", admin_views.import_api),
]
