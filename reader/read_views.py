"""The reader page read/<manga>/<book>/<chapter>/[?v=] and its JSON API: GET /api/chapter,
POST /api/progress."""
from django.shortcuts import render
from django.urls import get_script_prefix
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from library import links
from mangacircus.errors import Invalid
from mangacircus.http import api
from mangacircus.pages import page

from . import chapter as chapters
from . import notes


@require_GET
@page()
def read(request, manga, book, chapter):
    user = request.account["name"]
    payload = chapters.chapter_payload(user, manga, f"{book}/{chapter}", request.GET.get("v") or None,
                                       request.GET.get("list") or None)
    links.sign_pages(request, payload["pages"])
    if not request.GET.get("peek"):  # a reader fetching the next chapter ahead has not opened it yet
        notes.mark_chapter_read(user, payload["manga"]["name"], payload["chapter"]["id"])
    root = get_script_prefix()
    pages = payload["pages"]
    label = payload["chapter"]["title"] or payload["chapter"]["label"]
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
        raise Invalid(_("m is required"))
    if not cid:
        raise Invalid(_("c is required"))
    user = request.account["name"]
    payload = chapters.chapter_payload(user, manga, cid, request.GET.get("v") or None, request.GET.get("list") or None)
    links.sign_pages(request, payload["pages"])
    if not request.GET.get("peek"):  # a reader fetching the next chapter ahead has not opened it yet
        notes.mark_chapter_read(user, payload["manga"]["name"], payload["chapter"]["id"])
    return payload


@api(methods=("POST",))
def progress_api(request):
    return {"progress": chapters.save_position(request.account["name"], request.data)}
