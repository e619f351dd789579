"""Settings → User → Profile & password: the password, two-factor sign-in (set up with a QR code
and a first code, recovery codes, turned off with a code), and passkeys (added through
accounts/passkey_api.py and static/js/passkeys.js, removed here)."""
import threading
import time

import segno
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from mangacircus.clientip import client_ip
from mangacircus.errors import Invalid
from mangacircus.pages import page, render_section

from . import passkeys, rules, totp

# New recovery codes wait here, in memory, for the page the POST redirects to (post/redirect/get:
# a reload must not make others), and are shown once: the next GET takes them. Keyed by the session.
_new_codes = {}
_new_codes_lock = threading.Lock()
SHOW_WITHIN = 300


def _keep_codes(sid, codes):
    now = time.monotonic()
    with _new_codes_lock:
        for old in [s for s, (_, until) in _new_codes.items() if until < now]:
            del _new_codes[old]
        _new_codes[sid] = (codes, now + SHOW_WITHIN)


def _take_codes(sid):
    with _new_codes_lock:
        codes, until = _new_codes.pop(sid, (None, 0))
    return codes if until >= time.monotonic() else None


def _qr(text):
    return segno.make(text, error="m").svg_data_uri(scale=4, border=2, dark="#000", light="#fff")


@page()
@require_http_methods(["GET", "POST"])
def profile(request):
    account = request.account
    if request.method == "POST":
        post = request.POST
        if post.get("new") != post.get("new2"):
            raise Invalid(_("the two new passwords differ"))
        rules.change_password(account["name"], post.get("old", ""), post.get("new", ""),
                              client_ip(request), request.sid)
        messages.success(request, _("Password changed. Your other devices were signed out."))
        return HttpResponseRedirect(request.path)
    state = totp.status(account["name"])
    secret = None if state["enabled"] else totp.pending_secret(account["name"])
    setup = secret and {"qr": _qr(totp.provisioning_uri(account["name"], secret)),
                        "secret": " ".join(secret[i:i + 4] for i in range(0, len(secret), 4))}
    return render_section(request, "accounts/profile.html", "user", "profile", twofactor=state, setup=setup,
                          new_codes=_take_codes(request.sid),
                          passkeys=passkeys.listed(account["name"]),
                          must_enrol=account["admin"] and not rules.has_second_factor(account["name"])
                          and totp.required_for_admins())


@page(back="mc-settings-profile")
@require_POST
def two_factor(request):
    """The two-factor card's buttons: start, confirm, cancel the set-up; new recovery codes; turn off."""
    name, action, code = request.account["name"], request.POST.get("action"), request.POST.get("code", "")
    if action == "start":
        totp.start_enrolment(name)
    elif action == "cancel":
        totp.cancel_enrolment(name)
    elif action == "confirm":
        _keep_codes(request.sid, rules.confirm_second_factor(name, code))
        messages.success(request, _("Two-factor sign-in is on. Keep the recovery codes somewhere safe."))
    elif action == "recovery":
        _keep_codes(request.sid, rules.new_recovery_codes(name, code, client_ip(request)))
        messages.success(request, _("New recovery codes made; the old ones no longer work."))
    elif action == "off":
        rules.turn_off_second_factor(name, code, client_ip(request))
        messages.success(request, _("Two-factor sign-in is off: your password alone signs you in."))
    else:
        raise Invalid(_("unknown action"))
    return HttpResponseRedirect(reverse("mc-settings-profile"))


@page(back="mc-settings-profile")
@require_POST
def passkey_remove(request):
    """The Remove button of a passkey in the list."""
    label = passkeys.remove(request.account["name"], request.POST.get("id", ""))
    messages.success(request, _("Passkey “%(label)s” removed; it no longer signs you in.") % {"label": label})
    return HttpResponseRedirect(reverse("mc-settings-profile"))
