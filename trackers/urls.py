from django.urls import path

from . import views

urlpatterns = [
    # Settings → User → Apps → Trackers (trackers/views.py)
    path("settings/user/apps/trackers/", views.act, name="mc-trackers"),
    path("settings/user/apps/trackers/<str:key>/connect/", views.connect, name="mc-tracker-connect"),
    path("settings/user/apps/trackers/<str:key>/callback/", views.callback, name="mc-tracker-callback"),
    # /api/trackers: the same, as JSON
    path("api/trackers", views.status),
    path("api/trackers/binding", views.bind),
]
