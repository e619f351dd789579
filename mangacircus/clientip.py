"""The client's address and scheme: X-Forwarded-For and X-Forwarded-Proto are believed only when
they come from TRUSTED_PROXIES, and so is the sign-in header (accounts/proxyauth.py)."""
import ipaddress

from django.conf import settings
from django.http.request import split_domain_port

# Headers a proxy adds. From a proxy that is not in TRUSTED_PROXIES they mean that the connection's
# address is the proxy's, and who is behind it is unknown.
FORWARDING = ("HTTP_X_FORWARDED_FOR", "HTTP_FORWARDED", "HTTP_X_REAL_IP")


def _trusted(address):
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in settings.TRUSTED_PROXIES)


def from_trusted_proxy(request):
    """Whether the connection comes from one of TRUSTED_PROXIES (whose headers are believed)."""
    return _trusted(request.META.get("REMOTE_ADDR", ""))


def client_ip(request):
    address = request.META.get("REMOTE_ADDR", "")
    if not _trusted(address):
        return address
    hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
    # Walk back from the nearest hop; the first address not of our own proxies is the client.
    for hop in reversed(hops):
        if not _trusted(hop):
            return hop
        address = hop
    return address


def scheme(request):
    """"http" or "https", as the client used it. Django's SECURE_PROXY_SSL_HEADER believes
    X-Forwarded-Proto from anyone; gunicorn's wsgi.url_scheme only from the trusted proxies."""
    if from_trusted_proxy(request):
        return request.scheme
    return request.META.get("wsgi.url_scheme", "http")


def _loopback(text):
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return False
    return ip.is_loopback or bool(getattr(ip, "ipv4_mapped", None) and ip.ipv4_mapped.is_loopback)


def from_this_machine(request):
    """Whether the request comes from a browser on the server itself: a loopback client address,
    behind no proxy that is not trusted, asking for a loopback host name. The name matters: a
    DNS-rebinding page in the server's own browser connects from loopback too, under its own name."""
    if not _loopback(client_ip(request)):
        return False
    if not from_trusted_proxy(request) and any(request.META.get(h) for h in FORWARDING):
        return False
    host = split_domain_port(request.get_host())[0].strip("[]")
    return host == "localhost" or host.endswith(".localhost") or _loopback(host)
