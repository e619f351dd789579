"""Which account an OpenID sign-in is (docs/accounts.md, "OpenID Connect"): the provider's claims,
checked by accounts/oidc.py, mapped to an account here.

1. The account linked to the subject (issuer and `sub`): a name changed at the provider keeps it.
2. Else the one account whose e-mail address (set by an admin in Settings → Admin → Users) is the
   claims' `email` with `email_verified` true, when that account is linked to no other subject:
   linked from now on.
3. Else a new account named by OIDC_USERNAME_CLAIM, when OIDC_SIGNUP allows (accounts/external.py,
   the proxy header's rules). A name that is an account here already is never taken over by the
   name alone: whoever can choose a name at the provider would get that account.
Then OIDC_ADMIN_GROUP in OIDC_GROUPS_CLAIM decides the role, when the claims list groups.
"""
from django.conf import settings
from django.utils.translation import gettext as _

from mangacircus.errors import Forbidden

from . import external, users


def subject_of(claims):
    return f"{claims['iss']} {claims['sub']}"


def groups_of(claims):
    """The groups the claims list (a list, or one string with commas), or None when they list none."""
    raw = claims.get(settings.OIDC_GROUPS_CLAIM)
    if isinstance(raw, str):
        raw = raw.split(",")
    if not isinstance(raw, list):
        return None
    return {str(g).strip() for g in raw if str(g).strip()}


def account_for(claims):
    """The user record the claims sign in, its role set by the groups; Forbidden, in words, when none."""
    if users.user_count() == 0:
        raise Forbidden(_("the first account, the admin, is made on this server's sign-in page first"))
    subject = subject_of(claims)
    admin = external.admin_by_groups(groups_of(claims), settings.OIDC_ADMIN_GROUP)
    user = users.by_oidc_subject(subject) or _by_verified_email(claims, subject) or _new_account(claims, subject, admin)
    return external.apply_role(user, admin)


def _by_verified_email(claims, subject):
    email = claims.get("email")
    if not isinstance(email, str) or claims.get("email_verified") not in (True, "true"):
        return None
    user = users.by_email(email)
    if user is None or user.get("oidc"):
        return None
    users.set_oidc_subject(user["name"], subject)
    user["oidc"] = subject
    return user


def _new_account(claims, subject, admin):
    provider = settings.OIDC_PROVIDER_NAME
    name = claims.get(settings.OIDC_USERNAME_CLAIM)
    if not isinstance(name, str) or not name.strip():
        raise Forbidden(_("%(provider)s sent no %(claim)s claim to name your account by; an admin can choose another "
                          "with OIDC_USERNAME_CLAIM") % {"provider": provider, "claim": settings.OIDC_USERNAME_CLAIM})
    name = name.strip()
    if users.exists(name):
        raise _not_linked(provider, name)
    user = external.sign_up(name, admin, allowed=settings.OIDC_SIGNUP, by=provider, oidc_subject=subject)
    if user.get("oidc") != subject:  # made meanwhile by another sign-in
        raise _not_linked(provider, name)
    return user


def _not_linked(provider, name):
    return Forbidden(_("%(provider)s signed you in as %(name)s, and an account of that name exists here, but it is "
                       "not linked to your %(provider)s account. An admin links it by giving it your e-mail address "
                       "in Settings → Admin → Users (your provider must say it is verified).")
                     % {"provider": provider, "name": name})
