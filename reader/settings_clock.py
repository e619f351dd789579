"""Settings → User → Reading clock: opt in or out, export, delete one manga's or all history
(HTML forms with CSRF, post/redirect/get)."""
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from mangacircus.pages import page, render_section

from . import access, prefs, reading
from .api_reading import delete_history


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
            messages.success(request, f"Deleted the reading history of {done['deleted']}.")
        elif action == "delete-all":
            delete_history(request, {"all": True, "password": post.get("password", "")})
            messages.success(request, "Deleted all your reading history.")
        else:
            on = "readingClock" in post
            prefs.update_settings(name, prefs.validate_settings({"readingClock": on}))
            messages.success(request, "The reading clock is on." if on else "The reading clock is off.")
        return HttpResponseRedirect(request.path)
    sees = access.visible(name)
    history = [(m, _minutes(ms), chapters) for m, ms, chapters in reading.manga_totals(name) if sees(m)]
    return render_section(request, "settings/clock.html", "user", "clock",
                          on=prefs.get_settings(name)["readingClock"], history=history,
                          export_url=reverse("mc-reading-export") + "?download=1")
