"""The reader page read/<manga>/<book>/<chapter>/[?v=] and its JSON API: GET /api/chapter,
POST /api/progress."""
from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from mangacircus.http import HttpError, api

from . import chapter as chapters
from .auth import page


@require_GET
@page()
def read(request, manga, book, chapter):
    user = request.account["name"]
    try:
        payload = chapters.chapter_payload(user, manga, f"{book}/{chapter}", request.GET.get("v") or None)
    except HttpError as e:
        raise Http404(e.message) from None
    chapters.mark_notes_read(user, payload["manga"]["name"], payload["chapter"]["id"])
    root = request.META.get("SCRIPT_NAME", "") + "/"
    pages = payload["pages"]
    label = payload["chapter"]["title"] or f"Ch. {payload['chapter']['key']}"
    return render(request, "reader/read.html", {
        "payload": payload,
        "page_title": f"{label} · {payload['manga']['title']}",
        "manga_url": root + payload["manga_url"],
        "first_image": root + pages[payload["start"]]["u"] if pages else None,
    })


@api()
def chapter_api(request):
    manga, cid = request.GET.get("m"), request.GET.get("c")
    if not manga:
        raise HttpError(400, "m is required")
    if not cid:
        raise HttpError(400, "c is required")
    user = request.account["name"]
    payload = chapters.chapter_payload(user, manga, cid, request.GET.get("v") or None)
    chapters.mark_notes_read(user, payload["manga"]["name"], payload["chapter"]["id"])
    return payload


@api(methods=("POST",))
def progress_api(request):
    return {"progress": chapters.save_position(request.account["name"], request.data)}
