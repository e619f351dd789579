"""Settings → Admin → Incidents & health and → Backups, and their JSON API.

GET /api/admin/health, GET/POST /api/admin/incidents, POST /api/admin/services/restart,
GET/POST /api/admin/backup. The pages and the API call the same functions.
"""
from django.conf import settings
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.views.decorators.http import require_http_methods

from . import health, incidents, supervisor
from .backups import run, state
from .errors import Conflict, Invalid, Unavailable
from .http import api
from .pages import page, render_section

SERVICES = ("reader", "scraper")


def acknowledge(body, by):
    target = body.get("acknowledge")
    if not isinstance(target, str) or not target or len(target) > 64:
        raise Invalid('acknowledge must be an incident id or "all"')
    return {"acknowledged": incidents.acknowledge(target, by), "open": incidents.open_count()}


def restart(name):
    """Ask `startall` to start a stopped service again."""
    if name not in SERVICES:
        raise Invalid(f"service must be one of {', '.join(SERVICES)}")
    services = health.services()
    if not services["supervised"]:
        raise Unavailable("the services are not supervised by `manage.py startall`; restart them where they run")
    if services[name].get("supervisedState") == "running":
        raise Conflict(f"the {name} is running")
    supervisor.request_restart(settings.DATA, name)
    return {"requested": name}


def backup_command(body):
    command = body.get("command")
    if command == "run":
        run.run_in_background("manual")
        return {"started": True}
    if command == "settings":
        return {"settings": state.update_settings(body)}
    raise Invalid('command must be "run" or "settings"')


# -- JSON -----------------------------------------------------------------------------------------

@api(auth="admin")
def health_api(request):
    return health.report()


@api(auth="admin", methods=("GET", "POST"))
def incidents_api(request):
    if request.method == "POST":
        return acknowledge(request.data, request.account["name"])
    return {"incidents": incidents.read(), "open": incidents.open_count()}


@api(auth="admin", methods=("POST",))
def restart_api(request):
    return restart(request.data.get("service"))


@api(auth="admin", methods=("GET", "POST"))
def backup_api(request):
    if request.method == "POST":
        return backup_command(request.data)
    return run.summary()


# -- pages --------------------------------------------------------------------------------------

@page(auth="admin")
@require_http_methods(["GET", "POST"])
def health_page(request):
    if request.method == "POST":
        if "restart" in request.POST:
            restart(request.POST["restart"])
            messages.success(request, f"Restart of the {request.POST['restart']} requested.")
        else:
            done = acknowledge({"acknowledge": request.POST.get("acknowledge", "")}, request.account["name"])
            messages.success(request, f"{done['acknowledged']} incident{'s' if done['acknowledged'] != 1 else ''} "
                                      "acknowledged.")
        return HttpResponseRedirect(request.path)
    report = health.report()
    show = request.GET.get("show", "open")
    listed = [i for i in incidents.read() if show == "all" or not i["acknowledged"]]
    return render_section(request, "ops/health.html", "admin", "health", report=report, incidents=listed,
                          show=show, services=[(n, report["services"][n]) for n in SERVICES])


@page(auth="admin")
@require_http_methods(["GET", "POST"])
def backups_page(request):
    if request.method == "POST":
        if request.POST.get("command") == "run":
            run.run_in_background("manual")
            messages.success(request, "Backup started; its progress shows below.")
        else:
            state.update_settings(_settings_from_form(request.POST))
            messages.success(request, "Backup settings saved.")
        return HttpResponseRedirect(request.path)
    return render_section(request, "ops/backups.html", "admin", "backups", summary=run.summary())


def _settings_from_form(form):
    def number(name, default):
        try:
            return int(form.get(name, default))
        except ValueError:
            raise Invalid(f"{name} must be a whole number") from None

    return {"schedule": {"every": form.get("every", "off"), "at": form.get("at", "03:00"),
                         "hours": number("hours", 24)},
            "retention": {"keep": number("keep", 7), "weeks": number("weeks", 0)}}
