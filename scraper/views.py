"""The admin Scraper screen: one server-rendered page per tab; settings-scraper.js loads the data
through the admin proxy, so the page renders even when the daemon is down."""
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from mangacircus.errors import NotFound
from mangacircus.pages import page, render_section

TABS = [
    ("queue", gettext_lazy("Queue")),
    ("series", gettext_lazy("Series")),
    ("sources", gettext_lazy("Sources & search")),
    ("schedule", gettext_lazy("Schedule & pacing")),
    ("history", gettext_lazy("History")),
]


@page(auth="admin")
def scraper_home(request):
    return HttpResponseRedirect(reverse("mc-admin-scraper", args=["queue"]))


@page(auth="admin")
def scraper_tab(request, tab):
    if tab not in dict(TABS):
        raise NotFound(_("no such tab"))
    payload = {"tab": tab}
    return render_section(request, "scraper/admin.html", "admin", "scraper", tabs=TABS, tab=tab, payload=payload)
