"""The two WebAuthn ceremonies (registering a passkey, signing in with one), through py_webauthn.

A ceremony starts with options holding a random challenge, and ends with the authenticator's
answer, which signs that challenge. The challenge travels as `state`: signed with the server's
secret key and timestamped (django.core.signing, as accounts/tickets.py), naming the purpose and the
user, kept by the browser in an HttpOnly cookie (accounts/passkey_api.py) and good for five minutes.
A challenge answered once is kept here, in memory, until it would have expired anyway, so an answer
replayed within those minutes is refused too.

`rp` is (rp_id, origin): the host name the passkeys are bound to and the page's scheme and host.
webauthn is imported inside the functions: most processes never run a ceremony, and the package
(with cbor2, pyOpenSSL and asn1 parsers) costs each start of a server.
"""
import hashlib
import threading
import time

from django.core import signing
from django.utils.translation import gettext as _

from mangacircus.errors import Invalid, WrongCredentials

from . import passkeys

SALT = "mangacircus.accounts.passkey"
MAX_AGE = 300
TIMEOUT_MS = 120_000
RP_NAME = "MangaCircus"
REGISTER, SIGN_IN = "register", "sign-in"

_answered = {}  # sha256 of a challenge -> monotonic time after which its state is expired anyway
_answered_lock = threading.Lock()


class StaleCeremony(Invalid):
    """The state is missing, forged, too old, for another purpose or answered already (400: the
    browser starts the ceremony again)."""


def _seal(purpose, challenge, name):
    from webauthn.helpers import bytes_to_base64url

    return signing.dumps({"p": purpose, "c": bytes_to_base64url(challenge), "u": name}, salt=SALT)


def _open(state, purpose):
    """(challenge, user name or None) of a state, used up by this; StaleCeremony otherwise."""
    from webauthn.helpers import base64url_to_bytes

    if not isinstance(state, str) or not state or len(state) > 1000:
        raise StaleCeremony(_("the passkey request is missing or out of date; try again"))
    try:
        data = signing.loads(state, salt=SALT, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise StaleCeremony(_("the passkey took more than 5 minutes to answer; try again")) from None
    except signing.BadSignature:
        raise StaleCeremony(_("the passkey request is out of date; try again")) from None
    if not isinstance(data, dict) or data.get("p") != purpose:
        raise StaleCeremony(_("the passkey request is out of date; try again"))
    _use_once(data["c"])
    return base64url_to_bytes(data["c"]), data.get("u")


def _use_once(challenge):
    digest = hashlib.sha256(challenge.encode()).hexdigest()
    now = time.monotonic()
    with _answered_lock:
        for old in [d for d, until in _answered.items() if until < now]:
            del _answered[old]
        if digest in _answered:
            raise StaleCeremony(_("this passkey answer was used already; try again"))
        _answered[digest] = now + MAX_AGE + 1


def _descriptors(name):
    from webauthn.helpers import base64url_to_bytes
    from webauthn.helpers.structs import PublicKeyCredentialDescriptor

    return [PublicKeyCredentialDescriptor(id=base64url_to_bytes(i)) for i in passkeys.credential_ids(name)]


def registration_options(name, rp):
    """(options for navigator.credentials.create, state) to add a passkey to `name`'s account: a
    discoverable one (resident key), so it can sign in alone too."""
    import webauthn
    from webauthn.helpers import base64url_to_bytes, structs

    options = webauthn.generate_registration_options(
        rp_id=rp[0], rp_name=RP_NAME, user_name=name, user_display_name=name,
        user_id=base64url_to_bytes(passkeys.user_handle(name)), timeout=TIMEOUT_MS,
        authenticator_selection=structs.AuthenticatorSelectionCriteria(
            resident_key=structs.ResidentKeyRequirement.REQUIRED,
            user_verification=structs.UserVerificationRequirement.PREFERRED),
        exclude_credentials=_descriptors(name))
    return _json(options), _seal(REGISTER, options.challenge, name)


def verify_registration(name, credential, state, rp):
    """(credential id, public key, sign count) of a verified answer to registration_options."""
    import webauthn
    from webauthn.helpers import bytes_to_base64url
    from webauthn.helpers.exceptions import WebAuthnException

    challenge, owner = _open(state, REGISTER)
    if owner != name:
        raise StaleCeremony(_("the passkey request was made for another account; try again"))
    try:
        verified = webauthn.verify_registration_response(credential=_credential(credential),
                                                         expected_challenge=challenge, expected_rp_id=rp[0],
                                                         expected_origin=rp[1])
    except WebAuthnException as e:
        raise Invalid(_("the passkey could not be registered: %(error)s") % {"error": e}) from None
    return (bytes_to_base64url(verified.credential_id), bytes_to_base64url(verified.credential_public_key),
            verified.sign_count)


def authentication_options(rp, name=None):
    """(options for navigator.credentials.get, state). With `name` (the step after the password),
    only that user's passkeys and user verification preferred; without (a passkey alone), any
    discoverable passkey of this site, and user verification required: the PIN or fingerprint
    stands for the password."""
    import webauthn
    from webauthn.helpers.structs import UserVerificationRequirement

    verification = UserVerificationRequirement.PREFERRED if name else UserVerificationRequirement.REQUIRED
    options = webauthn.generate_authentication_options(
        rp_id=rp[0], timeout=TIMEOUT_MS, user_verification=verification,
        allow_credentials=_descriptors(name) if name else None)
    return _json(options), _seal(SIGN_IN, options.challenge, name)


def credential_owner(credential):
    """(owner, key) of the passkey an answer comes from; WrongCredentials for an unknown one."""
    raw_id = credential.get("id") if isinstance(credential, dict) else None
    found = passkeys.find(raw_id) if isinstance(raw_id, str) and len(raw_id) <= 1400 else None
    if found is None:
        raise WrongCredentials(_("this passkey is not registered here; sign in with your password, or another passkey"))
    return found


def verify_assertion(credential, state, rp):
    """The name of the user a verified answer to authentication_options signs in, its sign counter
    kept. StaleCeremony, or WrongCredentials for any answer that does not verify."""
    import webauthn
    from webauthn.helpers import base64url_to_bytes
    from webauthn.helpers.exceptions import WebAuthnException

    challenge, expected_user = _open(state, SIGN_IN)
    owner, key = credential_owner(credential)
    if expected_user is not None and owner != expected_user:
        raise WrongCredentials(_("this passkey belongs to another account"))
    try:
        verified = webauthn.verify_authentication_response(
            credential=_credential(credential), expected_challenge=challenge, expected_rp_id=rp[0],
            expected_origin=rp[1], credential_public_key=base64url_to_bytes(key["publicKey"]),
            credential_current_sign_count=int(key.get("count") or 0),
            require_user_verification=expected_user is None)
    except WebAuthnException as e:
        raise WrongCredentials(_("the passkey's answer was refused: %(error)s") % {"error": e}) from None
    passkeys.record_use(owner, key["id"], verified.new_sign_count)
    return owner


def _credential(credential):
    if not isinstance(credential, dict):
        raise Invalid(_("credential must be an object"))
    return credential


def _json(options):
    import orjson
    from webauthn import options_to_json

    return orjson.loads(options_to_json(options))
