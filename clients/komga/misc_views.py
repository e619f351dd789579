"""/komga/api: the account, the one library, referential lists, and the empty collections and
read lists (MangaCircus has none)."""
from django.http import HttpResponse

from accounts import sessions
from mangacircus.errors import NotFound
from reader import serverprefs

from . import dto, ids, lists
from .auth import app_view, clear_cookies, forget_token
from .series_views import visible_series


@app_view(sign_in=True)
def me(request):
    """GET /api/v2/users/me (?remember-me=true adds the komga-remember-me cookie). Never ADMIN:
    the apps would show admin actions that this server does not have."""
    found = dto.user(request.account)
    if not serverprefs.downloads_allowed():
        found["roles"] = [r for r in found["roles"] if r != "FILE_DOWNLOAD"]
    return found


@app_view(methods=("POST",))
def logout(request):
    """POST /api/logout: end the app's session and expire its cookies."""
    if request.app_token:
        sessions.end_session(request.app_token)
        forget_token(request.app_token)
    response = HttpResponse(status=204)
    clear_cookies(response)
    request.app_token = None
    return response


@app_view(public=True)
def client_settings(request):
    """GET /api/v1/client-settings/global/list: KMReader asks before signing in; nothing to say."""
    return {}


@app_view()
def libraries(request):
    return [dto.LIBRARY]


@app_view()
def library_one(request, lid):
    if lid != ids.LIBRARY_ID:
        raise NotFound(f"no library {lid}")
    return dto.LIBRARY


def _distinct(user, pick):
    found = set()
    for manga, _ in visible_series(user):
        found.update(v for v in pick(manga) if v)
    return sorted(found, key=str.casefold)


@app_view()
def genres(request):
    return _distinct(request.account["name"], dto.genres)


@app_view()
def tags(request):
    """The series' tags and their books' (ComicInfo Tags), as Komga's /api/v1/tags lists both."""
    return _distinct(request.account["name"], dto.all_tags)


@app_view()
def publishers(request):
    return _distinct(request.account["name"], lambda m: [dto.text(m.meta, "publisher")])


@app_view()
def languages(request):
    return _distinct(request.account["name"], lambda m: [dto.text(m.meta, "language")])


@app_view()
def nothing(request):
    """age ratings, sharing labels, release dates: MangaCircus has none of these lists."""
    return []


def _authors(user):
    seen = {}
    for manga, _ in visible_series(user):
        for a in dto.authors(manga):
            seen[(a["name"], a["role"])] = a
    return sorted(seen.values(), key=lambda a: (a["name"].casefold(), a["role"]))


@app_view()
def authors_v1(request):
    return _authors(request.account["name"])


@app_view()
def authors_v2(request):
    words = (request.GET.get("search") or "").casefold()
    found = [a for a in _authors(request.account["name"]) if words in a["name"].casefold()]
    return lists.page(found, request, lambda a: a)


@app_view()
def empty_page(request):
    """collections and read lists: none."""
    return lists.empty_page(request)


@app_view()
def not_found(request, rest=""):
    raise NotFound("not found")
