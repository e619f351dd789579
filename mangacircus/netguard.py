"""Outbound HTTP only to addresses that were checked: the one guard behind webhooks and scraper
sources against requests to this machine or the local network.

`checked_address()` resolves a host once and refuses it when any of its addresses is not a public
one (loopback, private, link-local, ULA, CGNAT, metadata, multicast, reserved), unless the caller's
`allowed(host, ip)` admits it. The pinned connections then connect to that very address, so a
second DNS answer cannot swap it (DNS rebinding), while TLS still checks the host name.
"""
import http.client
import ipaddress
import socket
import ssl


class Unresolvable(Exception):
    def __init__(self, host, error=None):
        super().__init__(host)
        self.host, self.error = host, error


class NotPublic(Exception):
    def __init__(self, host, ip):
        super().__init__(f"{host} ({ip})")
        self.host, self.ip = host, ip


def checked_address(host, port, allowed=lambda host, ip: False):
    """The (family, address) to connect to for host:port; raises Unresolvable or NotPublic."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as e:
        raise Unresolvable(host, e) from None
    if not infos:
        raise Unresolvable(host)
    for info in infos:
        ip = ipaddress.ip_address(info[4][0].split("%")[0])
        ip = getattr(ip, "ipv4_mapped", None) or ip
        if (not ip.is_global or ip.is_multicast) and not allowed(host, ip):
            raise NotPublic(host, ip)
    return infos[0][0], infos[0][4][0]


class PinnedHTTPConnection(http.client.HTTPConnection):
    """An HTTP connection to a checked address; the Host header keeps the name."""

    def __init__(self, host, port, address, timeout):
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self):
        self.sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class PinnedHTTPSConnection(PinnedHTTPConnection):
    default_port = 443
    _context = ssl.create_default_context()

    def connect(self):
        super().connect()
        self.sock = self._context.wrap_socket(self.sock, server_hostname=self.host)


def pinned_connection(scheme, host, port, address, timeout):
    cls = PinnedHTTPSConnection if scheme == "https" else PinnedHTTPConnection
    return cls(host, port, address, timeout)
