"""The HTTP client the daemon hands to sources: the only way a source reaches the network.

One request at a time across all sources. Per request:
1. Wait for the source's pace (measured from the end of its previous request) and any Retry-After.
2. Check the URL (http/https only), resolve the host, refuse loopback, private, link-local and other
   non-global addresses unless the source names that host in `private_hosts`, and connect to the
   address that was checked (so DNS cannot swap it afterwards): mangacircus/netguard.py.
3. Send with a descriptive User-Agent; follow at most 5 redirects, each hop checked again.
4. Read the body with a connect timeout, a read-idle timeout and a total deadline; refuse a body
   whose Content-Length is over the cap before reading it, and stop reading at the cap.
5. 5xx, timeouts and cut bodies are retried with full-jitter backoff. 429/503 with Retry-After
   block the source until then; past 15 minutes the job is parked instead (errors.Parked).
6. A source with `keep_alive` (a peer) sends its next GET on the same connection when it comes within
   KEEP_ALIVE_SECONDS to the same host, port and checked address; every other request has its own.
"""
import contextlib
import email.utils
import http.client
import random
import socket
import threading
import time
import zlib
from urllib.parse import urlencode

import orjson

from mangacircus import netguard

from .errors import Interrupted, NotFound, Parked, Refused, Stalled, Transient

USER_AGENT = "MangaCircus/0.1 (self-hosted manga reader; scraper daemon; one request at a time)"
MAX_REDIRECTS = 5
RETRY_AFTER_CAP = 15 * 60
KEEP_ALIVE_SECONDS = 1.0  # an idle connection is reused this long (gunicorn closes one after 2 s)
BACKOFF_CAP = 60
MAX_RATE_WAITS = 10
_BLOCKED_HEADERS = {"host", "user-agent", "via", "content-length", "connection", "transfer-encoding",
                    "accept-encoding", "te", "upgrade", "proxy-authorization"}


class Response:
    def __init__(self, status, headers, body, url):
        self.status, self.headers, self.body, self.url = status, headers, body, url

    def json(self):
        try:
            return orjson.loads(self.body)
        except orjson.JSONDecodeError:
            raise Transient(f"{self.url} did not answer JSON") from None


class Limits:
    def __init__(self, connect_timeout=10, read_timeout=30, deadline=120, max_bytes=50 << 20,
                 retries=4, retry_base=2.0):
        self.connect_timeout, self.read_timeout, self.deadline = connect_timeout, read_timeout, deadline
        self.max_bytes, self.retries, self.retry_base = max_bytes, retries, retry_base


class HttpClient:
    """Shared by all sources of one daemon: the single in-flight request, pacing and aborts."""

    def __init__(self, limits, progress, interrupt, pace_for, blocks=None, on_block=None):
        self.limits = limits
        self.progress = progress
        self.interrupt = interrupt          # set on stop, pause or cancel: waits end at once
        self.pace_for = pace_for            # source -> seconds between its requests
        self._one = threading.Lock()
        self._next_at = {}                  # source key -> monotonic time of its next allowed request
        self._blocked_until = dict(blocks or {})  # source key -> wall ms, from Retry-After (kept in queue.json)
        self.on_block = on_block or (lambda key, until: None)  # told of each new block, to keep it
        self._sock = None                   # the worker's socket in flight, for abort()
        self._idle = None                   # (key, connection, monotonic time) kept open after an answer
        self.worker = None                  # thread ident of the queue worker

    def for_source(self, source, options=None):
        return SourceHttp(self, source, options)

    def lanes(self):
        now = time.monotonic()
        return {key: {"nextInMs": max(0, int((at - now) * 1000)), "blockedUntil": self._blocked_until.get(key)}
                for key, at in self._next_at.items()}

    def close(self):
        """Close the connection kept open, if any (not while a request that may use it is in flight)."""
        if self._one.acquire(timeout=5):
            try:
                self._drop_idle()
            finally:
                self._one.release()

    def _drop_idle(self):
        if self._idle is not None:
            self._idle[1].close()
            self._idle = None

    def _reuse(self, key):
        """The connection kept from the last request when it goes to the same place (under `_one`)."""
        idle, self._idle = self._idle, None
        if idle is None:
            return None
        if idle[0] == key and time.monotonic() - idle[2] < KEEP_ALIVE_SECONDS:
            return idle[1]
        idle[1].close()
        return None

    def abort(self):
        """Called by the watchdog: close the socket of the request in flight, if any."""
        sock = self._sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    # Waiting: never a stall, always interruptible by stop/pause.

    def _is_worker(self):
        return threading.get_ident() == self.worker

    def _waiting(self, reason, until=None):
        """Waits of the worker are not stalls; API threads (search) have no stall clock."""
        return self.progress.waiting(reason, until) if self._is_worker() else contextlib.nullcontext()

    def _stalled(self):
        return self._is_worker() and self.progress.stalled

    def _sleep(self, seconds, reason):
        if seconds <= 0:
            return
        if not self._is_worker():
            time.sleep(seconds)
            return
        with self.progress.waiting(reason, int((time.time() + seconds) * 1000)):
            if self.interrupt.wait(seconds):
                raise Interrupted("stopping or pausing")

    def _ready_at(self, source, bucket):
        """Monotonic time of the source's next request, and of its bucket's (an endpoint with its own limit)."""
        at = self._next_at.get(source.key, 0)
        return max(at, self._next_at.get((source.key, bucket[0]), 0)) if bucket else at

    def _acquire(self, source, bucket=None):
        """Wait (without the lock) for the source's turn, then take the single-request lock."""
        while True:
            wait = self._ready_at(source, bucket) - time.monotonic()
            blocked = (self._blocked_until.get(source.key, 0) - time.time() * 1000) / 1000
            if blocked > RETRY_AFTER_CAP:
                raise Parked(f"{source.name} asked to wait until later (Retry-After)", self._blocked_until[source.key])
            if blocked > 0 and blocked >= wait:
                self._sleep(blocked, f"Retry-After from {source.name}")
            else:
                self._sleep(wait, f"pacing for {source.name}")
            with self._waiting("another request"):
                self._one.acquire()
            if (self._ready_at(source, bucket) <= time.monotonic()
                    and self._blocked_until.get(source.key, 0) <= time.time() * 1000):
                return
            self._one.release()

    def request(self, source, url, headers=None, max_bytes=None, method="GET", body=None, record=None,
                retries=None, deadline=None, answer=(), redirects=MAX_REDIRECTS):
        """A request with every rule above; -> Response with a 2xx status, else a ScraperError.

        `record` (a list) gets one entry per attempt: url, status (None when none came), bytes, ms,
        cached (X-Cache says HIT), for sources that report on their image servers. `retries` and
        `deadline` may only tighten the limits (a fire-and-forget report). `answer`: 4xx statuses the
        caller reads itself (an OAuth error body) instead of an error raised. `redirects`: how many
        to follow (0 for a request that carries credentials in its body).
        """
        max_bytes = max_bytes or self.limits.max_bytes
        retries = self.limits.retries if retries is None else min(retries, self.limits.retries)
        bucket = source.bucket(url) if hasattr(source, "bucket") else None
        failures = rate_waits = 0
        while True:
            self._acquire(source, bucket)
            response = error = None
            started = time.monotonic()
            try:
                if self._stalled():
                    raise Stalled("no progress")
                response = self._fetch(source, url, headers or {}, max_bytes, method, body, deadline, redirects)
            except Transient as e:
                error = e
            finally:
                ended = time.monotonic()
                self._next_at[source.key] = ended + self.pace_for(source)
                if bucket:
                    self._next_at[(source.key, bucket[0])] = ended + bucket[1]
                self._one.release()
            if record is not None:
                cached = bool(response and response.headers.get("x-cache", "").upper().startswith("HIT"))
                record.append({"url": url, "status": response and response.status, "cached": cached,
                               "bytes": len(response.body) if response else 0, "ms": int((ended - started) * 1000)})
            if self._stalled():
                raise Stalled(f"aborted by the watchdog while fetching {_short(url)}")
            if response is not None:
                if 200 <= response.status < 300 or response.status in answer:
                    return response
                retry_in = self._retry_after(response)
                if response.status in (429, 503) and retry_in is not None:
                    rate_waits += 1
                    until = int((time.time() + retry_in) * 1000)
                    self._blocked_until[source.key] = until
                    self.on_block(source.key, until)
                    if retry_in > RETRY_AFTER_CAP or rate_waits > MAX_RATE_WAITS:
                        raise Parked(f"{source.name} asks to wait {int(retry_in)} s (Retry-After)", until)
                    continue
                if response.status in (404, 410):
                    raise NotFound(f"{_short(url)}: HTTP {response.status}")
                if response.status < 500 and response.status not in (408, 429):
                    raise Refused(f"{_short(url)}: HTTP {response.status}")
                error = Transient(f"{_short(url)}: HTTP {response.status}")
            failures += 1
            if failures > retries:
                raise Transient(f"{error.message} (after {failures} tries)")
            # Full jitter: a random wait between 0 and base * 2^n, capped.
            self._sleep(random.uniform(0, min(BACKOFF_CAP, self.limits.retry_base * 2 ** (failures - 1))),
                        "backing off after an error")

    @staticmethod
    def _retry_after(response):
        """Seconds to wait: Retry-After (seconds or an HTTP date) or X-RateLimit-Retry-After (a UNIX
        time, MangaDex's style); None when absent, malformed, negative or past (then: backoff)."""
        epoch = (response.headers.get("x-ratelimit-retry-after") or "").strip()
        if epoch.isdigit():
            seconds = int(epoch) - time.time()
            return seconds if seconds > 0 else None
        value = response.headers.get("retry-after")
        if not value:
            return None
        value = value.strip()
        if value.isdigit():
            return float(value)
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if when is None or when.tzinfo is None:
            return None
        seconds = when.timestamp() - time.time()
        return seconds if seconds > 0 else None

    def _fetch(self, source, url, headers, max_bytes, method="GET", body=None, seconds=None, redirects=MAX_REDIRECTS):
        """One request and its redirects (mangacircus/netguard.py), within one total deadline."""
        deadline = time.monotonic() + min(seconds or self.limits.deadline, self.limits.deadline)
        answer = read = None
        keep_alive = getattr(source, "keep_alive", False)
        if not keep_alive:
            self._drop_idle()
        try:
            answer = netguard.request(
                method, url, body=body, headers=_headers(headers), allowed=_private_hosts(source),
                max_redirects=redirects,
                deadline=deadline, connect_timeout=self.limits.connect_timeout,
                read_timeout=self.limits.read_timeout, on_socket=self._track,
                reuse=self._reuse if keep_alive else None)
            resp, url = answer.response, answer.url
            if resp.status in netguard.REDIRECTS:
                raise Refused(f"{_short(url)}: redirect without a Location")
            body = self._read(answer.sock, resp, url, max_bytes, deadline)
            read = Response(resp.status, {k.lower(): v for k, v in resp.getheaders()}, body, url)
            return read
        except netguard.OutboundError as e:
            raise self._outbound_error(e, deadline, redirects) from None
        except (OSError, http.client.HTTPException) as e:  # reading the body
            raise self._network_error(url, e, False, deadline) from None
        finally:
            if self._is_worker():
                self._sock = None
            if answer is not None:
                if keep_alive and read is not None and answer.reusable() and not self._stalled():
                    self._drop_idle()
                    self._idle = (answer.key, answer.conn, time.monotonic())
                else:
                    answer.close()

    def _track(self, sock):
        """Keep the worker's socket in flight for abort()."""
        if self._is_worker():
            self._sock = sock

    def _outbound_error(self, e, deadline, redirects=MAX_REDIRECTS):
        if isinstance(e, netguard.HopFailed):
            return self._network_error(e.url, e.error, e.connecting, deadline)
        if isinstance(e, netguard.NotHttp):
            return Refused(f"only http and https URLs are fetched, not {_short(e.url)}")
        if isinstance(e, netguard.BadUrl):
            return Refused(f"{_short(e.url)}: bad port or address")
        if isinstance(e, netguard.Unresolvable):
            return Transient(f"cannot resolve {e.host}: {getattr(e.error, 'strerror', None) or e.error}")
        if isinstance(e, netguard.NotPublic):
            return Refused(f"refusing {e.host} ({e.ip}): a loopback, private or link-local address")
        if isinstance(e, netguard.DeadlinePassed):
            return Transient(f"the page deadline ({self.limits.deadline:g} s) passed")
        if not redirects:
            return Refused(f"a redirect to {_short(e.url)}: not followed for this request")
        return Refused(f"{_short(e.url)}: more than {redirects} redirects")

    def _network_error(self, url, error, connecting, deadline):
        if isinstance(error, TimeoutError):
            if connecting:
                return Transient(f"{_short(url)}: connect timed out")
            if time.monotonic() >= deadline:
                return Transient(f"{_short(url)}: the page deadline ({self.limits.deadline:g} s) passed")
            return Transient(f"{_short(url)}: timed out (no data for {self.limits.read_timeout:g} s)")
        if connecting:
            return Transient(f"{_short(url)}: cannot connect ({getattr(error, 'strerror', None) or error})")
        return Transient(f"{_short(url)}: {error.__class__.__name__} {error}".strip())

    def _timeout(self, deadline):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise Transient(f"the page deadline ({self.limits.deadline:g} s) passed")
        return min(self.limits.read_timeout, remaining)

    def _read(self, sock, resp, url, max_bytes, deadline):
        declared = resp.getheader("content-length")
        if declared and declared.strip().isdigit() and int(declared) > max_bytes:
            raise Refused(f"{_short(url)}: {int(declared) >> 20} MiB declared, over the {max_bytes >> 20} MiB cap")
        chunks, size = [], 0
        while True:
            sock.settimeout(self._timeout(deadline))
            chunk = resp.read1(65536)
            if not chunk:
                break
            size += len(chunk)
            if size > max_bytes:
                raise Refused(f"{_short(url)}: body over the {max_bytes >> 20} MiB cap")
            chunks.append(chunk)
        if resp.length:  # Content-Length promised more than arrived
            raise Transient(f"{_short(url)}: body cut short ({size} of {declared} bytes)")
        return _decode(b"".join(chunks), resp.getheader("content-encoding"), max_bytes, url)


class SourceHttp:
    """What a source gets as `http`: the shared client bound to that source's pacing and hosts."""

    def __init__(self, client, source, options=None):
        self._client, self._source = client, source
        self.options = dict(options or {})  # the admin's switches for this source (Source.options)

    def get(self, url, headers=None, max_bytes=None, answer=()):
        return self._client.request(self._source, url, headers, max_bytes, answer=answer)

    def post_form(self, url, fields, answer=()):
        """POST form fields (an OAuth token request: a password or a secret in the body, so a redirect
        is never followed); `answer` as in HttpClient.request."""
        return self._client.request(self._source, url, {"Content-Type": "application/x-www-form-urlencoded",
                                                        "Accept": "application/json"}, None, "POST",
                                    urlencode(fields).encode(), answer=answer, redirects=0)

    def get_json(self, url, headers=None):
        return self.get(url, {"Accept": "application/json", **(headers or {})}).json()

    def post_json(self, url, payload, retries=None, deadline=None):
        """POST a JSON body (a report to the source); same pacing, one request in flight."""
        return self._client.request(self._source, url, {"Content-Type": "application/json"}, None, "POST",
                                    orjson.dumps(payload), retries=retries, deadline=deadline)

    def fetch_page(self, page, record=None):
        response = self._client.request(self._source, page.url, page.headers, record=record)
        content_type = response.headers.get("content-type", "").split(";")[0].strip().lower()
        return response.body, content_type


def _private_hosts(source):
    """The netguard predicate: a source reaches a non-public address only when it names that host."""
    return source.allows


def _headers(extra):
    headers = {k: v for k, v in extra.items() if k.lower() not in _BLOCKED_HEADERS}
    headers.update({"User-Agent": USER_AGENT, "Accept-Encoding": "gzip, identity"})
    headers.setdefault("Accept", "*/*")
    return headers


def _decode(body, encoding, max_bytes, url):
    encoding = (encoding or "identity").strip().lower()
    if encoding == "identity":
        return body
    if encoding not in ("gzip", "deflate"):
        raise Refused(f"{_short(url)}: unsupported Content-Encoding {encoding}")
    inflater = zlib.decompressobj(zlib.MAX_WBITS | 32)  # gzip or zlib header
    try:
        data = inflater.decompress(body, max_bytes + 1)
    except zlib.error:
        raise Transient(f"{_short(url)}: broken {encoding} body") from None
    if len(data) > max_bytes:
        raise Refused(f"{_short(url)}: body over the {max_bytes >> 20} MiB cap once decompressed")
    return data


def _short(url):
    return url if len(url) <= 120 else url[:117] + "..."
