from importlib import import_module

from django.http import JsonResponse
from django.urls import include, path
from django.utils.translation import gettext_lazy

from . import jsi18n, localadmin


def routes_of(module):
    """An app's routes, in its order, as if they were written here. path("", include(module)) would
    do the same, but each include that does not match lists its patterns for the 404 page (that
    Django shows only with DEBUG): 50-90 µs of every request to a route in a later app."""
    return list(import_module(module).urlpatterns)


urlpatterns = [
    # First: page images are the most frequent requests, and their patterns shadow nothing else.
    *routes_of("library.urls"),
    path("komga/", include("clients.komga.urls")),
    *routes_of("accounts.urls"),
    *routes_of("shelf.urls"),
    *routes_of("reader.urls"),
    *routes_of("clients.urls"),
    *routes_of("peers.urls"),
    *routes_of("clients.opds.urls"),
    *routes_of("catalog.urls"),
    *routes_of("scraper.urls"),
    *routes_of("ops.urls"),
    *routes_of("imports.urls"),
    *routes_of("metadata.urls"),
    *routes_of("trackers.urls"),
    path("api/local/<str:action>", localadmin.view, name="mc-local-admin"),
    # The browser's translations, one script per language (mangacircus/jsi18n.py)
    path("jsi18n/<slug:lang>.<slug:digest>.js", jsi18n.view, name="mc-jsi18n"),
]


def _json_error(status, message):
    def view(request, exception=None):
        if request.path_info.startswith("/api/"):
            return JsonResponse({"error": str(message)}, status=status)
        from django.shortcuts import render

        return render(request, "error.html", {"status": status, "message": message}, status=status)

    return view


handler400 = _json_error(400, gettext_lazy("bad request"))
handler403 = _json_error(403, gettext_lazy("forbidden"))
handler404 = _json_error(404, gettext_lazy("not found"))
handler500 = _json_error(500, gettext_lazy("something went wrong on the server; the log has the details"))
