"""JSON API: sign-up, sign-in, the current user, settings, password, user administration."""
from django.conf import settings
from django.http import JsonResponse

from mangacircus.clientip import client_ip
from mangacircus.http import HttpError, api, field, text_field

from library import service as library_service

from . import accounts, store
from .auth import clear_session_cookie, set_session_cookie
from .passwords import make_hash
from .prefs import validate_settings


@api(auth="public")
def auth_state(request):
    return accounts.signup_state()


@api(auth="public", methods=("POST",))
def signup(request):
    name = text_field(request.data, "name", max_length=64)
    token = accounts.signup(name, field(request.data, "password", str))
    response = JsonResponse({"name": name, "admin": store.get_user(name)["admin"]})
    set_session_cookie(response, request, token)
    return response


@api(auth="public", methods=("POST",))
def login(request):
    name = text_field(request.data, "name", max_length=64)
    token = accounts.login(name, field(request.data, "password", str), client_ip(request))
    response = JsonResponse({"name": name})
    set_session_cookie(response, request, token)
    return response


@api(methods=("POST",))
def logout(request):
    store.end_session(request.sid)
    response = JsonResponse({"ok": True})
    clear_session_cookie(response, request)
    return response


@api()
def me(request):
    name = request.account["name"]
    return {
        "name": name, "admin": bool(request.account.get("admin")),
        "settings": store.get_settings(name), "unread": store.unread_count(name),
    }


@api(methods=("POST",))
def update_settings(request):
    changes = validate_settings(request.data)
    return {"settings": store.update_settings(request.account["name"], changes)}


@api(methods=("POST",))
def change_password(request):
    accounts.change_password(
        request.account["name"], field(request.data, "old", str), field(request.data, "new", str),
        client_ip(request), request.sid,
    )
    return {"ok": True}


# Admin

@api(auth="admin")
def admin_overview(request):
    return {"users": store.list_users(), "library": str(settings.LIBRARY or ""), **library_service.admin_summary()}


def _existing_user(data):
    name = text_field(data, "name", max_length=64)
    if store.get_user(name) is None:
        raise HttpError(404, f"no user named {name}")
    return name


@api(auth="admin", methods=("POST",))
def admin_user(request):
    """Create a user, or reset an existing user's password."""
    name = text_field(request.data, "name", max_length=64)
    password = field(request.data, "password", str)
    accounts.check_password_rules(password)
    admin = field(request.data, "admin", bool, required=False, default=False)
    if store.get_user(name):
        store.set_password_hash(name, make_hash(password))
        return {"name": name, "created": False}
    store.check_new_name(name)
    store.create_user(name, make_hash(password), admin=admin)
    return {"name": name, "created": True}


@api(auth="admin", methods=("POST",))
def admin_user_role(request):
    name = _existing_user(request.data)
    admin = field(request.data, "admin", bool)
    if name == request.account["name"] and not admin:
        raise HttpError(400, "you cannot revoke your own admin rights; another admin can")
    store.set_admin(name, admin)
    return {"name": name, "admin": admin}


@api(auth="admin", methods=("POST",))
def admin_user_delete(request):
    name = _existing_user(request.data)
    if name == request.account["name"]:
        raise HttpError(400, "you cannot delete your own account")
    store.delete_user(name)
    return {"deleted": name}
