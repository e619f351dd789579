from django.urls import path, re_path

from . import views

urlpatterns = [
    # Page images: everything under /lib/ goes to one view, so a malformed path is still a 401 without a session.
    re_path(r"^lib(?:/(?P<rel>[\s\S]*))?$", views.page_image, name="mc-lib"),
    # /api/admin: library
    path("api/admin/rescan", views.admin_rescan),
]
