"""Settings → User: profile and password, reading preferences, notifications (HTML forms, PRG)."""
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from mangacircus.clientip import client_ip
from mangacircus.http import HttpError

from . import accounts, store
from .auth import page
from .prefs import CHOICES, DEFAULT_SETTINGS, validate_settings
from .settings_nav import nav_context

READING_FLAGS = [
    ("adapt", "Use a fitting mode for content that needs one (webtoons open in Flow)"),
    ("skipExtras", "Skip extra pages (credits, ads)"),
    ("skipCovers", "Skip cover pages"),
    ("flowPageGap", "Show a gap between pages in Flow mode"),
]


def _render(request, template, section, **context):
    context.update(nav_context(request, "user", section))
    return render(request, template, context)


@page()
def settings_home(request):
    return HttpResponseRedirect(request.META.get("SCRIPT_NAME", "") + "/settings/user/profile/")


@page()
@require_http_methods(["GET", "POST"])
def profile(request):
    if request.method == "POST":
        post = request.POST
        try:
            if post.get("new") != post.get("new2"):
                raise HttpError(400, "the two new passwords differ")
            accounts.change_password(request.account["name"], post.get("old", ""), post.get("new", ""),
                                     client_ip(request), request.sid)
            messages.success(request, "Password changed. Your other devices were signed out.")
        except HttpError as e:
            messages.error(request, e.message)
        return HttpResponseRedirect(request.path)
    return _render(request, "settings/profile.html", "profile")


@page()
@require_http_methods(["GET", "POST"])
def reading(request):
    name = request.account["name"]
    if request.method == "POST":
        post = request.POST
        if post.get("action") == "reset-zoom":
            changes = {"zoom": dict(DEFAULT_SETTINGS["zoom"])}
        else:
            changes = {key: key in post for key, _ in READING_FLAGS}
            changes["startMode"] = post.get("startMode", "")
        try:
            store.update_settings(name, validate_settings(changes))
            messages.success(request, "Zoom reset to 100 %." if "zoom" in changes else "Reading preferences saved.")
        except HttpError as e:
            messages.error(request, e.message)
        return HttpResponseRedirect(request.path)
    current = store.get_settings(name)
    flags = [(key, label, bool(current.get(key))) for key, label in READING_FLAGS]
    modes = [(m, m == current["startMode"]) for m in CHOICES["startMode"]]
    zoom = {k: round(v * 100) for k, v in current["zoom"].items()}
    return _render(request, "settings/reading.html", "reading", flags=flags, modes=modes, zoom=zoom)


@page()
@require_http_methods(["GET", "POST"])
def notifications(request):
    name = request.account["name"]
    if request.method == "POST":
        post = request.POST
        try:
            if post.get("action") == "test":
                from . import announce

                announce.send_test(name)
                messages.success(request, "A test notification is on its way.")
            else:
                store.update_settings(name, validate_settings(
                    {"webhook": post.get("webhook", ""), "webhookFormat": post.get("webhookFormat", "")}))
                messages.success(request, "Notification settings saved.")
        except HttpError as e:
            messages.error(request, e.message)
        return HttpResponseRedirect(request.path)
    current = store.get_settings(name)
    formats = [(f, f == current["webhookFormat"]) for f in CHOICES["webhookFormat"]]
    return _render(request, "settings/notifications.html", "notifications",
                   webhook=current["webhook"], formats=formats)
