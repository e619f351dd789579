"""Library routes: page images (/lib/…), their thumbnails (/lib-thumb/…), cover thumbnails (/thumb/…)
and the admin's "scan now"."""
from django.http import JsonResponse
from django.utils.translation import gettext as _

from mangacircus.http import api, field, text_field

from . import files, guard, ids, index, page_thumbs, renames, service, thumbs

RESCAN_WAIT = 600  # seconds an admin's "scan now" waits for its report


def _refusal(request):
    if request.method not in ("GET", "HEAD"):
        return JsonResponse({"error": f"method {request.method} not allowed"}, status=405,
                            headers={"Allow": "GET, HEAD"})
    if request.account is None:
        return JsonResponse({"error": "sign in first"}, status=401)
    return None


def _not_found():
    return JsonResponse({"error": "not found"}, status=404)


def page_image(request, rel=None):
    """GET /lib/<path>[?w=<pixels>]: a page image from LIBRARY, for signed-in users only (see
    files.py); `w` is the width a PDF page is wanted at (the reader asks for its screen's)."""
    refusal = _refusal(request)
    if refusal:
        return refusal
    width = request.GET.get("w")
    if width is not None and not (width.isascii() and width.isdigit() and 0 < int(width) <= 100_000):
        return JsonResponse({"error": _("w must be a width in pixels, a whole number from 1 to 100000")}, status=400)
    if not guard.allowed(request.account, (rel or "").split("/", 1)[0]):
        return _not_found()  # a manga this user may not see is as missing as one that is not there
    return files.page_response(request, rel or "", int(width) if width else None) or _not_found()


def page_thumbnail(request, rel=None):
    """GET /lib-thumb/<path>: a small WebP of the page /lib/<path>, made on the first request;
    the same checks as /lib/ (session, the user's restrictions, the path) before any file is touched."""
    refusal = _refusal(request)
    if refusal:
        return refusal
    if not guard.allowed(request.account, (rel or "").split("/", 1)[0]):
        return _not_found()
    path = page_thumbs.make(rel or "")
    response = files.image_response(request, str(path)) if path else None
    return response or _not_found()


def cover_thumbnail(request, name=None):
    """GET /thumb/<manga> or /thumb/<manga>/<file>.webp (the URL the reader hands out, naming the
    thumbnail's file for nginx: library/links.py): the manga's cover as a small WebP, made on demand
    when missing. A file name that is not the current one still gets the current thumbnail."""
    refusal = _refusal(request)
    if refusal:
        return refusal
    if name and "/" in name:
        name, _, file = name.rpartition("/")
        if not thumbs.FILE_NAME.fullmatch(file):
            return _not_found()
    manga = index.current().get(name)
    path = thumbs.make(manga) if manga and guard.allowed(request.account, manga.name) else None
    response = files.image_response(request, str(path)) if path else None
    return response or _not_found()


@api(auth="admin", methods=("POST",))
def admin_rescan(request):
    """POST /api/admin/rescan {full}: scan now and answer with the report (a full scan with full)."""
    full = field(request.data, "full", bool, required=False, default=False)
    report = service.scan_now(full=full, timeout=RESCAN_WAIT)
    if report is None:
        message = _("the scan is still running; its report will be on the admin screen")
        return JsonResponse({"scanning": True, "message": message}, status=202)
    return report


@api(auth="admin")
def admin_renames(request):
    """GET /api/admin/renames: the renames and renumberings the scans recognised, newest first."""
    return {"renames": ids.renames()}


@api(auth="admin", methods=("POST",))
def admin_rename_undo(request):
    """POST /api/admin/renames/undo {id}: that rename was a wrong match; the data goes back."""
    move = renames.undo(text_field(request.data, "id"))
    return {"undone": {"from": move.old, "to": move.new, "chapters": move.chapters}, "renames": ids.renames()}
