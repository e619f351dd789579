"""gunicorn's gthread worker, except that a request thread gets a connection only once the whole
request, head and body, has arrived.

gthread hands each new or kept-alive connection to a thread, which then blocks reading the request:
eight clients sending a byte every few seconds, of a head or of a body, held all eight threads
(docs/configuration.md, "Slow clients"). Here the worker's main loop, which already waits on idle
connections with a selector, buffers each request: its head up to the blank line, then its body as
the head frames it (mangacircus/reqframe.py), Content-Length bytes or chunks up to the last one. It
then gives the buffer to gunicorn's own parser and the connection to the thread pool. The loop
answers itself, and closes the connection, past these limits:
- `request_timeout` s for the whole request, from the connection's accept (or from the first byte
  of a kept-alive connection's next request): 408;
- `max_head` bytes of head: 431; `max_body` bytes of body, declared or chunked: 413, unread;
- `max_buffered` bytes of bodies held at once, in the loop and for the threads: 503.
It answers "Expect: 100-continue" itself too. Open connections are capped by `worker_connections`.

The loop also closes connections without blocking: gthread waited in its loop (up to 2 s each) for
a client to close its side after a "Connection: close" answer, so clients that never did stalled
everyone. Here the loop ends its side, then reads and drops what comes until the client closes too,
LINGER s or LINGER_BYTES.

Everything else is gthread's: keep-alive, pipelining, graceful stop. TLS, the PROXY protocol and
HTTP/2 cleartext (none of which `serve` turns on) skip the buffering. Written against gunicorn 27's
gthread (enqueue_req, finish_request, handle_request, murder_keepalived) and Request._expected_100_continue.
"""
import selectors
import socket
import time
from functools import partial

from gunicorn import http
from gunicorn.workers.gthread import STOP_KEEPALIVE_LINGER, ThreadWorker

from . import reqframe

END_OF_HEAD = b"\r\n\r\n"
BARE_LF_END = b"\n\n"  # not a valid end (gunicorn wants CRLF), but the parser's 400 should not wait
CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"
SWEEP_EVERY = 0.25  # seconds between looks for requests past their deadline
LINGER = 2.0  # seconds a closing connection is read for the client's end (gunicorn's close_graceful)
LINGER_BYTES = 2 * 1024 * 1024  # what the client may still send then: an unread body, mostly


def answer(status, message=None, headers=b""):
    """A short final answer that closes the connection; with a JSON body like the app's errors."""
    body = b'{"error": "%s"}' % message.encode() if message else b""
    kind = b"Content-Type: application/json\r\n" if body else b""
    return b"HTTP/1.1 %s\r\n%s%sConnection: close\r\nContent-Length: %d\r\n\r\n%s" % (
        status.encode(), kind, headers, len(body), body)


TIMEOUT_ANSWER = answer("408 Request Timeout")
HEAD_TOO_LARGE = answer("431 Request Header Fields Too Large")
BODY_TOO_LARGE = answer("413 Content Too Large", "request body is larger than 1 MB")  # the app's words
BUSY_ANSWER = answer("503 Service Unavailable", "the server is busy; try again shortly", b"Retry-After: 5\r\n")


class WholeRequestWorker(ThreadWorker):
    request_timeout = 10.0  # seconds for a whole request; `serve` sets it from HEADER_TIMEOUT
    max_head = 64 * 1024  # bytes of request line and headers
    max_body = 1024 * 1024  # bytes of body; `serve` sets it from mangacircus.http.MAX_BODY
    max_buffered = 64 * 1024 * 1024  # bytes of bodies held at once (1,000 connections × 1 MB is 1 GB)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.reading = set()  # connections whose request is being buffered
        self.lingering = set()  # connections being closed
        self.buffered = 0  # body bytes held for requests not yet answered
        self._next_sweep = 0.0
        self._stop_capped = False
        cfg = self.cfg
        self.buffer_requests = not (cfg.is_ssl or cfg.proxy_protocol != "off" or cfg.http2_cleartext != "off")

    def enqueue_req(self, conn):
        """gthread calls this for a new connection, a kept-alive one that became readable, and one
        with a pipelined request already read: a thread gets it once its request is buffered."""
        if not self.buffer_requests or getattr(conn, "request_ready", False):
            conn.request_ready = False
            super().enqueue_req(conn)
            return
        conn.buf = bytearray(conn.parser.unreader.take_buffered() if conn.parser else b"")
        conn.head_searched, conn.framing, conn.continued, conn.reserved = 0, None, False, 0
        # A stopping worker gives a request as long as a kept-alive connection, as below.
        conn.deadline = time.monotonic() + (self.request_timeout if self.alive else STOP_KEEPALIVE_LINGER)
        if self._advance(conn):
            return
        try:
            conn.sock.setblocking(False)
            self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._on_readable, conn))
        except (OSError, ValueError, KeyError):  # closed under us: an error here would stop the worker
            self._close_now(conn)
            return
        self.reading.add(conn)
        self._on_readable(conn)  # a kept-alive connection's next request is usually there already

    @staticmethod
    def _recv(conn):
        """What the client sent, b"" when it went away, None when nothing is there after all."""
        try:
            return conn.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return None
        except OSError:
            return b""

    def _on_readable(self, conn, _fileobj=None):
        data = self._recv(conn)
        if data is None:
            return
        if not data:  # the client went away
            self._close_now(conn)
            return
        conn.buf += data
        self._advance(conn)

    def _advance(self, conn):
        """Look at what has arrived: hand the request over once it is whole, or answer and close.
        Whether the connection has left the loop's reading."""
        if conn.framing is None and not self._read_head(conn):
            return conn.buf is None
        kind = conn.framing.kind
        if kind not in ("length", "chunked"):
            self._hand_over(conn)
            return True
        if not self._reserve(conn, len(conn.buf) - conn.body_start - conn.reserved):
            return True
        if kind == "length":
            done = len(conn.buf) >= conn.body_start + conn.framing.length
        else:
            end = conn.chunks.end(conn.buf)
            # Framing bytes count too: more than twice max_body of them (tiny chunks, long
            # extensions) is refused like a large body. A BAD body is handed over: the parser's 400.
            if end == reqframe.TOO_LARGE or len(conn.buf) - conn.body_start > 2 * self.max_body:
                self._close(conn, BODY_TOO_LARGE)
                return True
            done = end is not None
        if done:
            self._hand_over(conn)
        return done

    def _read_head(self, conn):
        """Whether the head is in (False too when it was refused: then conn.buf is None). Once it is in,
        its framing, and "100 Continue" if the client waits for it."""
        start = max(0, conn.head_searched - 3)  # only the new bytes (and the 3 before them) are searched
        conn.head_searched = len(conn.buf)
        crlf, bare_lf = conn.buf.find(END_OF_HEAD, start), conn.buf.find(BARE_LF_END, start)
        if crlf < 0 and bare_lf < 0:
            if len(conn.buf) > self.max_head:
                self._close(conn, HEAD_TOO_LARGE)
            return False
        end = min(i for i in (crlf, bare_lf) if i >= 0)
        if end > self.max_head:
            self._close(conn, HEAD_TOO_LARGE)
            return False
        if end != crlf:
            conn.framing = reqframe.ODD
            return True
        conn.body_start = end + len(END_OF_HEAD)
        framing = conn.framing = reqframe.framing(bytes(conn.buf[:conn.body_start]))
        if framing.kind == "length" and framing.length > self.max_body:
            self._close(conn, BODY_TOO_LARGE)  # at once: not a byte of it is read
            return False
        if framing.kind == "chunked":
            conn.chunks = reqframe.ChunkScan(conn.body_start, self.max_body)
        if framing.expect_continue and len(conn.buf) == conn.body_start:
            try:
                conn.sock.send(CONTINUE)  # a few bytes into an empty send buffer
                conn.continued = True
            except OSError:
                pass  # the client sends its body after its own wait
        return True

    def _reserve(self, conn, size):
        """Count `size` more body bytes as held for this request, or answer 503 if there is no room."""
        if self.buffered + size > self.max_buffered:
            self._close(conn, BUSY_ANSWER)
            return False
        self.buffered += size
        conn.reserved += size
        return True

    def _release(self, conn):
        self.buffered -= getattr(conn, "reserved", 0)
        conn.reserved = 0

    def _stop_reading(self, conn):
        if conn in self.reading:
            self.reading.discard(conn)
            try:
                self.poller.unregister(conn.sock)
            except (KeyError, ValueError, OSError):
                pass

    def _hand_over(self, conn):
        """Give the buffered request (and any bytes after it) to gunicorn's parser, and the connection
        to a thread. The parser reads from the buffer first; the socket only for a pipelined request."""
        self._stop_reading(conn)
        if conn.parser is None:
            conn.parser = http.get_parser(self.cfg, conn.sock, conn.client)
        conn.parser.unreader.unread(bytes(conn.buf))
        conn.buf = None
        conn.data_ready = True  # gthread's thread would otherwise wait for data again
        conn.request_ready = True
        self.enqueue_req(conn)

    def handle_request(self, req, conn):
        """In a thread: gunicorn answers "100 Continue" when it starts a request with that
        expectation; the loop already has, and the body is here."""
        if getattr(conn, "continued", False):
            req._expected_100_continue = False
        return super().handle_request(req, conn)

    def finish_request(self, conn, fs):
        """In the loop, after a thread: a connection to close is closed by the loop (see _close)."""
        self._release(conn)
        if self.buffer_requests and not fs.cancelled() and fs.exception() is None and not fs.result():
            self._close(conn)
            return
        super().finish_request(conn, fs)

    def _close(self, conn, reply=b""):
        """Close a connection from the loop: send `reply`, end our side, and read and drop what the
        client still sends until it closes (or LINGER s, LINGER_BYTES). A close with unread bytes
        would reset the connection, and the client could lose the answer."""
        self._stop_reading(conn)
        self._release(conn)
        conn.buf = None
        try:
            conn.sock.setblocking(False)
            if reply:
                conn.sock.send(reply)
            conn.sock.shutdown(socket.SHUT_WR)
            self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._on_lingering_readable, conn))
        except (OSError, ValueError, KeyError):
            self._close_now(conn)
            return
        conn.deadline, conn.linger_left = time.monotonic() + LINGER, LINGER_BYTES
        self.lingering.add(conn)

    def _on_lingering_readable(self, conn, _fileobj=None):
        data = self._recv(conn)
        if data is None:
            return
        conn.linger_left -= len(data)
        if not data or conn.linger_left <= 0:
            self._close_now(conn)

    def _close_now(self, conn):
        self._stop_reading(conn)
        self._release(conn)
        if conn in self.lingering:
            self.lingering.discard(conn)
            try:
                self.poller.unregister(conn.sock)
            except (KeyError, ValueError, OSError):
                pass
        conn.buf = None
        self.nr_conns -= 1
        conn.close()

    def murder_keepalived(self, force=False):
        """gthread's loop calls this after every round of events, and when stopping: close
        kept-alive connections past their timeout, and connections whose request is late."""
        super().murder_keepalived(force)
        now = time.monotonic()
        if not force and now < self._next_sweep:
            return
        self._next_sweep = now + SWEEP_EVERY
        if not self.alive and not self._stop_capped:
            # Stopping: a request on its way gets as long as a kept-alive connection (and is then
            # answered with "Connection: close"), not the whole request_timeout.
            self._stop_capped = True
            for conn in self.reading:
                conn.deadline = min(conn.deadline, now + STOP_KEEPALIVE_LINGER)
        for conn in [c for c in self.lingering if force or c.deadline <= now]:
            self._close_now(conn)
        for conn in [c for c in self.reading if force or c.deadline <= now]:
            if force or not conn.buf:  # a connection that never sent a byte is closed without a word
                self._close_now(conn)
            else:
                self._close(conn, TIMEOUT_ANSWER)
