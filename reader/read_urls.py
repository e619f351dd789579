from django.urls import path

from . import read_views

urlpatterns = [
    # /read/: the reader page
    path("read/<str:manga>/<str:book>/<str:chapter>/", read_views.read, name="mc-read"),
    # /api/: the reader's data
    path("api/chapter", read_views.chapter_api),
    path("api/progress", read_views.progress_api),
]
