"""gunicorn's gthread worker, except that a request thread gets a connection only once the whole
request head (request line and headers) has arrived.

gthread hands every new or kept-alive connection to a thread, which then blocks reading the head:
eight clients sending one header byte every few seconds held all eight threads, and nobody else was
answered (docs/configuration.md, "Slow clients"). Here the worker's main loop, which already waits
on every idle connection with a selector, reads heads too: it buffers what arrives on each
connection until the blank line that ends the head, then gives the buffer to gunicorn's own parser
and the connection to the thread pool. A head must be complete within `head_timeout` seconds of
the connection being accepted (or of the first byte of a kept-alive connection's next request) and
within `max_head` bytes; otherwise the connection gets a 408 or 431 and is closed. The number of
open connections, head-reading ones included, is gunicorn's `worker_connections`.

Everything after the head is gthread's: the request thread parses, reads the body from the socket,
runs the app, and answers; keep-alive, pipelining and graceful stop work as before. TLS, the PROXY
protocol and HTTP/2 cleartext (none of which `serve` turns on) skip the head buffering.

Written against gunicorn 27's gthread (its enqueue_req, finish_request and murder_keepalived).
"""
import selectors
import socket
import time
from functools import partial

from gunicorn import http
from gunicorn.workers.gthread import STOP_KEEPALIVE_LINGER, ThreadWorker

END_OF_HEAD = b"\r\n\r\n"
BARE_LF_END = b"\n\n"  # not a valid end (gunicorn wants CRLF), but the parser's 400 should not wait
TIMEOUT_ANSWER = b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
TOO_LARGE_ANSWER = (b"HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n"
                    b"Content-Length: 0\r\n\r\n")
SWEEP_EVERY = 0.25  # seconds between looks for heads past their deadline


class HeadFirstWorker(ThreadWorker):
    head_timeout = 10.0  # seconds for a whole request head; `serve` sets it from HEADER_TIMEOUT
    max_head = 64 * 1024  # bytes of request line and headers

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.reading_heads = set()
        self._next_sweep = 0.0
        self._stop_capped = False
        cfg = self.cfg
        self.buffer_heads = not (cfg.is_ssl or cfg.proxy_protocol != "off" or cfg.http2_cleartext != "off")

    def enqueue_req(self, conn):
        """gthread calls this for a new connection, a kept-alive one that became readable, and one
        with a pipelined request already read: a thread gets it once its head is buffered."""
        if not self.buffer_heads or getattr(conn, "head_ready", False):
            conn.head_ready = False
            super().enqueue_req(conn)
            return
        conn.head = bytearray(conn.parser.unreader.take_buffered() if conn.parser else b"")
        conn.head_searched = 0
        # A stopping worker gives a head as long as a kept-alive connection, as below.
        conn.head_deadline = time.monotonic() + (self.head_timeout if self.alive else STOP_KEEPALIVE_LINGER)
        if self._head_ends(conn):
            self._hand_over(conn)
            return
        try:
            conn.sock.setblocking(False)
            self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._on_head_readable, conn))
        except (OSError, ValueError, KeyError):  # closed under us: an error here would stop the worker
            self._drop(conn)
            return
        self.reading_heads.add(conn)
        self._on_head_readable(conn)  # a kept-alive connection's next request is usually there already

    def _on_head_readable(self, conn, _fileobj=None):
        try:
            data = conn.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:  # the client went away
            self._drop(conn)
            return
        conn.head += data
        if self._head_ends(conn):
            self.poller.unregister(conn.sock)
            self.reading_heads.discard(conn)
            self._hand_over(conn)
        elif len(conn.head) > self.max_head:
            self._drop(conn, TOO_LARGE_ANSWER)

    def _head_ends(self, conn):
        """Whether the buffer holds a whole head. Searches only the new bytes (and the 3 before them),
        so a head arriving one byte at a time costs no more than one arriving at once."""
        start = max(0, conn.head_searched - 3)
        conn.head_searched = len(conn.head)
        return conn.head.find(END_OF_HEAD, start) >= 0 or conn.head.find(BARE_LF_END, start) >= 0

    def _hand_over(self, conn):
        """Give the buffered head (and any bytes after it) to gunicorn's parser; the connection to a
        thread. The parser reads from the buffer first, and from the socket only for the body."""
        if conn.parser is None:
            conn.parser = http.get_parser(self.cfg, conn.sock, conn.client)
        conn.parser.unreader.unread(bytes(conn.head))
        conn.head = None
        conn.data_ready = True  # gthread's thread would otherwise wait for data again
        conn.head_ready = True
        self.enqueue_req(conn)

    def _drop(self, conn, answer=b""):
        """Close a connection whose head never came, with a short answer if it had begun one."""
        try:
            self.poller.unregister(conn.sock)
        except (KeyError, ValueError, OSError):
            pass
        self.reading_heads.discard(conn)
        self.nr_conns -= 1
        if answer:
            try:
                conn.sock.send(answer)
                conn.sock.shutdown(socket.SHUT_WR)
            except OSError:
                pass
        conn.head = None
        conn.close()

    def murder_keepalived(self, force=False):
        """gthread's loop calls this after every round of events, and when stopping: close
        kept-alive connections past their timeout, and connections whose head is late."""
        super().murder_keepalived(force)
        now = time.monotonic()
        if not force and now < self._next_sweep:
            return
        self._next_sweep = now + SWEEP_EVERY
        if not self.alive and not self._stop_capped:
            # Stopping: a head on its way gets as long as a kept-alive connection (and is then
            # answered with "Connection: close"), not the whole head_timeout.
            self._stop_capped = True
            for conn in self.reading_heads:
                conn.head_deadline = min(conn.head_deadline, now + STOP_KEEPALIVE_LINGER)
        for conn in [c for c in self.reading_heads if force or c.head_deadline <= now]:
            self._drop(conn, TIMEOUT_ANSWER if conn.head else b"")
