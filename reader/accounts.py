"""Sign-up, sign-in and password rules, shared by the JSON API and the HTML forms."""
import threading

from django.conf import settings

from mangacircus.http import HttpError

from . import passwords, ratelimit, store

MIN_PASSWORD = 8
MAX_PASSWORD = 1024
_signup_lock = threading.Lock()


def check_password_rules(password, field="password"):
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise HttpError(400, f"{field} must be {MIN_PASSWORD} to {MAX_PASSWORD} characters")


def signup_state():
    first_run = store.user_count() == 0
    return {"firstRun": first_run, "signup": first_run or settings.SIGNUP == "open"}


def signup(name, password):
    """Create an account and return a session token. The first account becomes the admin."""
    check_password_rules(password)
    _check_signup_open()
    store.check_new_name(name)
    password_hash = passwords.make_hash(password)  # slow: outside the lock
    with _signup_lock:
        first = _check_signup_open()
        store.check_new_name(name)
        store.create_user(name, password_hash, admin=first)
    return store.create_session(name)


def _check_signup_open():
    first = store.user_count() == 0
    if not first and settings.SIGNUP != "open":
        raise HttpError(403, "sign-up is closed; ask an admin for an account")
    return first


def verify(name, password, address):
    """A rate-limited password check; raises 429 when the limit is reached, 401 when wrong."""
    if not isinstance(name, str) or not isinstance(password, str) or len(password) > MAX_PASSWORD or len(name) > 64:
        raise HttpError(400, "name and password must be strings")
    wait = ratelimit.take(name, address)
    if wait:
        raise HttpError(429, f"too many attempts; try again in {wait} seconds", {"Retry-After": str(wait)})
    user = store.get_user(name)
    if not passwords.check(password, user["hash"] if user else None):
        raise HttpError(401, "wrong name or password")
    return user


def login(name, password, address):
    """Check the password and start a new session (never adopting a token sent by the client)."""
    user = verify(name, password, address)
    if passwords.needs_rehash(user["hash"]):
        store.set_password_hash(name, passwords.make_hash(password), end_sessions=False)
    return store.create_session(name)


def change_password(name, old, new, address, current_sid):
    check_password_rules(new, "new")
    verify(name, old, address)
    store.set_password_hash(name, passwords.make_hash(new), keep_session=store.digest(current_sid))
