"""Settings → User: reading preferences and notifications (HTML forms, post/redirect/get), and the
same as JSON: who the user is (GET /api/me) and their settings (POST /api/settings).
Profile & password is accounts/views.py's."""
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from mangacircus import languages
from mangacircus.http import api
from mangacircus.pages import page, render_section

from . import announce, notes, prefs, push_devices, webhooks

READING_FLAGS = [
    ("adapt", gettext_lazy("Use a fitting mode for content that needs one (webtoons open in Flow, Book opens as "
                           "Page on an upright phone)")),
    ("skipExtras", gettext_lazy("Skip extra pages (credits, ads)")),
    ("skipCovers", gettext_lazy("Skip cover pages")),
    ("flowPageGap", gettext_lazy("Show a gap between pages in Flow mode")),
    ("flowContinues", gettext_lazy("In Flow mode, scroll on into the next chapter")),
    ("discovery", gettext_lazy("Show a discovery feed: suggestions from your own reading and the catalog, made on "
                               "this server")),
    ("readingStory", gettext_lazy("Show my Reading Story: private summaries of my reading time (needs the reading "
                                  "clock)")),
]

# The choices of Settings → Reading's selects: (key, label, {value: wording}) in prefs.CHOICES order.
READING_CHOICES = [
    ("theme", gettext_lazy("Theme"), {
        "dark": gettext_lazy("Dark"), "light": gettext_lazy("Light"), "system": gettext_lazy("Follow the system")}),
    ("pageFit", gettext_lazy("In Page mode, fit each page to"), {
        "screen": gettext_lazy("the screen"), "width": gettext_lazy("the screen's width"),
        "height": gettext_lazy("the screen's height"), "original": gettext_lazy("its original size")}),
    ("split", gettext_lazy("Split double pages into two halves"), {
        "off": gettext_lazy("never"), "phone": gettext_lazy("on a phone held upright"),
        "always": gettext_lazy("always (in Page and Flow mode)")}),
]


@page()
def settings_home(request):
    return HttpResponseRedirect(reverse("mc-settings-profile"))


@page()
@require_http_methods(["GET", "POST"])
def reading(request):
    name = request.account["name"]
    if request.method == "POST":
        post = request.POST
        if post.get("action") == "reset-zoom":
            changes = {"zoom": dict(prefs.DEFAULT_SETTINGS["zoom"])}
        elif post.get("action") == "language":
            prefs.update_settings(name, prefs.validate_settings({"language": post.get("language", "")}))
            messages.success(request, _("Language saved."))
            return HttpResponseRedirect(request.path)
        else:
            changes = {key: key in post for key, _ in READING_FLAGS}
            changes["startMode"] = post.get("startMode", "")
            changes.update({key: post.get(key, "") for key, _label, _words in READING_CHOICES})
        prefs.update_settings(name, prefs.validate_settings(changes))
        messages.success(request, _("Zoom reset to 100 %.") if "zoom" in changes else _("Reading preferences saved."))
        return HttpResponseRedirect(request.path)
    current = prefs.get_settings(name)
    flags = [(key, label, bool(current.get(key))) for key, label in READING_FLAGS]
    modes = [(m, m == current["startMode"]) for m in prefs.CHOICES["startMode"]]
    choices = [(key, label, [(value, words[value], value == current[key]) for value in prefs.CHOICES[key]])
               for key, label, words in READING_CHOICES]
    zoom = {k: round(v * 100) for k, v in current["zoom"].items()}
    offered = [("", "", not current["language"])] + [(code, own, code == current["language"])
                                                     for code, own in languages.choices()]
    return render_section(request, "settings/reading.html", "user", "reading", flags=flags, modes=modes, zoom=zoom,
                          choices=choices, languages=offered)


@page()
@require_http_methods(["GET", "POST"])
def notifications(request):
    name = request.account["name"]
    if request.method == "POST":
        post = request.POST
        if post.get("action") == "test":
            delivered, what = announce.send_test(name)
            if delivered:
                messages.success(request, _("Test notification delivered: %(what)s.") % {"what": what})
            else:
                messages.error(request, _("The test notification was not delivered: %(what)s.") % {"what": what})
        else:
            saved = prefs.update_settings(name, prefs.validate_settings(
                {"webhook": post.get("webhook", ""), "webhookFormat": post.get("webhookFormat", "")}))
            warning = webhooks.save_warning(saved["webhook"]) if saved["webhook"] else None
            if warning:
                messages.warning(request, _("Notification settings saved, but %(warning)s.") % {"warning": warning})
            else:
                messages.success(request, _("Notification settings saved."))
        return HttpResponseRedirect(request.path)
    current = prefs.get_settings(name)
    formats = [(f, f == current["webhookFormat"]) for f in prefs.CHOICES["webhookFormat"]]
    return render_section(request, "settings/notifications.html", "user", "notifications",
                          webhook=current["webhook"], formats=formats, devices=push_devices.devices(name))


@api()
def me(request):
    name = request.account["name"]
    return {
        "name": name, "admin": bool(request.account.get("admin")),
        "settings": prefs.get_settings(name), "unread": notes.unread_count(name),
    }


@api(methods=("POST",))
def update_settings(request):
    changes = prefs.validate_settings(request.data)
    return {"settings": prefs.update_settings(request.account["name"], changes)}
