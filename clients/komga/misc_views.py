"""/komga/api: the account, the one library, genres, publishers and languages (collections:
collection_views.py, read lists: readlist_views.py). Tags and authors: referential_views.py."""
from django.http import HttpResponse

from accounts import sessions
from library import libraries as library_libraries
from library import service as library_service
from mangacircus.errors import NotFound
from reader import access, serverprefs

from . import dto
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


def _libraries(account):
    """The LibraryDtos of the libraries the account may see (all of them but for a restriction)."""
    shelves = access.restrictions(account["name"])["libraries"]
    down = {lib["name"]: lib["unavailable"] for lib in library_service.library_list()}
    return [dto.library(lib, down.get(lib.name)) for lib in library_libraries.all()
            if shelves is None or lib.name in shelves]


@app_view()
def libraries(request):
    return _libraries(request.account)


@app_view()
def library_one(request, lid):
    found = next((lib for lib in _libraries(request.account) if lib["id"] == lid), None)
    if found is None:
        raise NotFound(f"no library {lid}")
    return found


def _distinct(user, pick):
    found = set()
    for manga, _ in visible_series(user):
        found.update(v for v in pick(manga) if v)
    return sorted(found, key=str.casefold)


@app_view()
def genres(request):
    return _distinct(request.account["name"], dto.genres)


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


@app_view()
def not_found(request, rest=""):
    raise NotFound("not found")
