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
import threading

from django.conf import settings

from mangacircus import clientip
from mangacircus.errors import Conflict, Forbidden, Invalid

from . import passwords, users

_signup_lock = threading.Lock()


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
    admin = _admin_by_groups(request)
    user = users.get_user(name) or _sign_up(name, admin)
    if admin is not None and admin != user["admin"]:
        users.set_admin(user["name"], admin)
        user["admin"] = admin
    return user


def _admin_by_groups(request):
    """True or False when the groups decide the role, None when they do not (not configured, not sent)."""
    found = groups(request) if settings.REMOTE_ADMIN_GROUP else None
    return None if found is None else settings.REMOTE_ADMIN_GROUP in found


def _sign_up(name, admin):
    if not settings.REMOTE_SIGNUP:
        raise Forbidden(f"your proxy signed you in as {name}, who has no account here; an admin can make it in "
                        "Settings → Admin → Users")
    with _signup_lock:
        existing = users.get_user(name)  # made meanwhile by a parallel request
        if existing:
            return existing
        try:
            stored = users.check_new_name(name)
        except (Invalid, Conflict) as e:
            raise Forbidden(f"your proxy signed you in as {name}, which cannot be a name here: {e.message}") from None
        users.create_user(stored, passwords.unusable_hash(), admin=bool(admin))
        return users.get_user(stored)
