"""Settings → Admin: users and library (HTML forms; each action POSTs, then redirects with a message)."""
from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import render
from django.views.decorators.http import require_http_methods, require_POST

from library import service as library_service
from mangacircus.http import HttpError

from . import accounts, passwords, store
from .auth import page
from .settings_nav import nav_context


def _render(request, template, section, **context):
    context.update(nav_context(request, "admin", section))
    return render(request, template, context)


def _back(request, to="/settings/admin/users/"):
    return HttpResponseRedirect(request.META.get("SCRIPT_NAME", "") + to)


@page(auth="admin")
@require_http_methods(["GET", "POST"])
def users(request):
    if request.method == "POST":
        post = request.POST
        name = post.get("name", "").strip()
        try:
            accounts.check_password_rules(post.get("password", ""))
            store.check_new_name(name)
            store.create_user(name, passwords.make_hash(post["password"]), admin="admin" in post)
            messages.success(request, f"Created {name}.")
        except HttpError as e:
            messages.error(request, e.message)
        return _back(request)
    rows = store.list_users()
    query = request.GET.get("q", "").strip().lower()
    role = request.GET.get("role", "")
    shown = [u for u in rows if query in u["name"].lower() and (role == "" or (role == "admin") == u["admin"])]
    return _render(request, "settings/users.html", "users", users=shown, total=len(rows),
                   admins=sum(u["admin"] for u in rows), q=query, role=role, me=request.account["name"])


def _user_or_404(name):
    user = store.get_user(name)
    if user is None:
        raise Http404(f"no user named {name}")
    return user


@page(auth="admin")
@require_POST
def user_action(request, name):
    """Reset a password or change a role; deletion goes through the confirmation page."""
    _user_or_404(name)
    action = request.POST.get("action")
    try:
        if action == "password":
            accounts.check_password_rules(request.POST.get("password", ""))
            store.set_password_hash(name, passwords.make_hash(request.POST["password"]))
            messages.success(request, f"New password set for {name}; their sessions were ended.")
        elif action in ("grant", "revoke"):
            if name == request.account["name"] and action == "revoke":
                raise HttpError(400, "you cannot revoke your own admin rights; another admin can")
            store.set_admin(name, action == "grant")
            messages.success(request, f"{name} is {'now' if action == 'grant' else 'no longer'} an admin.")
        else:
            raise HttpError(400, "unknown action")
    except HttpError as e:
        messages.error(request, e.message)
    return _back(request)


@page(auth="admin")
@require_http_methods(["GET", "POST"])
def user_delete(request, name):
    user = _user_or_404(name)
    if name == request.account["name"]:
        messages.error(request, "You cannot delete your own account.")
        return _back(request)
    if request.method == "POST":
        store.delete_user(name)
        messages.success(request, f"Deleted {name} and their data.")
        return _back(request)
    return _render(request, "settings/user_delete.html", "users", user=user)


@page(auth="admin")
@require_http_methods(["GET", "POST"])
def library(request):
    if request.method == "POST":
        full = request.POST.get("full") == "1"
        report = library_service.request_scan(full=full, wait=True, explicit=True, timeout=600)
        if report is None:
            messages.error(request, "The scanner is not running: " + library_service.admin_summary().get("error", ""))
        elif report.get("error"):
            messages.error(request, f"Scan failed: {report['error']}")
        else:
            messages.success(request, f"{'Full scan' if full else 'Scan'} finished.")
        return _back(request, "/settings/admin/library/")
    summary = library_service.admin_summary()
    return _render(request, "settings/library.html", "library", library=settings.LIBRARY, summary=summary)
