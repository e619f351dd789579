"""Settings → Admin → Users (HTML forms; each action POSTs, then redirects with a message).
The rules are accounts/rules.py's, the same as the JSON API's."""
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from mangacircus.errors import Invalid
from mangacircus.pages import page, render_section

from . import rules
from . import users as accounts


def _back():
    return HttpResponseRedirect(reverse("mc-settings-users"))


@page(auth="admin")
@require_http_methods(["GET", "POST"])
def users(request):
    if request.method == "POST":
        name = request.POST.get("name", "").strip()
        rules.create_user(name, request.POST.get("password", ""), admin="admin" in request.POST)
        messages.success(request, f"Created {name}.")
        return _back()
    rows = accounts.list_users()
    query = request.GET.get("q", "").strip().lower()
    role = request.GET.get("role", "")
    shown = [u for u in rows if query in u["name"].lower() and (role == "" or (role == "admin") == u["admin"])]
    return render_section(request, "accounts/users.html", "admin", "users", users=shown, total=len(rows),
                          admins=sum(u["admin"] for u in rows), q=query, role=role, me=request.account["name"])


@page(auth="admin", back="mc-settings-users")
@require_POST
def user_action(request, name):
    """Reset a password or change a role; deletion goes through the confirmation page."""
    name = rules.existing_user(name)["name"]
    action = request.POST.get("action")
    if action == "password":
        rules.reset_password(name, request.POST.get("password", ""))
        messages.success(request, f"New password set for {name}; their sessions were ended.")
    elif action in ("grant", "revoke"):
        rules.set_role(request.account["name"], name, action == "grant")
        messages.success(request, f"{name} is {'now' if action == 'grant' else 'no longer'} an admin.")
    else:
        raise Invalid("unknown action")
    return _back()


@page(auth="admin")
@require_http_methods(["GET", "POST"])
def user_delete(request, name):
    user = rules.existing_user(name)
    name = user["name"]
    if name == request.account["name"]:
        messages.error(request, "You cannot delete your own account.")
        return _back()
    if request.method == "POST":
        rules.delete_user(request.account["name"], name)
        messages.success(request, f"Deleted {name} and their data.")
        return _back()
    return render_section(request, "accounts/user_delete.html", "admin", "users", user=user)
