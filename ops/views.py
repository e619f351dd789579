"""Settings → Admin → Incidents & health and → Backups, and their JSON API.

GET /api/admin/health, GET/POST /api/admin/incidents, POST /api/admin/services/restart,
GET/POST /api/admin/backup. The pages and the API call the same functions.
"""
from django.conf import settings
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from mangacircus import incidents
from mangacircus.errors import Conflict, Invalid, Unavailable
from mangacircus.http import api
from mangacircus.pages import page, render_section

from . import health, supervisor
from .backups import run, state

SERVICES = ("reader", "scraper", "nginx")  # nginx when `startall` runs it (ops/nginx.py)


def acknowledge(body, by):
    target = body.get("acknowledge")
    if not isinstance(target, str) or not target or len(target) > 64:
        raise Invalid(_('acknowledge must be an incident id or "all"'))
    return {"acknowledged": incidents.acknowledge(target, by), "open": incidents.open_count()}


def restart(name):
    """Ask `startall` to start a stopped service again."""
    if name not in SERVICES:
        raise Invalid(_("service must be one of %(services)s") % {"services": ", ".join(SERVICES)})
    services = health.services()
    if not services["supervised"]:
        raise Unavailable(_("the services are not supervised by `manage.py startall`; restart them where they run"))
    if name not in services:
        raise Invalid(_("no %(service)s runs under this `startall`") % {"service": name})
    if services[name].get("supervisedState") == "running":
        raise Conflict(_("the %(service)s is running") % {"service": name})
    supervisor.request_restart(settings.DATA, name)
    return {"requested": name}


def backup_command(body):
    command = body.get("command")
    if command == "run":
        run.run_in_background("manual")
        return {"started": True}
    if command == "settings":
        return {"settings": state.update_settings(body)}
    raise Invalid(_('command must be "run" or "settings"'))


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

FILTERS = ("state", "kind", "service", "q")


@page(auth="admin")
@require_http_methods(["GET", "POST"])
def health_page(request):
    """The health report and the incident list: filters and search at the side, a bulk acknowledge
    with a confirmation step, and a message after each action, as Django's admin lists have."""
    if request.method == "POST":
        return _health_action(request)
    report = health.report()
    everything = incidents.read()
    chosen = {k: request.GET.get(k, "open" if k == "state" else "") for k in FILTERS}
    if chosen["state"] not in ("open", "acknowledged", "all"):
        chosen["state"] = "open"
    listed = incidents.filtered(everything, **chosen)
    shown = [(n, report["services"][n]) for n in SERVICES if n in report["services"]]
    return render_section(request, "ops/health.html", "admin", "health", report=report, incidents=listed,
                          chosen=chosen, services=shown,
                          facets=_facets(everything), total=len(everything), query=request.GET.urlencode())


def _facets(everything):
    """Counts of open incidents per kind and per service, for the filters at the side."""
    kinds = {k: 0 for k in incidents.KINDS}
    services = {"reader": 0, "scraper": 0}
    for i in everything:
        if not i["acknowledged"]:
            kinds[i["kind"]] = kinds.get(i["kind"], 0) + 1
            services[i.get("service", "")] = services.get(i.get("service", ""), 0) + 1
    return {"kinds": kinds, "services": services}


def _health_action(request):
    back = request.path + (f"?{request.POST['query']}" if request.POST.get("query") else "")
    if "restart" in request.POST:
        restart(request.POST["restart"])
        messages.success(request, _("Restart of the %(service)s requested.") % {"service": request.POST["restart"]})
        return HttpResponseRedirect(back)
    # A row's own button acknowledges that row; "Acknowledge selected" takes the ticked boxes.
    ids = [request.POST["acknowledge"]] if request.POST.get("acknowledge") else request.POST.getlist("ids")
    if not ids:
        raise Invalid(_("select at least one incident"))
    if len(ids) > 1 and request.POST.get("confirm") != "yes":
        selected = [i for i in incidents.read() if i["id"] in set(ids) and not i["acknowledged"]]
        return render_section(request, "ops/acknowledge_confirm.html", "admin", "health", selected=selected,
                              query=request.POST.get("query", ""))
    done = incidents.acknowledge_many(ids, request.account["name"])
    messages.success(request, ngettext("%(n)s incident acknowledged.", "%(n)s incidents acknowledged.", done)
                     % {"n": done})
    return HttpResponseRedirect(back)


@page(auth="admin")
@require_http_methods(["GET", "POST"])
def backups_page(request):
    if request.method == "POST":
        return _backups_action(request)
    summary = run.summary()
    chosen = {"show": request.GET.get("show", "all"), "q": request.GET.get("q", "").strip()}
    listed = [a for a in summary.get("archives", [])
              if (chosen["show"] == "all" or a["verified"] == (chosen["show"] == "verified"))
              and chosen["q"].lower() in a["name"].lower()]
    verified = sum(1 for a in summary.get("archives", []) if a["verified"])
    return render_section(request, "ops/backups.html", "admin", "backups", summary=summary, listed=listed,
                          chosen=chosen, verified=verified, query=request.GET.urlencode())


def _backups_action(request):
    back = request.path + (f"?{request.POST['query']}" if request.POST.get("query") else "")
    command = request.POST.get("command")
    if command == "run":
        run.run_in_background("manual")
        messages.success(request, _("Backup started; its progress shows below."))
    elif command == "settings":
        state.update_settings(_settings_from_form(request.POST))
        messages.success(request, _("Backup settings saved."))
    elif command in ("delete", "verify"):
        names = request.POST.getlist("names")
        if not names:
            raise Invalid(_("select at least one archive"))
        if command == "delete" and request.POST.get("confirm") != "yes":
            return render_section(request, "ops/backups_delete_confirm.html", "admin", "backups", names=names,
                                  query=request.POST.get("query", ""))
        if command == "delete":
            done = run.delete_archives(names)
            messages.success(request, ngettext("%(n)s archive deleted.", "%(n)s archives deleted.", len(done))
                             % {"n": len(done)})
        else:
            results = run.verify_archives(names)
            bad = {n: why for n, why in results.items() if why}
            for name, why in bad.items():
                messages.error(request, _("%(name)s: NOT verified: %(why)s") % {"name": name, "why": why})
            good = len(results) - len(bad)
            verified = ngettext("%(good)s of %(n)s archive verified.", "%(good)s of %(n)s archives verified.",
                                len(results))
            messages.success(request, verified % {"good": good, "n": len(results)})
    else:
        raise Invalid(_("unknown action"))
    return HttpResponseRedirect(back)


def _settings_from_form(form):
    def number(name, default):
        try:
            return int(form.get(name, default))
        except ValueError:
            raise Invalid(_("%(field)s must be a whole number") % {"field": name}) from None

    return {"schedule": {"every": form.get("every", "off"), "at": form.get("at", "03:00"),
                         "hours": number("hours", 24)},
            "retention": {"keep": number("keep", 7), "weeks": number("weeks", 0)}}
