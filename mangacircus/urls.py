from django.http import JsonResponse
from django.urls import include, path

from . import localadmin

urlpatterns = [
    # First: page images are the most frequent requests, and their patterns shadow nothing else.
    path("", include("library.urls")),
    path("komga/", include("clients.komga.urls")),
    path("", include("accounts.urls")),
    path("", include("shelf.urls")),
    path("", include("reader.urls")),
    path("", include("clients.urls")),
    path("", include("peers.urls")),
    path("", include("clients.opds.urls")),
    path("", include("catalog.urls")),
    path("", include("scraper.urls")),
    path("", include("ops.urls")),
    path("", include("imports.urls")),
    path("", include("metadata.urls")),
    path("", include("trackers.urls")),
    path("api/local/<str:action>", localadmin.view, name="mc-local-admin"),
]


def _json_error(status, message):
    def view(request, exception=None):
        if request.path_info.startswith("/api/"):
            return JsonResponse({"error": message}, status=status)
        from django.shortcuts import render

        return render(request, "error.html", {"status": status, "message": message}, status=status)

    return view


handler400 = _json_error(400, "bad request")
handler403 = _json_error(403, "forbidden")
handler404 = _json_error(404, "not found")
handler500 = _json_error(500, "something went wrong on the server; the log has the details")
