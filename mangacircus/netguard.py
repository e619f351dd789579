"""Outbound HTTP only to addresses that were checked: the one guard behind webhooks and scraper
sources against requests to this machine or the local network.

`checked_address()` resolves a host once and refuses it when any of its addresses is not a public
one (loopback, private, link-local, ULA, CGNAT, metadata, multicast, reserved), unless the caller's
`allowed(host, ip)` admits it. An IPv6 address that carries an IPv4 one (IPv4-mapped or -translated,
NAT64, 6to4) is judged by that IPv4 address (`public()`); IPv4-compatible (::/96) and Teredo
addresses are never public. The pinned connections then connect to that very address, so a
second DNS answer cannot swap it (DNS rebinding), while TLS still checks the host name.
`request()` follows redirects with every hop checked the same way; its callers (reader/webhooks.py,
scraper/http.py) keep their own limits and turn its exceptions into their own errors.
"""
import functools
import http.client
import ipaddress
import socket
import ssl
import time
from urllib.parse import urljoin, urlsplit

REDIRECTS = (301, 302, 303, 307, 308)


class OutboundError(Exception):
    """What checked_address() and request() raise."""


class Unresolvable(OutboundError):
    def __init__(self, host, error=None):
        super().__init__(host)
        self.host, self.error = host, error


class NotPublic(OutboundError):
    def __init__(self, host, ip):
        super().__init__(f"{host} ({ip})")
        self.host, self.ip = host, ip


class BadUrl(OutboundError):
    """A URL that cannot be parsed, or whose port is not a number from 0 to 65535."""

    def __init__(self, url):
        super().__init__(url)
        self.url = url


class NotHttp(BadUrl):
    """Not an http or https URL with a host."""


class HopFailed(OutboundError):
    """Connecting (`connecting`) or exchanging the request and the answer's head failed."""

    def __init__(self, url, error, connecting):
        super().__init__(f"{url}: {error}")
        self.url, self.error, self.connecting = url, error, connecting


class DeadlinePassed(OutboundError):
    pass


class TooManyRedirects(OutboundError):
    def __init__(self, url):
        super().__init__(url)
        self.url = url


IPV4_COMPATIBLE = ipaddress.ip_network("::/96")  # deprecated (RFC 4291); its ::1 and :: are loopback and unspecified
TEREDO = ipaddress.ip_network("2001::/32")  # the client's IPv4 is obfuscated and is its NAT's outside address
# Networks whose last 32 bits are an IPv4 address, reached through a translator or the kernel.
EMBEDDING_LAST_32 = [ipaddress.ip_network(n) for n in (
    "::ffff:0:0/96",  # IPv4-mapped (RFC 4291)
    "::ffff:0:0:0/96",  # IPv4-translated (RFC 2765)
    "64:ff9b::/96",  # NAT64, well-known prefix (RFC 6052)
    "64:ff9b:1::/48",  # NAT64, local-use prefix (RFC 8215), read in its usual /96 layout
)]
SIXTOFOUR = ipaddress.ip_network("2002::/16")  # the IPv4 address is bits 16-47 (RFC 3056)


def embedded_ipv4(ip):
    """The IPv4 address an IPv6 address carries (mapped, translated, NAT64, 6to4), else None."""
    if ip.version != 6:
        return None
    if any(ip in net for net in EMBEDDING_LAST_32):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip in SIXTOFOUR:
        return ipaddress.IPv4Address((int(ip) >> 80) & 0xFFFFFFFF)
    return None


def public(ip):
    """Whether an address is a public unicast one: for IPv6 that carries an IPv4 address, whether
    that IPv4 address is (so the answer does not depend on this Python's tables for 2002::/16 and
    the NAT64 prefixes); IPv4-compatible and Teredo addresses never are."""
    if ip.version == 6 and (ip in IPV4_COMPATIBLE or ip in TEREDO):
        return False
    inner = embedded_ipv4(ip)
    if inner is not None:
        return public(inner)
    return ip.is_global and not ip.is_multicast


def listed(entries, host, ip):
    """Whether an allow-list (settings' WEBHOOK_ALLOW, PEER_ALLOW: host names and networks) admits
    `host` or its address `ip`."""
    for entry in entries:
        if isinstance(entry, str):
            if host.lower().rstrip(".") == entry:
                return True
        elif ip.version == entry.version and ip in entry:
            return True
    return False


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
        if not public(ip) and not allowed(host, ip):
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


@functools.cache
def tls_context():
    """The system's CA certificates, loaded on the first HTTPS request: loading them took 45 ms of
    every process's start, and most processes never make one."""
    return ssl.create_default_context()


class PinnedHTTPSConnection(PinnedHTTPConnection):
    default_port = 443

    def connect(self):
        super().connect()
        self.sock = tls_context().wrap_socket(self.sock, server_hostname=self.host)


def pinned_connection(scheme, host, port, address, timeout):
    cls = PinnedHTTPSConnection if scheme == "https" else PinnedHTTPConnection
    return cls(host, port, address, timeout)


class Answer:
    """The final answer of `request()`: `response` with its body unread, and the URL that gave it.
    The caller reads the body (through `sock`, whose timeout it may change) and calls `close()`."""

    def __init__(self, conn, sock, url, key=None):
        self.conn, self.sock, self.url, self.key = conn, sock, url, key
        self.response = None

    def close(self):
        self.conn.close()
        self.sock.close()  # http.client drops conn.sock when the server closes after its answer

    def reusable(self):
        """Whether the body was read to its end and the server keeps the connection open."""
        response = self.response
        if response is None or response.will_close or self.conn.sock is None:
            return False
        if response.length == 0 and not response.chunked:
            response.close()  # read1() does not close a response read to its Content-Length
        return response.isclosed()

    def read_body(self, limit, deadline, read_timeout):
        """Up to `limit` + 1 bytes of the body (one more tells the caller it is over its cap), each
        read waiting at most `read_timeout` and the whole body never past `deadline` (a
        time.monotonic() value): a server trickling a byte now and then is cut at the deadline.
        Raises DeadlinePassed, or OSError / HTTPException as the socket does."""
        chunks, size = [], 0
        while size <= limit:
            wait = _within(deadline, read_timeout)
            self.sock.settimeout(wait)
            try:
                chunk = self.response.read1(min(65536, limit + 1 - size))
            except TimeoutError:
                if wait < read_timeout:  # the wait was what was left of the deadline
                    raise DeadlinePassed() from None
                raise
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)


def request(method, url, *, body=None, headers=None, allowed, max_redirects, deadline, connect_timeout,
            read_timeout, on_socket=None, reuse=None):
    """Send a request and follow its redirects; -> the final Answer.

    Every hop must be http(s); its host is resolved and checked, `allowed(host, port, ip)` admitting
    addresses that are not public, and the connection goes to the address checked. Each hop gets
    `connect_timeout` to connect and `read_timeout` for the answer's head, never past `deadline`
    (a time.monotonic() value). 301, 302 and 303 go on as a GET without a body, 307 and 308 as they
    were; a hop to another origin (scheme, host, port) goes without the Authorization and Cookie
    headers; a redirect without a Location is a final answer. `on_socket(sock)` sees each connected
    socket (to abort it from another thread). `reuse(key)` may give back an open connection to the
    same (scheme, host, port, checked address), kept by the caller from an earlier `Answer.key`; a GET
    sent on one that the server has closed meanwhile is sent once more on a new connection.
    Raises an OutboundError: NotHttp, BadUrl, Unresolvable, NotPublic, HopFailed, DeadlinePassed,
    TooManyRedirects.
    """
    for _hop in range(max_redirects + 1):
        answer = _exchange(method, url, body, headers or {}, allowed, deadline, connect_timeout, read_timeout,
                           on_socket, reuse)
        status, location = answer.response.status, (answer.response.getheader("location") or "").strip()
        if status not in REDIRECTS or not location:
            return answer
        answer.close()
        url, before = urljoin(url, location), url
        if _origin(url) != _origin(before):
            headers = {k: v for k, v in (headers or {}).items() if k.lower() not in _CREDENTIALS}
        if status in (301, 302, 303):
            method, body = "GET", None
    raise TooManyRedirects(url)


_CREDENTIALS = {"authorization", "cookie", "proxy-authorization"}


def _origin(url):
    try:
        parts = urlsplit(url)
        return parts.scheme, (parts.hostname or "").lower(), parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return None


def _exchange(method, url, body, headers, allowed, deadline, connect_timeout, read_timeout, on_socket, reuse=None):
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise BadUrl(url) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise NotHttp(url)
    _family, address = checked_address(parts.hostname, port, lambda host, ip: allowed(host, port, ip))
    key = (parts.scheme, parts.hostname.lower(), port, address)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    kept = reuse(key) if reuse and method == "GET" and body is None else None
    if kept is not None:
        try:
            return _send(kept, url, key, method, target, body, headers, deadline, read_timeout, on_socket)
        except HopFailed as e:
            if not isinstance(e.error, _CLOSED_WHILE_IDLE):
                raise
    conn = pinned_connection(parts.scheme, parts.hostname, port, address, _within(deadline, connect_timeout))
    try:
        conn.connect()
    except OSError as e:
        conn.close()
        raise HopFailed(url, e, connecting=True) from None
    return _send(conn, url, key, method, target, body, headers, deadline, read_timeout, on_socket)


# What sending on a kept connection raises when the server closed it while it was idle.
_CLOSED_WHILE_IDLE = (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError, ConnectionAbortedError)


def _send(conn, url, key, method, target, body, headers, deadline, read_timeout, on_socket):
    answer = Answer(conn, conn.sock, url, key)
    if on_socket:
        on_socket(answer.sock)
    try:
        answer.sock.settimeout(_within(deadline, read_timeout))
        conn.request(method, target, body=body, headers=headers)
        answer.sock.settimeout(_within(deadline, read_timeout))
        answer.response = conn.getresponse()
        return answer
    except (OSError, http.client.HTTPException) as e:
        raise HopFailed(url, e, connecting=False) from None
    finally:
        if answer.response is None:
            answer.close()


def _within(deadline, limit):
    left = deadline - time.monotonic()
    if left <= 0:
        raise DeadlinePassed()
    return min(limit, left)
