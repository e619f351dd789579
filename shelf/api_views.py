"""JSON API of the library, manga, votes, read state, follows and notifications (docs/api.md).

Every id is checked against the library index (unknown → 404) before anything is stored, and every
field's type (wrong → 400 naming it). Users only reach their own progress, follows and notifications.
"""
from django.http import HttpResponse
from django.utils.translation import gettext as _

from mangacircus.errors import Invalid, NotFound
from mangacircus.http import api, field, json_response, text_field
from reader import lookup, notes, progress, social, votes

from . import history, library_json, manga_detail, offline, pagecache, story
from . import library as shelf


def query_int(request, name, default, minimum=0, maximum=1_000_000):
    raw = request.GET.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise Invalid(_("%(name)s must be a whole number") % {"name": name}) from None
    if not minimum <= value <= maximum:
        raise Invalid(_("%(name)s must be between %(minimum)s and %(maximum)s")
                      % {"name": name, "minimum": minimum, "maximum": maximum})
    return value


@api()
@pagecache.cached
def library(request):
    sort = request.GET.get("sort") or "title"
    if sort not in shelf.SORTS:
        raise Invalid(_("sort must be one of %(sorts)s") % {"sorts": ', '.join(shelf.SORTS)})
    q = request.GET.get("q", "")
    if len(q) > 200:
        raise Invalid(_("q is longer than 200 characters"))
    # Each card's JSON is made once per summary and read state (shelf/library_json.py).
    body = library_json.library_body(request.account["name"], q=q, sort=sort,
                                     offset=query_int(request, "offset", 0), limit=query_int(request, "limit", None),
                                     extra={"story": story.summary(request.account["name"])})  # null when off
    return HttpResponse(body, content_type="application/json")


@api()
def recently_read(request):
    """GET /api/history?offset=&limit=: the user's reading positions, newest first."""
    return history.entries(request.account["name"], offset=query_int(request, "offset", 0),
                           limit=query_int(request, "limit", history.PAGE_SIZE, minimum=1, maximum=500))


@api()
@pagecache.cached
def manga(request):
    found = lookup.manga_or_404(_required_query(request, "m"), user=request.account["name"])
    return json_response(manga_detail.detail(request.account["name"], found))


def _required_query(request, name):
    value = request.GET.get(name)
    if not value:
        raise Invalid(_("%(name)s is required") % {"name": name})
    return value


@api(methods=("POST",))
def mark_read(request):
    """Mark a chapter read without opening it (in its top-ranked version)."""
    user = request.account["name"]
    found, chapter = lookup.chapter_fields(request.data, user=user)
    top = votes.ranked_versions(found.name, chapter, user)[0]
    progress.mark_done(user, found.name, chapter.id, top["name"], top["pages"])
    return manga_detail.chapter_state(user, found, chapter)


@api(methods=("POST",))
def mark_many(request):
    """{m, read: bool, before?: chapter id}: every chapter of the manga, or every one before `before`."""
    user = request.account["name"]
    found = lookup.manga_field(request.data, user=user)
    read = field(request.data, "read", bool)
    before = None
    if request.data.get("before") is not None:
        before = lookup.chapter_or_404(found, text_field(request.data, "before", max_length=100))
    return manga_detail.mark_many(user, found, read, before)


@api(methods=("POST",))
def mark_series(request):
    """{manga: [names], read: bool}: every chapter of each, from the library grid's selection."""
    user = request.account["name"]
    names = request.data.get("manga")
    if not isinstance(names, list) or not 0 < len(names) <= 1000 or not all(isinstance(n, str) for n in names):
        raise Invalid(_("manga must be a list of 1 to 1000 manga names"))
    read = field(request.data, "read", bool)
    mangas = [lookup.manga_or_404(name, user=user) for name in dict.fromkeys(names)]
    return {"manga": len(mangas), "marked": manga_detail.mark_series(user, mangas, read)}


@api(methods=("POST",))
def unread(request):
    """Mark a chapter unread: forget its progress."""
    user = request.account["name"]
    found, chapter = lookup.chapter_fields(request.data, user=user)
    progress.forget(user, found.name, chapter.id)
    return manga_detail.chapter_state(user, found, chapter)


@api(methods=("POST",))
def vote(request):
    user = request.account["name"]
    found, chapter = lookup.chapter_fields(request.data, user=user)
    version = lookup.version_or_404(chapter, text_field(request.data, "v", max_length=1000))
    value = field(request.data, "value", int)
    if value not in (1, 0, -1):
        raise Invalid(_("value must be 1, -1 or 0"))
    votes.vote(user, found.name, chapter.id, version.name, value)
    return {"versions": manga_detail.versions_of(user, found, chapter)}


@api(methods=("POST",))
def follow(request):
    found = lookup.manga_field(request.data, user=request.account["name"])
    on = field(request.data, "on", bool)
    return {"m": found.name, "following": social.follow(request.account["name"], found.name, on)}


@api()
def offline_followed(request):
    return offline.followed_ahead(request.account["name"])


@api()
def notifications(request):
    index = lookup.current()
    items = notes.notifications(request.account["name"])
    for note in items:
        note["url"] = lookup.note_url(index, note)
    return {"notifications": items, "unread": sum(1 for n in items if not n.get("read"))}


@api(methods=("POST",))
def notifications_read(request):
    user = request.account["name"]
    if "all" in request.data:
        if field(request.data, "all", bool) is not True:
            raise Invalid(_("all must be true (or send id)"))
        changed = notes.mark_read(user, notes.ALL)
    elif "id" in request.data:
        note_id = text_field(request.data, "id", max_length=64)
        changed = notes.mark_read(user, note_id)
        if changed is None:
            raise NotFound(_("no notification with id %(note_id)s") % {"note_id": note_id})
    else:
        raise Invalid(_("id or all is required"))
    return {"marked": changed, "unread": notes.unread_count(user)}
