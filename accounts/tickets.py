"""What carries a right password to the code step of a sign-in with a second factor.

A ticket is signed with the server's secret key and timestamped (django.core.signing): it names the
user and a digest of their password hash, and is good for five minutes. So the code step needs no
second password hash and no state on the server, and a password changed meanwhile ends the ticket.
It opens nothing by itself: the code step still wants a code, under the sign-in rate limit.
"""
import hashlib
import hmac

from django.core import signing
from django.utils.translation import gettext as _

from mangacircus.errors import WrongCredentials

from . import users

SALT = "mangacircus.accounts.code-step"
MAX_AGE = 300


class StaleTicket(WrongCredentials):
    """The ticket is forged, too old or out of date: the sign-in starts again with the password."""


def _digest(password_hash):
    return hashlib.sha256(password_hash.encode()).hexdigest()[:32]


def make(user):
    return signing.dumps({"u": user["name"], "h": _digest(user["hash"])}, salt=SALT)


def user_of(ticket):
    """The user record of a ticket; StaleTicket when it is forged, old or out of date."""
    if not isinstance(ticket, str) or len(ticket) > 1000:
        raise StaleTicket(_("this sign-in is out of date; enter your name and password again"))
    try:
        data = signing.loads(ticket, salt=SALT, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise StaleTicket(_("the sign-in took more than 5 minutes; enter your name and password again")) from None
    except signing.BadSignature:
        raise StaleTicket(_("this sign-in is out of date; enter your name and password again")) from None
    user = users.get_user(data.get("u")) if isinstance(data, dict) else None
    if user is None or not hmac.compare_digest(_digest(user["hash"]), str(data.get("h", ""))):
        raise StaleTicket(_("this sign-in is out of date; enter your name and password again"))
    return user
