"""Settings → User → Apps → Trackers (the card is trackers/templatetags/trackers.py), the OAuth
round trip, the forms' POST, and /api/trackers. Each view parses, calls trackers/connecting.py or
trackers/store.py, and redirects back to Settings → Apps (post/redirect/get)."""
from django.conf import settings
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from mangacircus.errors import DomainError, NotFound
from mangacircus.http import api, text_field
from mangacircus.pages import page
from reader import lookup
from scraper.errors import ScraperError

from . import binding, connecting, registry, store

BACK = "mc-settings-apps"


def _back():
    return HttpResponseRedirect(reverse(BACK) + "#trackers")


def redirect_uri(request, key):
    """The callback's address as the site sees it: PUBLIC_URL's host (which names the sub-path, as
    reverse() does), else the request's."""
    path = reverse("mc-tracker-callback", args=[key])
    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL.removesuffix(settings.SCRIPT_NAME) + path
    return request.build_absolute_uri(path)


def _site_error(tracker_name, e):
    return (_("%(tracker)s could not be reached: %(error)s")
            % {"tracker": tracker_name, "error": getattr(e, "message", e)})


@page(back=BACK)
@require_http_methods(["GET", "POST"])
def connect(request, key):
    """GET: off to the site's sign-in (AniList, MyAnimeList). POST {username, password}: MangaUpdates."""
    tracker = connecting.tracker_or_404(key)
    user = request.account["name"]
    if request.method == "GET":
        return HttpResponseRedirect(connecting.begin(user, key, redirect_uri(request, key)))
    try:
        account = connecting.log_in(user, key, request.POST.get("username", ""), request.POST.get("password", ""))
    except ScraperError as e:
        messages.error(request, _site_error(tracker.name, e))
        return _back()
    messages.success(request, _("%(tracker)s is connected as %(account)s.") % {"tracker": tracker.name,
                                                                                "account": account["name"]})
    return _back()


@page(back=BACK)
@require_GET
def callback(request, key):
    tracker = connecting.tracker_or_404(key)
    try:
        account = connecting.finish(request.account["name"], key, request.GET.dict())
    except NotFound:
        raise
    except (DomainError, ScraperError) as e:
        messages.error(request, getattr(e, "message", None) or _site_error(tracker.name, e))
        return _back()
    messages.success(request, _("%(tracker)s is connected as %(account)s.") % {"tracker": tracker.name,
                                                                                "account": account["name"]})
    return _back()


@page(back=BACK)
@require_POST
def act(request):
    user, action = request.account["name"], request.POST.get("action")
    tracker = connecting.tracker_or_404(request.POST.get("tracker", ""))
    if action == "disconnect":
        store.disconnect(user, tracker.key)
        messages.success(request, _("%(tracker)s is disconnected: its token is deleted here.")
                         % {"tracker": tracker.name})
    elif action == "import":
        try:
            done = connecting.import_list(user, tracker.key)
        except ScraperError as e:
            messages.error(request, _site_error(tracker.name, e))
            return _back()
        imported = ngettext("Imported %(tracker)s: %(marked)s chapters marked read in %(manga)s manga of %(entries)s "
                            "on your list.", "Imported %(tracker)s: %(marked)s chapters marked read in %(manga)s manga "
                            "of %(entries)s on your list.", done["marked"])
        messages.success(request, imported % {"tracker": tracker.name, "marked": done["marked"], "manga": done["manga"],
                                              "entries": done["entries"]})
    elif action == "bind":
        name = lookup.manga_or_404(request.POST.get("m", ""), user=user).name
        typed = request.POST.get("id", "")
        store.bind(user, tracker.key, name, binding.parse(tracker, typed) if typed.strip() else None)
        if typed.strip():
            bound = _("%(name)s is bound to %(tracker)s %(id)s.") % {"name": name, "tracker": tracker.name,
                                                                      "id": typed.strip()}
        else:
            bound = _("%(name)s follows the metadata match for %(tracker)s again.") % {"name": name,
                                                                                       "tracker": tracker.name}
        messages.success(request, bound)
    else:
        raise NotFound(_("unknown action"))
    return _back()


def overview(user):
    """Each tracker offered here, with the user's connection (never a secret)."""
    mine = store.overview(user)
    out = []
    for tracker in registry.offered():
        connection = mine["connections"].get(tracker.key)
        out.append({"key": tracker.key, "name": tracker.name, "home": tracker.home, "kind": tracker.kind,
                    "connection": connection, "bindings": mine["bindings"].get(tracker.key, {})})
    return out


@api(auth="user")
def status(request):
    return {"trackers": overview(request.account["name"])}


@api(auth="user", methods=("POST",))
def bind(request):
    """{tracker, m, id}: the user's own entry for a manga ("" goes back to the metadata match)."""
    tracker = connecting.tracker_or_404(text_field(request.data, "tracker", max_length=40))
    name = lookup.manga_or_404(text_field(request.data, "m"), user=request.account["name"]).name
    typed = text_field(request.data, "id", max_length=500)
    entry_id = binding.parse(tracker, typed) if typed.strip() else None
    store.bind(request.account["name"], tracker.key, name, entry_id)
    return {"m": name, "tracker": tracker.key, "id": entry_id}
