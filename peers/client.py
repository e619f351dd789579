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
from django.utils.translation import gettext as _

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
        return _("the name %(host)s cannot be resolved (DNS): check the URL") % {"host": e.host}
    if isinstance(e, netguard.NotPublic):
        return (_("%(host)s resolves to %(ip)s, a loopback or private address: a peer on your own network must be "
                  "listed in PEER_ALLOW (for example PEER_ALLOW=%(host)s or PEER_ALLOW=%(ip)s)")
                % {"host": e.host, "ip": e.ip})
    if isinstance(e, netguard.NotHttp):
        return _("only http:// and https:// peers are possible")
    if isinstance(e, netguard.BadUrl):
        return _("the URL is not valid (its address or port)")
    if isinstance(e, netguard.HopFailed):
        if isinstance(e.error, ssl.SSLError):
            reason = getattr(e.error, "reason", None) or e.error
            return _("TLS failed with %(host)s: %(reason)s") % {"host": host, "reason": reason}
        if isinstance(e.error, ConnectionRefusedError):
            return _("%(host)s refused the connection: is the peer's server running on that port?") % {"host": host}
        if isinstance(e.error, TimeoutError):
            return _("%(host)s did not answer in time") % {"host": host}
        return f"{host}: {e.error}"
    if isinstance(e, netguard.DeadlinePassed):
        return _("%(host)s did not answer within %(seconds)s s") % {"host": host, "seconds": f"{TIMEOUT:g}"}
    return _("%(host)s redirected too many times") % {"host": host}


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
        raise PeerError(_("%(host)s did not send its whole answer within %(seconds)s s")
                        % {"host": urlsplit(url).hostname, "seconds": f"{TIMEOUT:g}"}) from None
    except (OSError, http.client.HTTPException) as e:
        raise PeerError(_("the answer from %(host)s was cut: %(error)s")
                        % {"host": urlsplit(url).hostname, "error": e}) from None
    finally:
        answer.close()
    if status == 401:
        raise PeerError(_("the peer refused our secret (401): the secret this server presents must be the one "
                          "the peer accepts from us"))
    if status == 429:
        raise PeerError(_("the peer is rate limiting us (429) after wrong secrets; wait and try again"))
    if status == 404:
        raise PeerError(_("the peer has no peer API at that URL (404): check the URL, or the peer's version"))
    if status != 200:
        raise PeerError(_("the peer answered HTTP %(status)s") % {"status": status})
    if len(body) > MAX_BYTES:
        raise PeerError(_("the peer's answer is larger than %(mb)s MB") % {"mb": MAX_BYTES >> 20})
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        raise PeerError(_("the peer did not answer JSON: is that URL a MangaCircus server?")) from None
    if not isinstance(data, dict) or data.get("protocol") != PROTOCOL:
        theirs = data.get("protocol") if isinstance(data, dict) else "?"
        raise PeerError(_("the peer speaks another version of the peer API (%(theirs)s, this server speaks %(ours)s)")
                        % {"theirs": theirs, "ours": PROTOCOL})
    return data


def catalog(name):
    peer = peers.get(name)
    if not peer["enabled"]:
        raise PeerError(_("%(name)s is disabled") % {"name": name})
    return fetch_json(peer["url"], peer["present"], "/api/peer/catalog")


def test(name):
    """'ok: …' or the reason in words."""
    try:
        data = catalog(name)
    except PeerError as e:
        return {"ok": False, "message": str(e)}
    return {"ok": True, "message": _("connected: %(name)s shares %(n)s manga with this server")
            % {"name": name, "n": len(data["manga"])}}
