"""Offline reading (docs/offline.md): the service worker at <root>/sw.js, the page it shows offline
for a page it has no copy of, and Settings → User → Offline (what is kept, how many chapters
"Keep next" keeps, whether followed manga are kept by themselves). What is kept lives in the
browser; the server only serves it."""
import hashlib
import json

from django.contrib import messages
from django.contrib.staticfiles import finders
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import get_script_prefix, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from mangacircus.errors import Invalid
from mangacircus.pages import page, render_section

from . import prefs

WORKER = "js/sw.js"
SHELL_FOLDERS = ("js/", "css/", "icons/")
_built = {}  # script prefix → the worker's text: the static files do not change while the process runs


def _shell():
    """The static URLs the worker keeps for offline use: every script, the CSS, the icons, the manifest."""
    names = set()
    for finder in finders.get_finders():
        for name, _storage in finder.list([]):
            name = name.replace("\\", "/")
            if name.startswith(SHELL_FOLDERS) and name != WORKER or name == "manifest.webmanifest":
                names.add(name)
    return [static(name) for name in sorted(names)]


def _worker_text(root):
    source = open(finders.find(WORKER), encoding="utf-8").read()
    shell = _shell()
    version = hashlib.sha256((source + "\n".join(shell)).encode()).hexdigest()[:12]
    config = {"root": root, "version": version, "shell": shell, "offline": root + "offline/",
              "logout": reverse("mc-logout")[len(root):], "store": static("js/offline-store.js")}
    return f"self.MC_WORKER = {json.dumps(config)};\n{source}"


@require_GET
def worker(request):
    """The service worker, scoped to the app's root: under a sub-path it serves that sub-path."""
    root = get_script_prefix()
    if root not in _built:
        _built[root] = _worker_text(root)
    response = HttpResponse(_built[root], content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = root
    response["Cache-Control"] = "no-cache"  # the browser checks for a new worker on every visit
    return response


@require_GET
def offline_page(request):
    """Shown by the worker for a page it has no copy of; the same for everyone, so it holds nobody's data."""
    return render(request, "offline.html", {"account": None})


@page()
@require_http_methods(["GET", "POST"])
def storage(request):
    name = request.account["name"]
    if request.method == "POST":
        try:
            ahead = int(request.POST.get("offlineAhead", ""))
        except ValueError:
            raise Invalid(_("the number of chapters must be a whole number from 1 to 20")) from None
        followed = request.POST.get("offlineFollowed") == "on"
        prefs.update_settings(name, prefs.validate_settings({"offlineAhead": ahead, "offlineFollowed": followed}))
        if followed:
            kept = ngettext("“Keep next” keeps %(n)s unread chapter; the next %(n)s unread chapter of each manga you "
                            "follow are kept by themselves.",
                            "“Keep next” keeps %(n)s unread chapters; the next %(n)s unread chapters of each manga "
                            "you follow are kept by themselves.", ahead)
        else:
            kept = ngettext("“Keep next” keeps %(n)s unread chapter.", "“Keep next” keeps %(n)s unread chapters.",
                            ahead)
        messages.success(request, kept % {"n": ahead})
        return HttpResponseRedirect(request.path)
    settings = prefs.get_settings(name)
    return render_section(request, "settings/offline.html", "user", "offline",
                          ahead=settings["offlineAhead"], followed=settings["offlineFollowed"])
