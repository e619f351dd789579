"""Server-rendered account pages: sign-in, sign-up, sign-out, and Settings → User → Profile."""
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from mangacircus.clientip import client_ip, from_this_machine
from mangacircus.errors import DomainError, Invalid, Unavailable
from mangacircus.pages import error_page, page, render_section

from . import rules, sessions
from .middleware import clear_session_cookie, safe_next, set_session_cookie


def _signed_in(request, token):
    response = HttpResponseRedirect(safe_next(request.POST.get("next") or request.GET.get("next")))
    set_session_cookie(response, token)
    return response


def _form(request, template, action, submitted, **extra):
    """Render a sign-in or sign-up form; on POST run `action(name)` and sign in with its token.
    The form shows the error itself (with the name kept), so it is handled here, not by @page."""
    context = {"next": safe_next(request.GET.get("next")), "state": rules.signup_state(), "error": None, "name": "",
               **extra}
    status, headers = 200, {}
    if submitted:
        context["name"] = request.POST.get("name", "")[:64]
        try:
            return _signed_in(request, action(context["name"]))
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
    return _form(request, "accounts/login.html",
                 lambda name: rules.login(name, request.POST.get("password", ""), client_ip(request)),
                 submitted=request.method == "POST")


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
            raise Invalid("the two passwords differ")
        return rules.signup(name, request.POST.get("password", ""), local=local,
                            setup_code=request.POST.get("setupCode"))

    # On the first run /login/ shows this form; a sign-in posted there is not a sign-up.
    return _form(request, "accounts/signup.html", signup,
                 submitted=request.method == "POST" and request.POST.get("action") == "signup",
                 needs_code=state["firstRun"] and not local)


@require_POST
def logout_page(request):
    if request.sid:
        try:
            sessions.end_session(request.sid)
        except Unavailable as e:  # still signed in: say so rather than pretend
            return error_page(request, e.status, e.message, e.headers)
    response = HttpResponseRedirect(reverse("mc-login"))
    clear_session_cookie(response)
    return response


@page()
@require_http_methods(["GET", "POST"])
def profile(request):
    if request.method == "POST":
        post = request.POST
        if post.get("new") != post.get("new2"):
            raise Invalid("the two new passwords differ")
        rules.change_password(request.account["name"], post.get("old", ""), post.get("new", ""),
                              client_ip(request), request.sid)
        messages.success(request, "Password changed. Your other devices were signed out.")
        return HttpResponseRedirect(request.path)
    return render_section(request, "accounts/profile.html", "user", "profile")
