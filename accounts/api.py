"""JSON API of accounts: sign-up, sign-in (with its code step), sign-out, password, user administration."""
from django.http import JsonResponse

from mangacircus.clientip import client_ip, from_this_machine
from mangacircus.http import api, field, text_field

from . import rules, sessions, users
from .middleware import clear_session_cookie, set_session_cookie


@api(auth="public")
def auth_state(request):
    return rules.signup_state()


@api(auth="public", methods=("POST",))
def signup(request):
    name = text_field(request.data, "name", max_length=64)
    token = rules.signup(name, field(request.data, "password", str), local=from_this_machine(request),
                         setup_code=text_field(request.data, "setupCode", required=False, max_length=64))
    user = users.get_user(name)  # as stored: the NFKC form of what was typed
    response = JsonResponse({"name": user["name"], "admin": user["admin"]})
    set_session_cookie(response, token)
    return response


def _signed_in(token):
    response = JsonResponse({"name": sessions.session_user(token)["name"]})
    set_session_cookie(response, token)
    return response


@api(auth="public", methods=("POST",))
def login(request):
    """Name and password, and `code` for an account with a second factor. Without the code such an
    account gets 401 with {codeNeeded: true, ticket, factors: {code, passkey}}, for /api/login/code
    or /api/passkeys/login/begin."""
    name = text_field(request.data, "name", max_length=64)
    code = text_field(request.data, "code", required=False, max_length=64)
    try:
        token = rules.login(name, field(request.data, "password", str), client_ip(request), code=code)
    except rules.CodeNeeded as e:
        return JsonResponse({"error": e.message, "codeNeeded": True, "ticket": e.ticket, "factors": e.factors},
                            status=e.status)
    return _signed_in(token)


@api(auth="public", methods=("POST",))
def login_code(request):
    """The code step: the ticket /api/login answered and a code (or a recovery code)."""
    ticket = text_field(request.data, "ticket", max_length=1000)
    code = text_field(request.data, "code", max_length=64)
    return _signed_in(rules.login_with_code(ticket, code, client_ip(request)))


@api(methods=("POST",))
def logout(request):
    sessions.end_session(request.sid)
    response = JsonResponse({"ok": True})
    clear_session_cookie(response)
    return response


@api(methods=("POST",))
def change_password(request):
    rules.change_password(request.account["name"], field(request.data, "old", str), field(request.data, "new", str),
                          client_ip(request), request.sid)
    return {"ok": True}


@api(auth="admin", methods=("POST",))
def admin_user(request):
    """Create a user, or reset an existing user's password."""
    name = text_field(request.data, "name", max_length=64)
    password = field(request.data, "password", str)
    admin = field(request.data, "admin", bool, required=False, default=False)
    stored = users.stored_name(name)
    if stored:
        rules.reset_password(stored, password)
        return {"name": stored, "created": False}
    return {"name": rules.create_user(name, password, admin=admin), "created": True}


@api(auth="admin", methods=("POST",))
def admin_user_role(request):
    name = rules.existing_user(text_field(request.data, "name", max_length=64))["name"]
    admin = field(request.data, "admin", bool)
    rules.set_role(request.account["name"], name, admin)
    return {"name": name, "admin": admin}


@api(auth="admin", methods=("POST",))
def admin_user_delete(request):
    name = text_field(request.data, "name", max_length=64)
    name = rules.existing_user(name)["name"]
    rules.delete_user(request.account["name"], name)
    return {"deleted": name}
