"""JSON API of the Active Reading Clock (docs/api.md): POST /api/reading/pulse, GET /api/reading/export,
POST /api/reading/delete. Users only ever reach their own history."""
from django.http import JsonResponse

from accounts import rules
from mangacircus.clientip import client_ip
from mangacircus.errors import Forbidden, Invalid
from mangacircus.http import api, field, text_field

from . import access, lookup, prefs, reading


@api(methods=("POST",))
def pulse(request):
    user = request.account["name"]
    if not prefs.get_settings(user).get("readingClock"):
        raise Forbidden("the reading clock is off; turn it on in Settings → Reading clock")
    manga, chapter = lookup.chapter_fields(request.data, user=user)
    version = lookup.version_or_404(chapter, text_field(request.data, "v"))
    checked = reading.check_pulse(request.data, version.page_count)
    return reading.pulse(user, manga.name, chapter.id, version, checked)


@api()
def export(request):
    user = request.account["name"]
    data = reading.export(user)
    sees = access.visible(user)
    data["manga"] = {m: chapters for m, chapters in data["manga"].items() if sees(m)}
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 1})
    if request.GET.get("download"):
        response["Content-Disposition"] = f'attachment; filename="reading-clock-{user}.json"'
    return response


@api(methods=("POST",))
def delete(request):
    """{m}: one manga's history; {all: true, password}: everything, after a password check."""
    return delete_history(request, request.data)


def delete_history(request, data):
    """Shared with the settings form. Raises Invalid, WrongCredentials, NotFound or RateLimited."""
    user = request.account["name"]
    if "all" in data:
        if field(data, "all", bool) is not True:
            raise Invalid("all must be true (or send m)")
        rules.confirm_password(user, field(data, "password", str), client_ip(request),
                               wrong="That password is not right.")
        return {"deleted": "all", "chapters": reading.delete_all(user)}
    name = text_field(data, "m")
    # A manga that left the library may still have history; otherwise it must exist. One hidden
    # from the user by a restriction is missing either way.
    if not reading.has_history(user, name) or not access.can_see(user, name):
        lookup.manga_or_404(name, user=user)
    return {"deleted": name, "chapters": reading.delete_manga(user, name)}
