"""Settings → User → Apps (the addresses to type into reading apps, QR codes, API keys) and
Settings → Admin → Apps (downloads on or off)."""
import threading
import time

import segno
from django.conf import settings
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from accounts import apikeys
from mangacircus.pages import page, render_section
from reader import serverprefs

from .komga.auth import mount_path

APPS = [
    ("Mihon (Komga extension and tracker)", "komga",
     "Browse → Extensions → Komga → settings: address, your name and password (or an API key)."),
    ("Komelia", "komga", "Add a server: the address, your name and password."),
    ("KMReader", "komga", "Add a server: the address, and your name and password or an API key."),
    ("Panels, Chunky, KOReader and other OPDS readers", "opds",
     "Add an OPDS catalog: the address, your name and password."),
    ("Thorium and other OPDS 2.0 readers", "opds2", "Catalogs → Add an OPDS feed: the address; sign in when asked."),
]


def _base(request):
    """scheme://host, from PUBLIC_URL (which names the sub-path too) or else from the request."""
    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL.removesuffix(settings.SCRIPT_NAME)
    return request.build_absolute_uri("/").rstrip("/")


def addresses(request):
    base = _base(request)
    return {"komga": base + mount_path(), "opds": base + reverse("opds-root"), "opds2": base + reverse("opds2-root")}


def _qr(text):
    return segno.make(text, error="m").svg_data_uri(scale=4, border=2, dark="#000", light="#fff")


# A new key waits here, in memory, for the page the POST redirects to (post/redirect/get: a reload
# must not make another key), and is shown once: the next GET takes it. Keyed by the session token.
_new_keys = {}
_new_keys_lock = threading.Lock()
SHOW_WITHIN = 300


def _keep_new_key(sid, key):
    now = time.monotonic()
    with _new_keys_lock:
        for old in [s for s, (_, until) in _new_keys.items() if until < now]:
            del _new_keys[old]
        _new_keys[sid] = (key, now + SHOW_WITHIN)


def _take_new_key(sid):
    with _new_keys_lock:
        key, until = _new_keys.pop(sid, (None, 0))
    return key if until >= time.monotonic() else None


@page()
@require_http_methods(["GET", "POST"])
def apps(request):
    name = request.account["name"]
    if request.method == "POST":
        if request.POST.get("action") == "revoke":
            apikeys.revoke(name, request.POST.get("id", ""))
            messages.success(request, "The key is revoked: apps using it are signed out.")
        else:
            _keep_new_key(request.sid, apikeys.create(name, request.POST.get("label", "")))
        return HttpResponseRedirect(request.path)
    new_key = _take_new_key(request.sid)
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
