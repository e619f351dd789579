"""The client's address and scheme: X-Forwarded-For and X-Forwarded-Proto are believed only when
they come from TRUSTED_PROXIES."""
import ipaddress

from django.conf import settings


def _trusted(address):
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in settings.TRUSTED_PROXIES)


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
    if _trusted(request.META.get("REMOTE_ADDR", "")):
        return request.scheme
    return request.META.get("wsgi.url_scheme", "http")
