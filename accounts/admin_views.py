"""Settings → Admin → Users (HTML forms; each action POSTs, then redirects with a message).
The rules are accounts/rules.py's, the same as the JSON API's."""
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from mangacircus.errors import Invalid
from mangacircus.pages import page, render_section

from . import oidc, rules, totp
from . import users as accounts


def _back():
    return HttpResponseRedirect(reverse("mc-settings-users"))


BULK = {"sessions": (gettext_lazy("End the sessions of"), rules.end_sessions),
        "delete": (gettext_lazy("Delete"), rules.delete_user)}


def _done(command, names):
    """The message after a bulk action, naming the users it was done to."""
    said = {"count": len(names), "names": ", ".join(names)}
    if command == "delete":
        return ngettext("%(count)s user deleted with their data: %(names)s.",
                        "%(count)s users deleted with their data: %(names)s.", len(names)) % said
    return ngettext("%(count)s user signed out everywhere: %(names)s.",
                    "%(count)s users signed out everywhere: %(names)s.", len(names)) % said


@page(auth="admin")
@require_http_methods(["GET", "POST"])
def users(request):
    """The user list: search and filters with counts at the side, bulk actions with a confirmation
    step and a message after each, as Django's admin lists have."""
    if request.method == "POST":
        if request.POST.get("command") in BULK:
            return _bulk(request)
        name = request.POST.get("name", "").strip()
        name = rules.create_user(name, request.POST.get("password", ""), admin="admin" in request.POST)
        messages.success(request, _("Created %(name)s.") % {"name": name})
        return _back()
    rows = accounts.list_users()
    for u in rows:
        u["restricted"] = accounts.is_restricted(u["name"])
        u["twofactor"] = rules.has_second_factor(u["name"])  # a code app or a passkey
    chosen = {"q": request.GET.get("q", "").strip(), "role": request.GET.get("role", ""),
              "access": request.GET.get("access", "")}
    shown = [u for u in rows if chosen["q"].lower() in u["name"].lower()
             and (chosen["role"] == "" or (chosen["role"] == "admin") == u["admin"])
             and (chosen["access"] == "" or (chosen["access"] == "restricted") == u["restricted"])]
    admins, restricted = sum(u["admin"] for u in rows), sum(u["restricted"] for u in rows)
    counts = {"admin": admins, "reader": len(rows) - admins, "restricted": restricted,
              "unrestricted": len(rows) - restricted}
    return render_section(request, "accounts/users.html", "admin", "users", users=shown, total=len(rows),
                          counts=counts, chosen=chosen, query=request.GET.urlencode(), me=request.account["name"],
                          require_admins=totp.required_for_admins(), oidc=oidc.enabled())


def _bulk(request):
    """Ticked users: a confirmation page listing them (never the admin's own account), then the action."""
    command = request.POST["command"]
    verb, action = BULK[command]
    me = request.account["name"]
    names = [rules.existing_user(n)["name"] for n in request.POST.getlist("names")]
    back = reverse("mc-settings-users") + (f"?{request.POST['query']}" if request.POST.get("query") else "")
    if not names:
        raise Invalid(_("select at least one user"))
    others = [n for n in names if n != me]
    if request.POST.get("confirm") != "yes":
        return render_section(request, "accounts/users_confirm.html", "admin", "users", names=others,
                              left_out=me in names, verb=verb, command=command, query=request.POST.get("query", ""))
    done = []
    for name in names:
        try:
            action(me, name)
            done.append(name)
        except Invalid as e:  # the admin's own account: rules.py says why
            messages.error(request, _("%(name)s: %(message)s") % {"name": name, "message": e.message})
    if done:
        messages.success(request, _done(command, done))
    return HttpResponseRedirect(back)


@page(auth="admin", back="mc-settings-users")
@require_POST
def user_action(request, name):
    """Reset a password or a second factor, set the e-mail address OpenID links by, unlink OpenID, or
    change a role; deletion goes through the confirmation page."""
    name = rules.existing_user(name)["name"]
    action = request.POST.get("action")
    if action == "password":
        rules.reset_password(name, request.POST.get("password", ""))
        messages.success(request, _("New password set for %(name)s; their sessions were ended.") % {"name": name})
    elif action == "twofactor":
        rules.reset_second_factor(request.account["name"], name)
        messages.success(request, _("%(name)s's second factor is reset: they sign in with their password, and can "
                                    "set up a new one in Settings → Profile.") % {"name": name})
    elif action == "email":
        email = request.POST.get("email", "").strip()
        rules.set_email(name, email)
        messages.success(request, _("Saved: an OpenID sign-in with %(email)s, verified, signs in to %(name)s.")
                         % {"email": email, "name": name} if email
                         else _("%(name)s has no e-mail address now.") % {"name": name})
    elif action == "unlink":
        rules.unlink_oidc(name)
        messages.success(request, _("%(name)s is no longer linked to an OpenID account.") % {"name": name})
    elif action in ("grant", "revoke"):
        rules.set_role(request.account["name"], name, action == "grant")
        messages.success(request, (_("%(name)s is now an admin.") if action == "grant"
                                   else _("%(name)s is no longer an admin.")) % {"name": name})
    else:
        raise Invalid(_("unknown action"))
    return _back()


@page(auth="admin")
@require_http_methods(["GET", "POST"])
def user_delete(request, name):
    user = rules.existing_user(name)
    name = user["name"]
    if name == request.account["name"]:
        messages.error(request, _("You cannot delete your own account."))
        return _back()
    if request.method == "POST":
        rules.delete_user(request.account["name"], name)
        messages.success(request, _("Deleted %(name)s and their data.") % {"name": name})
        return _back()
    return render_section(request, "accounts/user_delete.html", "admin", "users", user=user)


@page(auth="admin", back="mc-settings-users")
@require_POST
def two_factor_rule(request):
    """Whether admins must sign in with a second factor."""
    on = request.POST.get("admins") == "on"
    totp.require_for_admins(on)
    messages.success(request, _("Admins must now use a second factor.") if on
                     else _("Admins may sign in with a password alone."))
    return _back()
