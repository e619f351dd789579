"""The setup code: what creates the first account from anywhere but a browser on the server itself.

Until the first account exists, anyone who reaches the server first could claim it, so the first
sign-up needs a request from this machine (mangacircus/clientip.py's from_this_machine) or this
code. It lives in DATA/setup-code (mode 0600) from the first start without an account until that
account exists; the server logs it at start and `manage.py setupcode` shows it again.
"""
import hmac
import logging
import os
import secrets

from django.conf import settings

from mangacircus.jsonfile import fsync_dir

from . import users

log = logging.getLogger(__name__)

ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789"  # no 0, O, 1, I, L or U to misread
LENGTH = 12  # ~59 bits: not guessable over HTTP


def path():
    return settings.DATA / "setup-code"


def read():
    """The current code, or None."""
    try:
        return path().read_text().strip() or None
    except FileNotFoundError:
        return None


def ensure():
    """The code, made first when there is none. Made atomically under a temporary name and linked
    into place, so nobody reads half a code and two processes starting at once agree on one."""
    code = read()
    if code:
        return code
    raw = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
    target = path()
    tmp = target.with_name(f".setup-code.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, ("-".join(raw[i:i + 4] for i in range(0, LENGTH, 4)) + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(tmp, target)
    except FileExistsError:
        pass  # someone else's is in place: theirs counts
    except OSError:
        os.replace(tmp, target)  # a file system without hard links
    finally:
        tmp.unlink(missing_ok=True)
    fsync_dir(target.parent)
    return read()


def _plain(code):
    return "".join(code.split()).replace("-", "").upper().encode()


def matches(code):
    expected = read()
    if not expected or not isinstance(code, str) or not code.strip():
        return False
    return hmac.compare_digest(_plain(code), _plain(expected))


def discard():
    """The first account exists: the code opens nothing any more."""
    try:
        path().unlink(missing_ok=True)
    except OSError as e:
        log.error("could not delete %s (%s); it no longer opens anything", path(), e.strerror)


def announce():
    """At start: log the code while there is no account, else make sure none is left."""
    if users.user_count():
        discard()
        return
    log.warning(
        "No account yet. Create the first one (it becomes the admin) in a browser on this machine, "
        "at http://localhost:%s/, or from anywhere with the setup code %s "
        "(`.venv/bin/python manage.py setupcode` shows it again).", settings.PORT, ensure(),
    )
