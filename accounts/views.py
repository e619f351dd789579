"""Server-rendered account pages: sign-in (with its code step), sign-up, sign-out. Settings → User →
Profile is accounts/profile_views.py."""
from django.conf import settings
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from mangacircus.clientip import client_ip, from_this_machine
from mangacircus.errors import DomainError, Invalid, Unavailable
from mangacircus.pages import error_page

from . import oidc_views, rules, sessions, tickets
from .middleware import clear_session_cookie, safe_next, set_session_cookie


def _signed_in(request, token):
    response = HttpResponseRedirect(safe_next(request.POST.get("next") or request.GET.get("next")))
    set_session_cookie(response, token)
    return response


def _form(request, template, action, submitted, **extra):
    """Render a sign-in or sign-up form; on POST run `action(name)` and sign in with its token.
    The form shows the error itself (with the name kept), so it is handled here, not by @page."""
    context = {"next": safe_next(request.GET.get("next")), "state": rules.signup_state(), "error": None, "name": "",
               **oidc_views.provider_context(), **extra}
    status, headers = 200, {}
    if submitted:
        context["name"] = request.POST.get("name", "")[:64]
        try:
            return _signed_in(request, action(context["name"]))
        except rules.CodeNeeded:
            raise  # the password was right: the code step's own page follows
        except DomainError as e:
            context["error"], status, headers = e.message, e.status, e.headers
    response = render(request, template, context, status=status)
    for name, value in headers.items():
        response[name] = value
    return response


@require_http_methods(["GET", "POST"])
def login_page(request):
    if rules.signup_state()["firstRun"]:
        return signup_page(request)
    try:
        return _form(request, "accounts/login.html",
                     lambda name: rules.login(name, request.POST.get("password", ""), client_ip(request)),
                     submitted=request.method == "POST")
    except rules.CodeNeeded as e:
        return _code_form(request, e.ticket, e.factors)


def _code_form(request, ticket, factors, error=None, status=200, headers=None):
    """The code step: a code field for an account with a code app, "Use a passkey" for one with passkeys."""
    context = {"ticket": ticket, "factors": factors, "next": safe_next(request.POST.get("next")), "error": error}
    response = render(request, "accounts/login_code.html", context, status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


@require_http_methods(["GET", "POST"])
def login_code_page(request):
    """The code step of a sign-in with a second factor (the form login_page shows after the password)."""
    if request.method == "GET":
        return HttpResponseRedirect(reverse("mc-login"))
    ticket = request.POST.get("ticket", "")
    try:
        return _signed_in(request, rules.login_with_code(ticket, request.POST.get("code", ""), client_ip(request)))
    except tickets.StaleTicket as e:  # back to the password step, with the reason
        context = {"next": safe_next(request.POST.get("next")), "error": e.message, "state": rules.signup_state(),
                   "name": "", **oidc_views.provider_context()}
        return render(request, "accounts/login.html", context, status=e.status)
    except DomainError as e:
        try:
            factors = rules.second_factors(tickets.user_of(ticket)["name"])
        except tickets.StaleTicket:  # expired this very moment
            factors = {"code": True, "passkey": False}
        return _code_form(request, ticket, factors, e.message, e.status, e.headers)


@require_http_methods(["GET", "POST"])
def signup_page(request):
    state = rules.signup_state()
    if not state["signup"]:
        # Said in words rather than a silent jump to the sign-in form.
        return render(request, "accounts/signup.html", {"state": state, "closed": True},
                      status=200 if request.method == "GET" else 403)
    local = from_this_machine(request)

    def signup(name):
        if request.POST.get("password") != request.POST.get("password2"):
            raise Invalid(_("the two passwords differ"))
        return rules.signup(name, request.POST.get("password", ""), local=local,
                            setup_code=request.POST.get("setupCode"))

    # On the first run /login/ shows this form; a sign-in posted there is not a sign-up.
    return _form(request, "accounts/signup.html", signup,
                 submitted=request.method == "POST" and request.POST.get("action") == "signup",
                 needs_code=state["firstRun"] and not local)


@require_POST
def logout_page(request):
    """End this app's session; a session an OpenID provider signed in goes on to the provider's own
    sign-out, through a page that moves there by itself (the CSP's form-action keeps a form's
    redirect on this site)."""
    via = sessions.session_via(request.sid)
    if request.sid:
        try:
            sessions.end_session(request.sid)
        except Unavailable as e:  # still signed in: say so rather than pretend
            return error_page(request, e.status, e.message, e.headers)
    target = oidc_views.sign_out_target(request, via)
    if target:
        response = render(request, "accounts/signed_out.html", {"target": target,
                                                                 "provider": settings.OIDC_PROVIDER_NAME})
    else:
        response = HttpResponseRedirect(reverse("mc-login"))
    clear_session_cookie(response)
    return oidc_views.forget_hint(response)
