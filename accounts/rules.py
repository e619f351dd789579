"""Sign-up, sign-in, passwords, second factors and the user-admin rules: one set of functions that
the JSON API (accounts/api.py) and the HTML screens (accounts/views.py, accounts/admin_views.py,
accounts/profile_views.py, accounts/passkey_api.py) all call."""
import re
import threading
import time

from django.conf import settings
from django.utils.translation import gettext as _

from mangacircus import db
from mangacircus.errors import Forbidden, Invalid, NotFound, RateLimited, Unavailable, WrongCredentials
from mangacircus.wording import in_words

from . import passkey_ceremony, passkeys, passwords, ratelimit, sessions, setup, tickets, totp, users

MIN_PASSWORD = 8
EMAIL_RE = re.compile(r"[^@\s]+@[^@\s]+")
MAX_PASSWORD = 1024
_signup_lock = threading.Lock()


def check_password_rules(password, field="password"):
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise Invalid(_("%(field)s must be %(min)s to %(max)s characters")
                      % {"field": field, "min": MIN_PASSWORD, "max": MAX_PASSWORD})


def signup_state():
    first_run = users.user_count() == 0
    return {"firstRun": first_run, "signup": first_run or (settings.SIGNUP == "open" and settings.PASSWORD_LOGIN)}


def signup(name, password, *, local=False, setup_code=None):
    """Create an account and return a session token. The first account becomes the admin, and
    needs a request from the server itself (`local`) or the setup code (accounts/setup.py)."""
    check_password_rules(password)
    _check_signup_open(local, setup_code)
    name = users.check_new_name(name)
    password_hash = passwords.make_hash(password)  # slow: outside the lock
    with _signup_lock:
        first = _check_signup_open(local, setup_code)
        users.check_new_name(name)
        with db.security_change("users", "sessions"):  # both or neither
            users.create_user(name, password_hash, admin=first)
            token = sessions.create_session(name)
    if first:
        setup.discard()
    return token


def _check_signup_open(local, setup_code):
    first = users.user_count() == 0
    if not first and (settings.SIGNUP != "open" or not settings.PASSWORD_LOGIN):
        raise Forbidden(_("sign-up is closed; ask an admin for an account"))
    if first and not local and not setup.matches(setup_code):
        raise Forbidden(_("the first account needs the setup code from the server's log (or `.venv/bin/python "
                          "manage.py setupcode` on the server), unless it is made in a browser on the server itself"))
    return first


def verify(name, password, address):
    """A rate-limited password check (accounts/ratelimit.py); RateLimited when a limit is reached,
    Unavailable when the server is busy hashing, WrongCredentials when wrong."""
    if not isinstance(name, str) or not isinstance(password, str) or len(password) > MAX_PASSWORD or len(name) > 64:
        raise Invalid(_("name and password must be strings"))
    now = time.monotonic()
    wait = ratelimit.take(name, address, now)
    if wait:
        raise RateLimited(_("too many attempts; try again %(when)s") % {"when": in_words(wait)}, retry_after=wait)
    user = users.get_user(name)
    try:
        right = passwords.check(password, user["hash"] if user else None)
    except Unavailable:
        ratelimit.give_back(name, address, now)
        raise
    if not right:
        raise WrongCredentials(_("wrong name or password"))
    ratelimit.give_back(name, address, now)
    return user


def confirm_password(name, password, address, wrong=None):
    """A signed-in user confirms a sensitive action with their password (same rate limit)."""
    try:
        return verify(name, password, address)
    except WrongCredentials:
        raise WrongCredentials(wrong or _("the current password is wrong")) from None


def second_factors(name):
    """{code, passkey}: which second factors the account has (TOTP, passkeys)."""
    return {"code": totp.enabled(name), "passkey": passkeys.enabled(name)}


def has_second_factor(name):
    return totp.enabled(name) or passkeys.enabled(name)


class CodeNeeded(WrongCredentials):
    """The password was right and the account has a second factor: the sign-in goes on with a code
    or a passkey and `ticket` (accounts/tickets.py), which stands for the password in that step."""

    def __init__(self, ticket, factors):
        super().__init__(_("enter the code from your authenticator app, or a recovery code") if factors["code"]
                         else _("use your passkey to finish signing in"))
        self.ticket, self.factors = ticket, factors


def check_password_login():
    """Forbidden while PASSWORD_LOGIN=0: the web signs in through the provider or the proxy only
    (the reading apps keep HTTP Basic and API keys, accounts/basic.py)."""
    if not settings.PASSWORD_LOGIN:
        if settings.OIDC_ISSUER:
            raise Forbidden(_("signing in with a password is turned off on this server; sign in with %(provider)s. "
                              "Reading apps use API keys (Settings → User → Apps)")
                            % {"provider": settings.OIDC_PROVIDER_NAME})
        raise Forbidden(_("signing in with a password is turned off on this server; sign in through your proxy. "
                          "Reading apps use API keys (Settings → User → Apps)"))


def login(name, password, address, code=None):
    """Check the password (and the second factor's code, when the account has one) and start a new
    session, never adopting a token sent by the client. CodeNeeded when a code is due but not given."""
    check_password_login()
    user = verify(name, password, address)
    name = user["name"]  # as spelt at creation, whatever the case typed
    if passwords.needs_rehash(user["hash"]):
        try:
            users.set_password_hash(name, passwords.make_hash(password))
        except Unavailable:
            pass  # busy, or the write failed: the upgrade waits for a later sign-in
    factors = second_factors(name)
    if factors["code"] or factors["passkey"]:
        if not code or not factors["code"]:
            raise CodeNeeded(tickets.make(users.get_user(name)), factors)
        check_code(name, code, address)
    return sessions.create_session(name)


def login_with_code(ticket, code, address):
    """The code step of a sign-in: the ticket from the password step and a code; a new session."""
    check_password_login()
    user = tickets.user_of(ticket)
    if totp.enabled(user["name"]):
        check_code(user["name"], code, address)
    elif passkeys.enabled(user["name"]):
        raise WrongCredentials(_("this account has no code app: use your passkey to finish signing in"))
    # else both reset meanwhile by an admin: the password was enough
    return sessions.create_session(user["name"])


def login_with_passkey(credential, state, rp, address, ticket=None):
    """A passkey's answer to the options of passkey_ceremony.authentication_options: alone, or with
    the `ticket` of the password step as the second factor. A new session. A refused answer counts
    in the sign-in rate limit, under the passkey owner's name (none for an unknown passkey)."""
    expected = tickets.user_of(ticket)["name"] if ticket else None
    found = passkeys.find(credential.get("id")) if isinstance(credential, dict) else None
    account = found[0] if found else (expected or "")
    now = time.monotonic()
    wait = ratelimit.take(account, address, now)
    if wait:
        raise RateLimited(_("too many attempts; try again %(when)s") % {"when": in_words(wait)}, retry_after=wait)
    try:
        name = passkey_ceremony.verify_assertion(credential, state, rp)
    except Unavailable:
        ratelimit.give_back(account, address, now)
        raise
    if expected is not None and name != expected:
        raise WrongCredentials(_("this passkey belongs to another account"))
    ratelimit.give_back(account, address, now)
    return sessions.create_session(name)


def check_code(name, code, address):
    """A code of the user's authenticator app or a recovery code, under the sign-in rate limit
    (a wrong code counts as a wrong password does); WrongCredentials when wrong."""
    if not isinstance(code, str) or not code.strip():
        raise Invalid(_("enter the code from your authenticator app, or a recovery code"))
    now = time.monotonic()
    wait = ratelimit.take(name, address, now)
    if wait:
        raise RateLimited(_("too many attempts; try again %(when)s") % {"when": in_words(wait)}, retry_after=wait)
    try:
        right = totp.use_code(name, code)
    except Unavailable:
        ratelimit.give_back(name, address, now)
        raise
    if not right:
        raise WrongCredentials(_("wrong code, or one used already; wait for the app's next code"))
    ratelimit.give_back(name, address, now)


# Second factors, from Settings → Profile (the user's own) and the users screen or manage.py (a reset).

def confirm_second_factor(name, code):
    """Turn the pending second factor on; returns the recovery codes. The apps' sessions opened with
    the password end, as Basic no longer signs the account in."""
    with db.security_change("twofactor", "sessions"):
        codes = totp.confirm(name, code)
        sessions.end_password_app_sessions(name)
    return codes


def turn_off_second_factor(name, code, address):
    check_code(name, code, address)
    totp.turn_off(name)


def new_recovery_codes(name, code, address):
    check_code(name, code, address)
    return totp.new_recovery_codes(name)


def reset_second_factor(actor, name):
    """Remove another user's second factor (a lost device); `actor` None: `manage.py resettwofactor`."""
    name = existing_user(name)["name"]
    if name == actor:
        raise Invalid(_("turn your own second factor off in Settings → Profile, with a code"))
    with db.security_change("twofactor", "passkeys"):
        had_code = totp.turn_off(name)
        had_passkey = passkeys.remove_all(name)
    if not had_code and not had_passkey:
        raise Invalid(_("%(name)s has no second factor") % {"name": name})
    return name


def add_passkey(name, label, credential, state, rp):
    """Keep the passkey of a verified registration. As with a code app, the apps' sessions opened
    with the password end: Basic no longer signs the account in."""
    label = passkeys.clean_name(label)
    credential_id, public_key, count = passkey_ceremony.verify_registration(name, credential, state, rp)
    with db.security_change("passkeys", "sessions"):
        passkeys.add(name, label, credential_id, public_key, count)
        sessions.end_password_app_sessions(name)


def _replace_password(name, password, keep_token=None):
    """New hash and the end of every other session, as one change on disk."""
    password_hash = passwords.make_hash(password)  # slow: outside the lock
    with db.security_change("users", "sessions"):
        users.set_password_hash(name, password_hash)
        sessions.end_other_sessions(name, keep_token)


def change_password(name, old, new, address, current_token):
    check_password_rules(new, "new")
    confirm_password(name, old, address)
    _replace_password(name, new, keep_token=current_token)


# User administration: the same rules for the JSON API and the admin screens.

def existing_user(name):
    """The account named `name` in any case; its record's "name" is the spelling chosen at creation."""
    user = users.get_user(name) if isinstance(name, str) else None
    if user is None:
        raise NotFound(_("no user named %(name)s") % {"name": name})
    return user


def create_user(name, password, admin=False):
    """Returns the name as stored (its NFKC form)."""
    check_password_rules(password)
    name = users.check_new_name(name)
    users.create_user(name, passwords.make_hash(password), admin=admin)
    return name


def reset_password(name, password):
    """An admin sets a new password; every session of the user ends."""
    name = existing_user(name)["name"]
    check_password_rules(password)
    _replace_password(name, password)


def set_email(name, email):
    """An admin sets the e-mail address an OpenID sign-in links the account by ("" removes it)."""
    name = existing_user(name)["name"]
    email = email.strip() if isinstance(email, str) else ""
    if email and (len(email) > 254 or not EMAIL_RE.fullmatch(email)):
        raise Invalid(_("%(email)s is not an e-mail address") % {"email": email[:100]})
    users.set_email(name, email)
    return name


def unlink_oidc(name):
    """Forget the OpenID subject of the account: the next OpenID sign-in links by e-mail again."""
    user = existing_user(name)
    if not user.get("oidc"):
        raise Invalid(_("%(name)s is not linked to an OpenID account") % {"name": user['name']})
    users.set_oidc_subject(user["name"], None)
    return user["name"]


def set_role(actor, name, admin):
    name = existing_user(name)["name"]
    if name == actor and not admin:
        raise Invalid(_("you cannot revoke your own admin rights; another admin can"))
    users.set_admin(name, admin)


def end_sessions(actor, name):
    """An admin signs the user out on every device (their own account: use Sign out)."""
    name = existing_user(name)["name"]
    if name == actor:
        raise Invalid(_("you cannot end your own sessions here; sign out instead"))
    sessions.end_other_sessions(name)


def delete_user(actor, name):
    name = existing_user(name)["name"]
    if name == actor:
        raise Invalid(_("you cannot delete your own account"))
    users.delete_user(name)
