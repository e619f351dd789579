"""Sign-in by a trusted proxy's header: forward auth from Authelia, Authentik and the like
(docs/accounts.md, "Signing in through your proxy").

The header named by REMOTE_USER_HEADER is believed only on a connection from one of
TRUSTED_PROXIES (mangacircus/clientip.py, the same rule as X-Forwarded-For); from anyone else it is
ignored. The name it carries is an account here, found in any case; a name not known gets an account
only with REMOTE_SIGNUP, and never the first one (the admin is made as ever: see "The first account").
With REMOTE_GROUPS_HEADER and REMOTE_ADMIN_GROUP, the proxy's groups decide the role at each
request: in that group an admin, else not. The proxy signs the person in; the session it gets is
this app's own (accounts/middleware.py).
"""
import re

from django.conf import settings
from django.utils.translation import gettext as _

from mangacircus import clientip

from . import external, users


def _header(request, name):
    """The header's value as the proxy sent it: WSGI hands bytes over as ISO-8859-1, proxies send UTF-8."""
    value = request.META.get("HTTP_" + name.upper().replace("-", "_"))
    if value is None:
        return None
    try:
        return value.encode("latin-1").decode("utf-8").strip()
    except UnicodeError:
        return value.strip()


def groups(request):
    """The proxy's groups of the user (Authelia separates them with commas, Authentik with |),
    or None when no groups header is configured or sent."""
    raw = _header(request, settings.REMOTE_GROUPS_HEADER) if settings.REMOTE_GROUPS_HEADER else None
    return None if raw is None else {g.strip() for g in re.split(r"[,|]", raw) if g.strip()}


def header_name(request):
    """The name the trusted proxy signed in, or None: no header set up, none sent, or not from a proxy."""
    if not settings.REMOTE_USER_HEADER or not clientip.from_trusted_proxy(request):
        return None
    return _header(request, settings.REMOTE_USER_HEADER) or None


def proxy_user(request):
    """The user record the trusted proxy names, its role as the groups say, or None. Forbidden when
    the proxy names someone who has no account and may not get one."""
    name = header_name(request)
    if name is None or users.user_count() == 0:
        return None
    admin = external.admin_by_groups(groups(request), settings.REMOTE_ADMIN_GROUP)
    user = users.get_user(name) or external.sign_up(name, admin, allowed=settings.REMOTE_SIGNUP, by=_("your proxy"))
    return external.apply_role(user, admin)
