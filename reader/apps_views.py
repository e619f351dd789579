"""Settings → User → Apps (the addresses to type into reading apps, QR codes, API keys) and
Settings → Admin → Apps (downloads on or off)."""
import segno
from django.conf import settings
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from accounts import apikeys
from mangacircus.pages import page, render_section

from . import serverprefs
from .komga.auth import mount_path

APPS = [
    ("Mihon (Komga extension and tracker)", "komga",
     "Browse → Extensions → Komga → settings: address, your name and password (or an API key)."),
    ("Komelia", "komga", "Add a server: the address, your name and password."),
    ("KMReader", "komga", "Add a server: the address, and your name and password or an API key."),
    ("Panels, Chunky, KOReader and other OPDS readers", "opds",
     "Add an OPDS catalog: the address, your name and password."),
]


def _base(request):
    return settings.PUBLIC_URL or request.build_absolute_uri("/").rstrip("/").removesuffix(settings.SCRIPT_NAME)


def addresses(request):
    base = _base(request)
    return {"komga": base + mount_path(), "opds": base + reverse("opds-root")}


def _qr(text):
    return segno.make(text, error="m").svg_data_uri(scale=4, border=2, dark="#000", light="#fff")


@page()
@require_http_methods(["GET", "POST"])
def apps(request):
    name = request.account["name"]
    new_key = None
    if request.method == "POST":
        if request.POST.get("action") == "revoke":
            apikeys.revoke(name, request.POST.get("id", ""))
            messages.success(request, "The key is revoked: apps using it are signed out.")
            return HttpResponseRedirect(request.path)
        new_key = apikeys.create(name, request.POST.get("label", ""))
    urls = addresses(request)
    return render_section(
        request, "settings/apps.html", "user", "apps", enabled=settings.APPS_API, new_key=new_key,
        apps=[(title, urls[kind], how) for title, kind, how in APPS],
        codes=[("Komga address (Mihon, Komelia, KMReader)", urls["komga"], _qr(urls["komga"])),
               ("OPDS address", urls["opds"], _qr(urls["opds"]))],
        keys=apikeys.list_keys(name))


@page(auth="admin")
@require_http_methods(["GET", "POST"])
def admin_apps(request):
    if request.method == "POST":
        serverprefs.set_downloads(request.POST.get("downloads") == "on")
        messages.success(request, "Saved.")
        return HttpResponseRedirect(request.path)
    return render_section(request, "settings/admin_apps.html", "admin", "apps", enabled=settings.APPS_API,
                          downloads=serverprefs.downloads_allowed())
