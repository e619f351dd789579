"""JSON API of passkeys (static/js/passkeys.js): begin and finish of registering one (Settings →
Profile) and of signing in with one (alone, or after the password). Each begin sets the ceremony's
signed state in an HttpOnly cookie of its own, which its finish reads and clears."""
from django.conf import settings
from django.contrib import messages
from django.http import JsonResponse
from django.http.request import split_domain_port
from django.urls import get_script_prefix
from django.utils.translation import gettext as _

from mangacircus.clientip import client_ip, scheme
from mangacircus.http import api, field, text_field

from . import passkey_ceremony, rules, tickets
from .middleware import safe_next, set_session_cookie

COOKIES = {passkey_ceremony.REGISTER: "passkey-register", passkey_ceremony.SIGN_IN: "passkey-sign-in"}


def relying_party(request):
    """(RP id, origin): WEBAUTHN_RP_ID or the host name asked for, and the page's scheme and host."""
    host = request.get_host()
    return settings.WEBAUTHN_RP_ID or split_domain_port(host)[0], f"{scheme(request)}://{host}"


def _begun(options, state, purpose):
    response = JsonResponse({"options": options})
    response.set_cookie(COOKIES[purpose], state, max_age=passkey_ceremony.MAX_AGE, httponly=True, samesite="Strict",
                        secure=settings.COOKIE_SECURE, path=get_script_prefix())
    return response


def _state(request, purpose):
    return request.COOKIES.get(COOKIES[purpose], "")


def _finished(response, purpose):
    response.delete_cookie(COOKIES[purpose], path=get_script_prefix(), samesite="Strict")
    return response


def _ticket(request):
    return text_field(request.data, "ticket", required=False, max_length=1000) or None


@api(methods=("POST",))
def register_begin(request):
    options, state = passkey_ceremony.registration_options(request.account["name"], relying_party(request))
    return _begun(options, state, passkey_ceremony.REGISTER)


@api(methods=("POST",))
def register_finish(request):
    """{name, credential}: the name the user gives the passkey and navigator.credentials.create's answer."""
    rules.add_passkey(request.account["name"], text_field(request.data, "name", max_length=200),
                      field(request.data, "credential", dict), _state(request, passkey_ceremony.REGISTER),
                      relying_party(request))
    messages.success(request, _("Passkey added: it signs you in alone, or after your password in place of a code."))
    return _finished(JsonResponse({"ok": True}), passkey_ceremony.REGISTER)


@api(auth="public", methods=("POST",))
def login_begin(request):
    """{ticket} after the password (that user's passkeys only), or {} for a passkey alone."""
    ticket = _ticket(request)
    name = tickets.user_of(ticket)["name"] if ticket else None
    options, state = passkey_ceremony.authentication_options(relying_party(request), name)
    return _begun(options, state, passkey_ceremony.SIGN_IN)


@api(auth="public", methods=("POST",))
def login_finish(request):
    """{credential, ticket?, next?}: navigator.credentials.get's answer; signs in, and says where to go."""
    token = rules.login_with_passkey(field(request.data, "credential", dict), _state(request, passkey_ceremony.SIGN_IN),
                                     relying_party(request), client_ip(request), ticket=_ticket(request))
    target = safe_next(text_field(request.data, "next", required=False, max_length=2000))
    response = JsonResponse({"next": target})
    set_session_cookie(response, token)
    return _finished(response, passkey_ceremony.SIGN_IN)
