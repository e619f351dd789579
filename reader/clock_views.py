"""The Active Reading Clock's JSON API (docs/api.md): POST /api/reading/pulse, GET /api/reading/export,
POST /api/reading/delete; and Settings → User → Reading clock: opt in or out, export, delete one manga's
or all history (HTML forms with CSRF, post/redirect/get). Users only ever reach their own history."""
from django.contrib import messages
from django.http import HttpResponseRedirect, JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts import rules
from mangacircus.clientip import client_ip
from mangacircus.errors import Forbidden, Invalid
from mangacircus.http import api, field, text_field
from mangacircus.pages import page, render_section

from . import access, lookup, prefs, reading_clock


@api(methods=("POST",))
def pulse(request):
    user = request.account["name"]
    if not prefs.get_settings(user).get("readingClock"):
        raise Forbidden(_("the reading clock is off; turn it on in Settings → Reading clock"))
    manga, chapter = lookup.chapter_fields(request.data, user=user)
    version = lookup.version_or_404(chapter, text_field(request.data, "v"))
    checked = reading_clock.check_pulse(request.data, version.page_count)
    return reading_clock.pulse(user, manga.name, chapter.id, version, checked)


@api()
def export(request):
    user = request.account["name"]
    data = reading_clock.export(user)
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
            raise Invalid(_("all must be true (or send m)"))
        rules.confirm_password(user, field(data, "password", str), client_ip(request),
                               wrong=_("That password is not right."))
        return {"deleted": "all", "chapters": reading_clock.delete_all(user)}
    name = text_field(data, "m")
    # A manga that left the library may still have history; otherwise it must exist. One hidden
    # from the user by a restriction is missing either way.
    if not reading_clock.has_history(user, name) or not access.can_see(user, name):
        lookup.manga_or_404(name, user=user)
    return {"deleted": name, "chapters": reading_clock.delete_manga(user, name)}


def _minutes(ms):
    minutes = round(ms / 60000)
    return f"{minutes // 60} h {minutes % 60:02d} min" if minutes >= 60 else f"{minutes} min"


@page()
@require_http_methods(["GET", "POST"])
def clock(request):
    name = request.account["name"]
    if request.method == "POST":
        post = request.POST
        action = post.get("action")
        if action == "delete":
            done = delete_history(request, {"m": post.get("m", "")})
            messages.success(request, _("Deleted the reading history of %(deleted)s.") % {"deleted": done['deleted']})
        elif action == "delete-all":
            delete_history(request, {"all": True, "password": post.get("password", "")})
            messages.success(request, _("Deleted all your reading history."))
        else:
            on = "readingClock" in post
            prefs.update_settings(name, prefs.validate_settings({"readingClock": on}))
            messages.success(request, _("The reading clock is on.") if on else _("The reading clock is off."))
        return HttpResponseRedirect(request.path)
    sees = access.visible(name)
    history = [(m, _minutes(ms), chapters) for m, ms, chapters in reading_clock.manga_totals(name) if sees(m)]
    return render_section(request, "settings/clock.html", "user", "clock",
                          on=prefs.get_settings(name)["readingClock"], history=history,
                          export_url=reverse("mc-reading-export") + "?download=1")
