"""The discovery feed's page (/discover/) and API (GET /api/discovery, POST /api/discovery/dismiss)."""
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from mangacircus.errors import Invalid
from mangacircus.http import api, field, text_field
from mangacircus.pages import page
from reader import dismissals, lookup

from . import discovery, summaries

ROW = 12  # items in the library page's row


@api()
def feed(request):
    return discovery.feed(request.account["name"])


@api(methods=("POST",))
def dismiss(request):
    """{m, undo?}: take a manga out of the feed, or (undo: true) bring it back."""
    found = lookup.manga_field(request.data, user=request.account)
    undo = field(request.data, "undo", bool, required=False, default=False)
    dismissals.dismiss(request.account["name"], found.name, on=not undo)
    return {"m": found.name, "dismissed": not undo}


def dismissed_list(user):
    by_name = summaries.by_name()
    return [{"name": n, "title": by_name[n].title if n in by_name else n}
            for n, _ in sorted(dismissals.dismissed(user).items(), key=lambda kv: -kv[1])]


@page()
@require_http_methods(["GET", "POST"])
def discover(request):
    user = request.account["name"]
    if request.method == "POST":
        name = text_field(request.POST, "m")
        undo = request.POST.get("undo") == "1"
        if not undo:
            lookup.manga_or_404(name, user=request.account)
        elif request.POST.get("undo") not in ("0", "1"):
            raise Invalid(_("undo must be 0 or 1"))
        dismissals.dismiss(user, name, on=not undo)
        title = summaries.by_name().get(name)
        title = title.title if title else name
        if undo:
            messages.success(request, _("%(title)s is back in your feed.") % {"title": title})
        else:
            messages.success(request, _("%(title)s was dismissed: “Bring back” under Dismissed on the Discover page "
                                        "undoes it.") % {"title": title})
        back = request.POST.get("next")
        return HttpResponseRedirect(reverse("mc-home") if back == "home" else request.path)
    data = discovery.feed(user)
    return render(request, "reader/discover.html", {**data, "dismissed": dismissed_list(user)})
