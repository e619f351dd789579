"""Accounts of people whom someone else signs in: a trusted proxy's header (accounts/proxyauth.py)
and an OpenID provider (accounts/oidc_accounts.py). One rule for both: the name becomes an account
here only when the setting allows it, never the first account, and an admin group, when one is
set up and the groups are known, decides the role at each sign-in."""
import threading

from django.utils.translation import gettext as _

from mangacircus import db
from mangacircus.errors import Conflict, Forbidden, Invalid

from . import passwords, users

_signup_lock = threading.Lock()


def admin_by_groups(groups, admin_group):
    """True or False when the groups decide the role, None when they do not (no admin group set up,
    or no groups known for this sign-in)."""
    if not admin_group or groups is None:
        return None
    return admin_group in groups


def apply_role(user, admin):
    """Make the user an admin or not, as `admin_by_groups` said (None: leave the role as it is)."""
    if admin is not None and admin != user["admin"]:
        users.set_admin(user["name"], admin)
        user["admin"] = admin
    return user


def sign_up(name, admin, *, allowed, by, oidc_subject=None):
    """The account made for `name`, a reader unless `admin`, without a password: only the one who
    signed them in (or an API key) can; linked to `oidc_subject` in the same change. Forbidden, in
    words naming `by` ("your proxy"), when sign-up is not `allowed` or the name cannot be one here;
    never the first account. An account of that name made meanwhile is answered as it is."""
    if users.user_count() == 0:
        raise Forbidden(_("the first account, the admin, is made on this server's sign-in page first"))
    if not allowed:
        raise Forbidden(_("%(by)s signed you in as %(name)s, who has no account here; an admin can make it in "
                          "Settings → Admin → Users") % {"by": by, "name": name})
    with _signup_lock:
        existing = users.get_user(name)  # made meanwhile by a parallel request
        if existing:
            return existing
        try:
            stored = users.check_new_name(name)
        except (Invalid, Conflict) as e:
            raise Forbidden(_("%(by)s signed you in as %(name)s, which cannot be a name here: %(message)s")
                            % {"by": by, "name": name, "message": e.message}) from None
        with db.security_change("users"):
            users.create_user(stored, passwords.unusable_hash(), admin=bool(admin))
            if oidc_subject:
                users.set_oidc_subject(stored, oidc_subject)
        return users.get_user(stored)
