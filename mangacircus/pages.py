"""Server-rendered pages: the @page decorator and the settings area's navigation.

Each app registers its settings sections from its AppConfig.ready() with `settings_section()`;
the side navigation, its order and the admin-only rule follow from the registry. URLs come from
`reverse()`, so a deployment under a sub-path (SCRIPT_NAME) needs nothing else.
"""
from functools import wraps
from urllib.parse import quote

from django.contrib import messages
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import jsonfile
from .errors import DomainError, Forbidden, NotFound, Unavailable

WORKSPACES = (("user", gettext_lazy("User")), ("admin", gettext_lazy("Admin")))
_sections = []  # (workspace, order, key, label, url name)
_badges = {}  # (workspace, key) -> callable answering a count shown beside the label (0: none)


def settings_section(workspace, key, label, url_name, order, badge=None):
    """Add a section to Settings → User or Settings → Admin (admin sections are shown to admins only).
    `badge()`, when given, answers a number shown beside the label (open incidents)."""
    assert workspace in dict(WORKSPACES), workspace
    if not any(s[0] == workspace and s[2] == key for s in _sections):
        _sections.append((workspace, order, key, label, url_name))
        _sections.sort()
    if badge:
        _badges[(workspace, key)] = badge


def _badge(space, key):
    count = _badges.get((space, key))
    try:
        return count() if count else 0
    except Exception:  # a count that cannot be read must not break every settings page
        return 0


def nav_context(request, workspace, section):
    spaces = [w for w in WORKSPACES if w[0] == "user" or request.account.get("admin")]
    return {
        "settings_nav": [
            (title, [(key, label, reverse(url_name), space == workspace and key == section, _badge(space, key))
                     for space_, _order, key, label, url_name in _sections if space_ == space])
            for space, title in spaces
        ],
        "workspace": workspace,
        "section": section,
    }


def render_section(request, template, workspace, section, **context):
    """A settings page inside the settings frame."""
    context.update(nav_context(request, workspace, section))
    return render(request, template, context)


def error_page(request, status, message, headers=None):
    response = render(request, "error.html", {"status": status, "message": message}, status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def page(auth="user", back=None):
    """Wrap a server-rendered page.

    Visitors go to the sign-in page; admin pages answer 403 to others. A domain error raised by a
    form's POST becomes a message on the page the form is on (post/redirect/get): the URL named
    `back`, else the same URL. Raised by a GET, or NotFound, it becomes the error page with its status.
    While DATA cannot be written, a form's POST changes nothing and says so, as the API's 503 does.
    """
    assert auth in ("user", "admin")

    def decorate(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.account is None:
                return HttpResponseRedirect(f"{reverse('mc-login')}?next={quote(request.get_full_path())}")
            if auth == "admin" and not request.account.get("admin"):
                return error_page(request, Forbidden.status, _("admins only"))
            try:
                if request.method == "POST" and jsonfile.any_failing():
                    raise Unavailable(_("saving data is failing on the server, so nothing was changed; try again "
                                        "shortly"), retry_after=5)
                return view(request, *args, **kwargs)
            except DomainError as e:
                if request.method != "POST" or isinstance(e, NotFound):
                    return error_page(request, e.status, e.message, e.headers)
                messages.error(request, e.message)
                return HttpResponseRedirect(reverse(back) if back else request.get_full_path())

        wrapper.page_auth = auth
        return wrapper

    return decorate


def csrf_failure(request, reason=""):
    """A form posted without this site's CSRF token (settings.CSRF_FAILURE_VIEW): the styled error
    page rather than Django's bare one. The JSON API is exempt and never gets here."""
    return error_page(request, Forbidden.status,
                      _("this form is out of date or was sent from another site; reload the page and try again"))
