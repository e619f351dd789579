from django.urls import path, re_path

from . import views

urlpatterns = [
    # Everything under /lib/, /lib-thumb/ and /thumb/ goes to one view each, so a malformed path is still
    # a 401 without a session, and a JSON 404 with one.
    re_path(r"^lib(?:/(?P<rel>[\s\S]*))?$", views.page_image, name="mc-lib"),
    re_path(r"^thumb(?:/(?P<name>[\s\S]*))?$", views.cover_thumbnail, name="mc-thumb"),
    re_path(r"^lib-thumb(?:/(?P<rel>[\s\S]*))?$", views.page_thumbnail, name="mc-page-thumb"),
    # /api/admin: library
    path("api/admin/rescan", views.admin_rescan),
    path("api/admin/renames", views.admin_renames),
    path("api/admin/renames/undo", views.admin_rename_undo),
]
