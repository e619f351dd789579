from django.urls import path

from . import apps_views, download_views

urlpatterns = [
    # The Apps screens: keys and addresses for reading apps
    path("settings/user/apps/", apps_views.apps, name="mc-settings-apps"),
    path("settings/admin/apps/", apps_views.admin_apps, name="mc-settings-admin-apps"),
    # Downloads as CBZ (clients/cbz.py)
    path("download/<str:manga>/<str:book>/<str:chapter>/", download_views.chapter, name="mc-download-chapter"),
    path("download/<str:manga>/<str:book>/", download_views.book, name="mc-download-book"),
]
