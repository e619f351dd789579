"""Settings → User → Reading clock: opt in or out, export, delete one manga's or all history
(HTML forms with CSRF, post/redirect/get)."""
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from mangacircus.http import HttpError

from . import reading, store
from .api_reading import delete_history
from .auth import page
from .prefs import validate_settings
from .settings_nav import nav_context


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
        try:
            if action == "delete":
                done = delete_history(request, {"m": post.get("m", "")})
                messages.success(request, f"Deleted the reading history of {done['deleted']}.")
            elif action == "delete-all":
                delete_history(request, {"all": True, "password": post.get("password", "")})
                messages.success(request, "Deleted all your reading history.")
            else:
                on = "readingClock" in post
                store.update_settings(name, validate_settings({"readingClock": on}))
                messages.success(request, "The reading clock is on." if on else "The reading clock is off.")
        except HttpError as e:
            messages.error(request, "That password is not right." if e.status == 401 else e.message)
        return HttpResponseRedirect(request.path)
    history = [(m, _minutes(ms), chapters) for m, ms, chapters in reading.manga_totals(name)]
    context = {"on": store.get_settings(name)["readingClock"], "history": history,
               "export_url": request.META.get("SCRIPT_NAME", "") + "/api/reading/export?download=1"}
    context.update(nav_context(request, "user", "clock"))
    return render(request, "settings/clock.html", context)
