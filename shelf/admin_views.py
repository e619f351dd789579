"""Settings → Admin → Library (HTML) and GET /api/admin, the admin overview (JSON)."""
from django.conf import settings
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts import users
from library import ids as library_ids
from library import renames as library_renames
from library import service as library_service
from mangacircus import incidents
from mangacircus.errors import Unavailable
from mangacircus.http import api
from mangacircus.pages import page, render_section

RENAMES_SHOWN = 20


@api(auth="admin")
def admin_overview(request):
    return {"users": users.list_users(), "library": str(settings.LIBRARY or ""),
            "libraries": library_service.library_list(), **library_service.admin_summary(),
            "openIncidents": incidents.open_count()}


@page(auth="admin")
@require_http_methods(["GET", "POST"])
def library(request):
    if request.method == "POST" and request.POST.get("undo"):
        move = library_renames.undo(request.POST["undo"])
        messages.success(request, _("Undone: the data of %(old)s is back under %(new)s.")
                                  % {"old": move.old, "new": move.new})
        return HttpResponseRedirect(request.path)
    if request.method == "POST":
        full = request.POST.get("full") == "1"
        report = library_service.scan_now(full=full)
        if report is None:
            raise Unavailable(_("The scan is still running; its report will be here when it ends."))
        if report.get("error"):
            raise Unavailable(_("Scan failed: %(error)s") % {"error": report['error']})
        messages.success(request, _("Full scan finished.") if full else _("Scan finished."))
        return HttpResponseRedirect(request.path)
    summary = library_service.admin_summary()
    return render_section(request, "settings/library.html", "admin", "library", library=settings.LIBRARY,
                          libraries=library_service.library_list(),
                          summary=summary, renames=library_ids.renames()[:RENAMES_SHOWN])
