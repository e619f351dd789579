"""The OpenID Connect client: the provider's discovery document and keys, the authorization request
with PKCE, the code exchange and the ID token's checks (docs/accounts.md, "OpenID Connect").

Every request to the provider goes through the outbound-address guard (mangacircus/netguard.py),
every hop checked and pinned. The host of OIDC_ISSUER itself may be on loopback or the LAN, as a
self-hosted provider usually is; any other host the discovery document names (a key set or token
endpoint elsewhere) must be a public address. Answers are capped in size and time.

The JOSE part is Authlib's: joserfc (Authlib's JOSE library) checks the signature against the
provider's JWKS, authlib.oidc.core.CodeIDToken the claims (iss, aud, azp, exp, iat, nonce, at_hash),
authlib.oauth2.rfc7636 makes the S256 challenge, each imported by the function that needs it: together
they took 95 ms of every server's start, most of which never see an OIDC sign-in. Codes, tokens and
the client secret are never logged.
"""
import base64
import http.client
import ssl
import threading
import time
from urllib.parse import urlencode, urlsplit

import orjson
from django.conf import settings
from django.utils.translation import gettext as _

from mangacircus import netguard
from mangacircus.errors import DomainError, Forbidden

TIMEOUT = 10.0
MAX_BYTES = 1 << 20
CACHE_SECONDS = 3600  # the discovery document and the keys; an unknown key id fetches the keys again
LEEWAY = 60  # seconds of clock difference allowed on exp and iat
# Signatures by the provider's keys; HS* (Authentik without a signing key) uses the client secret.
ASYMMETRIC = {"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}
SYMMETRIC = {"HS256", "HS384", "HS512"}

_cache = {}  # "discovery" / "jwks" -> (time.monotonic(), value)
_cache_lock = threading.Lock()


class ProviderError(DomainError):
    """The provider cannot be reached, or answered something that is not what the protocol says."""
    status = 502


class Refused(Forbidden):
    """The provider refused the sign-in, or its answer did not pass the checks."""


def enabled():
    return bool(settings.OIDC_ISSUER)


def _issuer_host():
    return (urlsplit(settings.OIDC_ISSUER).hostname or "").lower()


def _allowed(host, port, ip):
    return host.lower().rstrip(".") == _issuer_host()


def _fetch_json(method, url, body=None, headers=None):
    """(status, parsed JSON or None) of one request to the provider; ProviderError when it fails."""
    host = urlsplit(url).hostname or url[:100]
    deadline = time.monotonic() + TIMEOUT
    try:
        answer = netguard.request(method, url, body=body, headers={"Accept": "application/json", **(headers or {})},
                                  allowed=_allowed, max_redirects=0 if method == "POST" else 3, deadline=deadline,
                                  connect_timeout=TIMEOUT, read_timeout=TIMEOUT)
    except netguard.OutboundError as e:
        raise ProviderError(_unreachable(e, host)) from None
    try:
        status, raw = answer.response.status, answer.read_body(MAX_BYTES, deadline, TIMEOUT)
    except (netguard.DeadlinePassed, OSError, http.client.HTTPException):
        raise ProviderError(_("the OpenID provider at %(host)s did not send its whole answer")
                            % {"host": host}) from None
    finally:
        answer.close()
    if len(raw) > MAX_BYTES:
        raise ProviderError(_("the OpenID provider at %(host)s sent an answer over %(size)s MB")
                            % {"host": host, "size": MAX_BYTES >> 20})
    try:
        return status, orjson.loads(raw)
    except orjson.JSONDecodeError:
        return status, None


def _unreachable(e, host):
    if isinstance(e, netguard.NotPublic):
        return (_("%(host)s resolves to %(ip)s, a loopback or private address, and is not the host of OIDC_ISSUER")
                % {"host": e.host, "ip": e.ip})
    if isinstance(e, netguard.Unresolvable):
        return _("the OpenID provider's name %(host)s cannot be resolved (DNS): check OIDC_ISSUER") % {"host": e.host}
    if isinstance(e, netguard.HopFailed) and isinstance(e.error, ssl.SSLError):
        return (_("the OpenID provider at %(host)s cannot be reached: TLS failed (%(reason)s)")
                % {"host": host, "reason": getattr(e.error, "reason", None)})
    if isinstance(e, netguard.HopFailed) and isinstance(e.error, ConnectionRefusedError):
        return _("the OpenID provider at %(host)s cannot be reached: it refused the connection") % {"host": host}
    if isinstance(e, netguard.DeadlinePassed):
        return (_("the OpenID provider at %(host)s did not answer within %(seconds)s s")
                % {"host": host, "seconds": format(TIMEOUT, "g")})
    return (_("the OpenID provider at %(host)s cannot be reached (%(error)s)")
            % {"host": host, "error": type(e).__name__})


def _cached(key, load, fresh=False):
    with _cache_lock:
        kept = _cache.get(key)
    if kept and not fresh and time.monotonic() - kept[0] < CACHE_SECONDS:
        return kept[1]
    value = load()
    with _cache_lock:
        _cache[key] = (time.monotonic(), value)
    return value


def forget():
    """Drop the kept discovery document and keys (a test's new provider, a changed OIDC_ISSUER)."""
    with _cache_lock:
        _cache.clear()


def discovery():
    """The provider's discovery document, checked to name OIDC_ISSUER as its issuer."""
    return _cached(("discovery", settings.OIDC_ISSUER), _load_discovery)


def _load_discovery():
    url = settings.OIDC_ISSUER + "/.well-known/openid-configuration"
    status, doc = _fetch_json("GET", url)
    if status != 200 or not isinstance(doc, dict):
        raise ProviderError(_("%(url)s answered HTTP %(status)s without a discovery document: check OIDC_ISSUER")
                            % {"url": url, "status": status})
    if str(doc.get("issuer", "")).rstrip("/") != settings.OIDC_ISSUER:
        raise ProviderError(_("the discovery document names the issuer %(issuer)s, not OIDC_ISSUER")
                            % {"issuer": repr(str(doc.get('issuer'))[:200])})
    for key in ("authorization_endpoint", "token_endpoint", "jwks_uri"):
        if not isinstance(doc.get(key), str) or not doc[key].startswith(("https://", "http://")):
            raise ProviderError(_("the discovery document has no %(key)s") % {"key": key})
    return doc


def _keys(fresh=False):
    from joserfc import errors as jose_errors
    from joserfc.jwk import KeySet

    def load():
        status, jwks = _fetch_json("GET", discovery()["jwks_uri"])
        if status != 200 or not isinstance(jwks, dict):
            raise ProviderError(_("the provider's key set answered HTTP %(status)s") % {"status": status})
        try:
            return KeySet.import_key_set(jwks)
        except (jose_errors.JoseError, ValueError, TypeError, KeyError):
            raise ProviderError(_("the provider's key set cannot be read")) from None

    return _cached(("jwks", settings.OIDC_ISSUER), load, fresh)


def scopes():
    return "openid profile email" + (" groups" if settings.OIDC_ADMIN_GROUP else "")


def authorization_url(redirect_uri, state, nonce, verifier):
    from authlib.oauth2.rfc7636 import create_s256_code_challenge

    params = {"response_type": "code", "client_id": settings.OIDC_CLIENT_ID, "redirect_uri": redirect_uri,
              "scope": scopes(), "state": state, "nonce": nonce,
              "code_challenge": create_s256_code_challenge(verifier), "code_challenge_method": "S256"}
    endpoint = discovery()["authorization_endpoint"]
    return endpoint + ("&" if "?" in endpoint else "?") + urlencode(params)


def exchange(code, redirect_uri, verifier):
    """The token endpoint's answer for the code: {id_token, access_token, …}. Refused when it says no."""
    doc = discovery()
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri, "code_verifier": verifier}
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    methods = doc.get("token_endpoint_auth_methods_supported") or ["client_secret_basic"]
    if settings.OIDC_CLIENT_SECRET and "client_secret_basic" in methods:
        pair = f"{_form_quote(settings.OIDC_CLIENT_ID)}:{_form_quote(settings.OIDC_CLIENT_SECRET)}"
        headers["Authorization"] = "Basic " + base64.b64encode(pair.encode()).decode()
    else:  # client_secret_post, or a public client (PKCE alone)
        form["client_id"] = settings.OIDC_CLIENT_ID
        if settings.OIDC_CLIENT_SECRET:
            form["client_secret"] = settings.OIDC_CLIENT_SECRET
    status, answer = _fetch_json("POST", doc["token_endpoint"], urlencode(form).encode(), headers)
    if status != 200 or not isinstance(answer, dict) or not isinstance(answer.get("id_token"), str):
        error = answer.get("error") if isinstance(answer, dict) else None
        said = str(error)[:100] if error else f"HTTP {status}"
        raise Refused(_("the provider did not accept the sign-in code (%(said)s); start again") % {"said": said})
    return answer


def _form_quote(value):
    """RFC 6749 2.3.1: the client id and secret are form-encoded before they go into Basic."""
    return urlencode({"": value})[1:]


def id_token_claims(id_token, nonce, access_token=None):
    """The claims of an ID token whose signature, issuer, audience, times and nonce are right;
    Refused, naming what is wrong, otherwise."""
    from authlib.oidc.core import CodeIDToken
    from joserfc import errors as jose_errors

    doc = discovery()
    offered = set(doc.get("id_token_signing_alg_values_supported") or ["RS256"])
    algorithms = offered & ASYMMETRIC | (offered & SYMMETRIC if settings.OIDC_CLIENT_SECRET else set())
    token = _verified(id_token, algorithms)
    options = {"iss": {"essential": True, "value": doc["issuer"]},
               "aud": {"essential": True, "value": settings.OIDC_CLIENT_ID}}
    claims = CodeIDToken(token.claims, token.header, options=options,
                         params={"nonce": nonce, "client_id": settings.OIDC_CLIENT_ID, "access_token": access_token})
    try:
        claims.validate(now=int(time.time()), leeway=LEEWAY)
    except jose_errors.ExpiredTokenError:
        raise Refused(_("the provider's ID token has expired: check that this server's clock is right, and start "
                        "again")) from None
    except jose_errors.JoseError as e:
        raise Refused(_("the provider's ID token is not for this sign-in (%(claim)s); start again")
                      % {"claim": _claim_of(e)}) from None
    if not isinstance(claims.get("sub"), str) or not claims["sub"]:
        raise Refused(_("the provider's ID token names no subject"))
    return dict(claims)


def _claim_of(error):
    """The claim a joserfc error is about, in the words of its description ("Invalid claim: 'aud'")."""
    return str(getattr(error, "description", None) or error.error)[:100]


def _verified(id_token, algorithms):
    from joserfc import errors as jose_errors
    from joserfc import jwt
    from joserfc.jwk import OctKey

    if not isinstance(id_token, str) or len(id_token) > 64_000:
        raise Refused(_("the provider's ID token is not a token"))
    symmetric = _header_alg(id_token) in SYMMETRIC and bool(settings.OIDC_CLIENT_SECRET)
    for fresh in (False, True):  # a key id not known yet: the provider rotated its keys
        key = OctKey.import_key(settings.OIDC_CLIENT_SECRET) if symmetric else _keys(fresh)
        try:
            return jwt.decode(id_token, key, algorithms=sorted(algorithms))
        except (jose_errors.InvalidKeyIdError, jose_errors.MissingKeyError, ValueError):
            if fresh or symmetric:
                break
        except (jose_errors.BadSignatureError, jose_errors.UnsupportedAlgorithmError):
            break
        except jose_errors.JoseError:
            raise Refused(_("the provider's ID token cannot be read")) from None
    raise Refused(_("the provider's ID token is not signed by the provider's key; start again"))


def _header_alg(id_token):
    try:
        return orjson.loads(base64.urlsafe_b64decode(id_token.split(".")[0] + "==")).get("alg")
    except (ValueError, AttributeError, orjson.JSONDecodeError):
        return None


def userinfo(access_token, subject):
    """The userinfo endpoint's claims (the groups and e-mail of providers that keep them out of the ID
    token), or {} when there is none; never claims of another subject."""
    endpoint = discovery().get("userinfo_endpoint")
    if not isinstance(endpoint, str) or not access_token:
        return {}
    status, claims = _fetch_json("GET", endpoint, headers={"Authorization": f"Bearer {access_token}"})
    if status != 200 or not isinstance(claims, dict) or claims.get("sub") != subject:
        return {}
    return claims


def end_session_url(id_token, post_logout_redirect_uri):
    """The provider's sign-out address (RP-initiated logout), or None when it has none."""
    try:
        endpoint = discovery().get("end_session_endpoint")
    except ProviderError:
        return None
    if not isinstance(endpoint, str) or not endpoint.startswith(("https://", "http://")):
        return None
    params = {"client_id": settings.OIDC_CLIENT_ID, "post_logout_redirect_uri": post_logout_redirect_uri}
    if id_token:
        params["id_token_hint"] = id_token
    return endpoint + ("&" if "?" in endpoint else "?") + urlencode(params)
