"""The reader's outbound calls to a peer: its catalog, for the admin screens, `peer pull` and "test
connection". Through mangacircus/netguard.py like webhooks: a peer on loopback or the LAN is reached
only when PEER_ALLOW lists it, every redirect is checked again, the answer is capped in size and time.
Failures become PeerError with a message in words (DNS, refused, TLS, 401, wrong version)."""
import http.client
import ssl
import time
from urllib.parse import urlsplit

import orjson
from django.conf import settings

from mangacircus import netguard

from . import store as peers

TIMEOUT = 30.0
MAX_BYTES = 64 << 20
PROTOCOL = 1


class PeerError(Exception):
    pass


def _allowed(host, port, ip):
    return netguard.listed(settings.PEER_ALLOW, host, ip)


def _words(e, url):
    host = urlsplit(url).hostname
    if isinstance(e, netguard.Unresolvable):
        return f"the name {e.host} cannot be resolved (DNS): check the URL"
    if isinstance(e, netguard.NotPublic):
        return (f"{e.host} resolves to {e.ip}, a loopback or private address: a peer on your own network must be "
                f"listed in PEER_ALLOW (for example PEER_ALLOW={e.host} or PEER_ALLOW={e.ip})")
    if isinstance(e, netguard.NotHttp):
        return "only http:// and https:// peers are possible"
    if isinstance(e, netguard.BadUrl):
        return "the URL is not valid (its address or port)"
    if isinstance(e, netguard.HopFailed):
        if isinstance(e.error, ssl.SSLError):
            return f"TLS failed with {host}: {getattr(e.error, 'reason', None) or e.error}"
        if isinstance(e.error, ConnectionRefusedError):
            return f"{host} refused the connection: is the peer's server running on that port?"
        if isinstance(e.error, TimeoutError):
            return f"{host} did not answer in time"
        return f"{host}: {e.error}"
    if isinstance(e, netguard.DeadlinePassed):
        return f"{host} did not answer within {TIMEOUT:g} s"
    return f"{host} redirected too many times"


def fetch_json(url, secret, path):
    deadline = time.monotonic() + TIMEOUT  # the whole exchange, body included
    try:
        answer = netguard.request("GET", url + path, headers={"Authorization": f"Bearer {secret}",
                                                              "Accept": "application/json"},
                                  allowed=_allowed, max_redirects=3, deadline=deadline,
                                  connect_timeout=10, read_timeout=TIMEOUT)
    except netguard.OutboundError as e:
        raise PeerError(_words(e, url)) from None
    try:
        status = answer.response.status
        body = answer.read_body(MAX_BYTES, deadline, TIMEOUT)
    except netguard.DeadlinePassed:
        raise PeerError(f"{urlsplit(url).hostname} did not send its whole answer within {TIMEOUT:g} s") from None
    except (OSError, http.client.HTTPException) as e:
        raise PeerError(f"the answer from {urlsplit(url).hostname} was cut: {e}") from None
    finally:
        answer.close()
    if status == 401:
        raise PeerError("the peer refused our secret (401): the secret this server presents must be the one "
                        "the peer accepts from us")
    if status == 429:
        raise PeerError("the peer is rate limiting us (429) after wrong secrets; wait and try again")
    if status == 404:
        raise PeerError("the peer has no peer API at that URL (404): check the URL, or the peer's version")
    if status != 200:
        raise PeerError(f"the peer answered HTTP {status}")
    if len(body) > MAX_BYTES:
        raise PeerError(f"the peer's answer is larger than {MAX_BYTES >> 20} MB")
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        raise PeerError("the peer did not answer JSON: is that URL a MangaCircus server?") from None
    if not isinstance(data, dict) or data.get("protocol") != PROTOCOL:
        theirs = data.get("protocol") if isinstance(data, dict) else "?"
        raise PeerError(f"the peer speaks another version of the peer API ({theirs}, this server speaks {PROTOCOL})")
    return data


def catalog(name):
    peer = peers.get(name)
    if not peer["enabled"]:
        raise PeerError(f"{name} is disabled")
    return fetch_json(peer["url"], peer["present"], "/api/peer/catalog")


def test(name):
    """'ok: …' or the reason in words."""
    try:
        data = catalog(name)
    except PeerError as e:
        return {"ok": False, "message": str(e)}
    return {"ok": True, "message": f"connected: {name} shares {len(data['manga'])} manga with this server"}
