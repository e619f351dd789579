"""Server-rendered pages of the reader app: sign-in, sign-up, sign-out."""
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.views.decorators.http import require_http_methods, require_POST

from mangacircus.clientip import client_ip
from mangacircus.http import HttpError

from . import accounts, store
from .auth import clear_session_cookie, safe_next, set_session_cookie


def _signed_in(request, token):
    response = HttpResponseRedirect(safe_next(request, request.POST.get("next") or request.GET.get("next")))
    set_session_cookie(response, request, token)
    return response


@require_http_methods(["GET", "POST"])
def login_page(request):
    state = accounts.signup_state()
    if state["firstRun"]:
        return signup_page(request)
    context = {"next": safe_next(request, request.GET.get("next")), "state": state, "error": None, "name": ""}
    status = 200
    if request.method == "POST":
        context["name"] = request.POST.get("name", "")[:64]
        try:
            token = accounts.login(context["name"], request.POST.get("password", ""), client_ip(request))
            return _signed_in(request, token)
        except HttpError as e:
            context["error"], status = e.message, e.status
    return render(request, "reader/login.html", context, status=status)


@require_http_methods(["GET", "POST"])
def signup_page(request):
    state = accounts.signup_state()
    if not state["signup"]:
        return HttpResponseRedirect(request.META.get("SCRIPT_NAME", "") + "/login/")
    context = {"next": safe_next(request, request.GET.get("next")), "state": state, "error": None, "name": ""}
    status = 200
    if request.method == "POST" and request.POST.get("action") == "signup":
        context["name"] = request.POST.get("name", "")[:64]
        try:
            if request.POST.get("password") != request.POST.get("password2"):
                raise HttpError(400, "the two passwords differ")
            token = accounts.signup(context["name"], request.POST.get("password", ""))
            return _signed_in(request, token)
        except HttpError as e:
            context["error"], status = e.message, e.status
    return render(request, "reader/signup.html", context, status=status)


@require_POST
def logout_page(request):
    if request.sid:
        store.end_session(request.sid)
    response = HttpResponseRedirect(request.META.get("SCRIPT_NAME", "") + "/login/")
    clear_session_cookie(response, request)
    return response
