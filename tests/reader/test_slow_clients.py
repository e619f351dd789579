"""Slow clients against a real `manage.py serve`: a request head or body that trickles in must not hold
one of the request threads (docs/configuration.md, "Slow clients"). Everything stays on 127.0.0.1."""
import contextlib
import http.client
import json
import select
import shutil
import socket
import subprocess
import threading
import time

import pytest

from bench.server import Server
from mangacircus.http import MAX_BODY

HEAD_START = b"GET /api/auth HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


def _slow_connections(port, count):
    """`count` connections that have sent the first line and a half of a request head."""
    socks = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(HEAD_START)
        socks.append(s)
    return socks


def _trickle(socks, stop, every=0.5, piece=b"a"):
    """One more `piece` on each connection every `every` seconds, until `stop` is set; how many."""
    rounds = 0
    while not stop.wait(every):
        rounds += 1
        for s in socks:
            with contextlib.suppress(OSError):  # the server closed it (a deadline): expected
                s.sendall(piece)
    return rounds


class Trickling:
    """`_trickle` in a thread for a `with` block; `rounds` is how many pieces each connection got."""

    def __init__(self, socks, every=0.5, piece=b"a"):
        self.stop = threading.Event()
        self.rounds = 0
        self.thread = threading.Thread(target=self._run, args=(socks, every, piece), daemon=True)

    def _run(self, socks, every, piece):
        self.rounds = _trickle(socks, self.stop, every, piece)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


def _get(port, path, timeout):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def test_it_answers_while_more_slow_clients_than_threads_trickle_their_headers(real_server):
    socks = _slow_connections(real_server.port, 3 * real_server.threads)
    stop = threading.Event()
    trickler = threading.Thread(target=_trickle, args=(socks, stop), daemon=True)
    trickler.start()
    try:
        time.sleep(1)  # every slow connection accepted and a byte or two further on
        for _ in range(3):
            started = time.monotonic()
            try:
                status = _get(real_server.port, "/api/auth", timeout=4)
            except TimeoutError:
                pytest.fail(f"no answer in 4 s with {len(socks)} slow connections open")
            assert status == 200
            assert time.monotonic() - started < 2
        # The slow ones are still open (not dropped to make room), and are answered once they finish.
        socks[0].sendall(b"\r\n\r\n")
        socks[0].settimeout(4)
        assert socks[0].recv(64).startswith(b"HTTP/1.1 200 ")
    finally:
        stop.set()
        trickler.join()
        for s in socks:
            s.close()


def _closed_after(sock, limit):
    """Seconds until the server closes `sock` (reading whatever it says first), or None."""
    sock.settimeout(0.2)
    started = time.monotonic()
    said = b""
    while time.monotonic() - started < limit:
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            continue
        except ConnectionResetError:
            return time.monotonic() - started, said
        if not chunk:
            return time.monotonic() - started, said
        said += chunk
    return None, said


@pytest.mark.process
def test_it_closes_a_head_that_takes_longer_than_header_timeout(data_dir, library_dir):
    srv = Server(data_dir, library_dir, env={"HEADER_TIMEOUT": "1"}).start()
    try:
        slow, idle = _slow_connections(srv.port, 1)[0], socket.create_connection(("127.0.0.1", srv.port))
        stop = threading.Event()
        trickler = threading.Thread(target=_trickle, args=([slow], stop, 0.2), daemon=True)
        trickler.start()
        try:
            closed, said = _closed_after(slow, 5)
        finally:
            stop.set()
            trickler.join()
        assert closed is not None and closed < 3, "a trickling head outlived HEADER_TIMEOUT=1"
        assert said.startswith(b"HTTP/1.1 408 ")
        closed, said = _closed_after(idle, 5)  # a connection that never sent a byte: closed, no answer
        assert closed is not None and said == b""
        slow.close()
        idle.close()
    finally:
        srv.stop()


def _answers(sock, count, timeout=5):
    """The status lines of the next `count` responses on `sock` (small JSON ones, chunked)."""
    sock.settimeout(timeout)
    received = b""
    while received.count(b"\r\n0\r\n\r\n") < count:
        chunk = sock.recv(65536)
        if not chunk:
            break
        received += chunk
    return [part.split(b"\r\n", 1)[0] for part in received.split(b"HTTP/1.1 ")[1:]]


def test_it_keeps_alive_and_serves_heads_in_pieces_and_pipelined(real_server):
    request = b"GET /api/auth HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with socket.create_connection(("127.0.0.1", real_server.port)) as s:
        for piece in (request[:7], request[7:30], request[30:]):
            s.sendall(piece)
            time.sleep(0.05)
        assert _answers(s, 1) == [b"200 OK"]
        s.sendall(request + request + request[:10])  # two and a bit, then the rest of the third
        assert _answers(s, 2) == [b"200 OK", b"200 OK"]
        s.sendall(request[10:])
        assert _answers(s, 1) == [b"200 OK"]
        body = b'{"name": "nobody", "password": "wrong"}'
        s.sendall(b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Content-Length: %d\r\n\r\n%s" % (len(body), body[:5]))
        time.sleep(0.1)
        s.sendall(body[5:] + request)
        assert _answers(s, 2) == [b"401 Unauthorized", b"200 OK"]


def test_it_answers_431_to_a_head_over_64_kib(real_server):
    with socket.create_connection(("127.0.0.1", real_server.port)) as s:
        s.sendall(b"GET /api/auth HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 70_000)
        s.settimeout(5)
        assert s.recv(64).startswith(b"HTTP/1.1 431 ")



# Slow bodies. Each is a JSON object without a "name", so /api/login answers 400 "name is required"
# at once: no password hashing, no rate limit.
LOGIN = b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
BODY_START = b'{"pad": "'
NO_NAME = (400, {"error": "name is required"})
TOO_LARGE = (413, {"error": "request body is larger than 1 MB"})
BUSY = (503, {"error": "the server is busy; try again shortly"})


class Reader:
    """Responses read one at a time from a socket, those pipelined after them kept for the next."""

    def __init__(self, sock, timeout=5):
        self.sock, self.buf = sock, b""
        sock.settimeout(timeout)

    def _until(self, marker):
        while marker not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError(f"closed after {self.buf[:200]!r}")
            self.buf += chunk
        part, _, self.buf = self.buf.partition(marker)
        return part

    def _take(self, size):
        while len(self.buf) < size:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError(f"closed after {self.buf[:200]!r}")
            self.buf += chunk
        part, self.buf = self.buf[:size], self.buf[size:]
        return part

    def response(self):
        """(status, body: JSON decoded, or bytes if not JSON); a "100 Continue" is a response too."""
        status, *lines = self._until(b"\r\n\r\n").split(b"\r\n")
        headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(b":") for line in lines)}
        if headers.get(b"transfer-encoding") == b"chunked":
            body = b""
            while size := int(self._until(b"\r\n").split(b";")[0], 16):
                body += self._take(size + 2)[:-2]
            self._until(b"\r\n")  # no trailers
        else:
            body = self._take(int(headers.get(b"content-length", 0)))
        return int(status.split()[1]), json.loads(body) if b"json" in headers.get(b"content-type", b"") else body


def _responses(socks):
    return [Reader(s).response() for s in socks]


def _assert_answered_quickly(port, what):
    for _ in range(3):
        started = time.monotonic()
        try:
            status = _get(port, "/api/auth", timeout=4)
        except TimeoutError:
            pytest.fail(f"no answer in 4 s with {what} open")
        assert status == 200
        assert time.monotonic() - started < 2, f"{time.monotonic() - started:.1f} s with {what} open"


def _connect(port, data):
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(data)
    return s


def test_it_answers_while_more_slow_bodies_than_threads_trickle_in(real_server):
    """A whole head at once, then its body a byte at a time: the loop buffers the body, so no request
    thread waits for it (8 of these froze the server when the thread read bodies)."""
    length = 100
    socks = [_connect(real_server.port, LOGIN + b"Content-Length: %d\r\n\r\n" % length + BODY_START)
             for _ in range(3 * real_server.threads)]
    try:
        with Trickling(socks, 0.5) as trickling:
            time.sleep(1)
            _assert_answered_quickly(real_server.port, f"{len(socks)} slow bodies")
        rest = length - len(BODY_START) - trickling.rounds
        for s in socks:  # each body finished (and the server's answer then read from each)
            s.sendall(b"a" * (rest - 2) + b'"}')
        assert _responses(socks) == [NO_NAME] * len(socks)
    finally:
        for s in socks:
            s.close()


@pytest.mark.process
def test_it_answers_408_to_a_body_that_takes_longer_than_header_timeout(data_dir, library_dir):
    srv = Server(data_dir, library_dir, env={"HEADER_TIMEOUT": "1"}).start()
    try:
        with _connect(srv.port, LOGIN + b"Content-Length: 100\r\n\r\n" + BODY_START) as slow:
            with Trickling([slow], 0.2):
                closed, said = _closed_after(slow, 5)
        assert closed is not None and closed < 3, "a trickling body outlived HEADER_TIMEOUT=1"
        assert said.startswith(b"HTTP/1.1 408 ")
        # A body that comes in time is answered, however slowly its head came.
        with _connect(srv.port, LOGIN) as s:
            time.sleep(0.4)
            s.sendall(b"Content-Length: %d\r\n\r\n%s" % (len(BODY_START) + 3, BODY_START))
            time.sleep(0.4)
            s.sendall(b'a"}')
            assert Reader(s).response() == NO_NAME
    finally:
        srv.stop()


def test_it_buffers_chunked_bodies_trickled_in_and_answers_them_once_complete(real_server):
    head = LOGIN + b"Transfer-Encoding: chunked\r\n\r\n"
    start = b"%x\r\n%s\r\n" % (len(BODY_START), BODY_START)
    socks = [_connect(real_server.port, head + start) for _ in range(3 * real_server.threads)]
    try:
        with Trickling(socks, 0.5, b"1\r\na\r\n"):  # a chunk of one byte each time
            time.sleep(1)
            _assert_answered_quickly(real_server.port, f"{len(socks)} slow chunked bodies")
        # The end in pieces: the last chunk's size line split, then the trailers' blank line alone.
        for piece in (b'2\r\n"}\r\n', b"0", b"\r\n", b"\r\n"):
            for s in socks:
                s.sendall(piece)
            time.sleep(0.1)
        assert _responses(socks) == [NO_NAME] * len(socks)
        # Then a chunked body with a trailer, whole and pipelined with a GET, on the same connection.
        socks[0].sendall(head + start + b'2\r\n"}\r\n0\r\nX-Trailer: 1\r\n\r\n'
                         b"GET /api/auth HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        reader = Reader(socks[0])
        assert reader.response() == NO_NAME
        assert reader.response()[0] == 200
    finally:
        for s in socks:
            s.close()


def test_it_answers_chunked_bodies_over_1_mb_with_413_and_bad_chunks_with_400(real_server):
    with _connect(real_server.port, LOGIN + b"Transfer-Encoding: chunked\r\n\r\n100001\r\n") as s:
        assert Reader(s).response() == TOO_LARGE  # from the chunk's size alone
    with _connect(real_server.port, LOGIN + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n") as s:
        assert Reader(s).response()[0] == 400


EXPECT = b"Expect: 100-continue\r\n"


def test_it_answers_100_continue_itself_and_then_buffers_the_body(real_server):
    """A client that waits for "100 Continue" gets it from the loop, not from a thread that would then
    wait for the body: more of them than threads, each told to go on, then trickling."""
    length = 100
    socks = [_connect(real_server.port, LOGIN + EXPECT + b"Content-Length: %d\r\n\r\n" % length)
             for _ in range(3 * real_server.threads)]
    try:
        for s in socks:
            s.settimeout(2)
            assert s.recv(64) == b"HTTP/1.1 100 Continue\r\n\r\n"
            s.sendall(BODY_START)
        with Trickling(socks, 0.5) as trickling:
            time.sleep(1)
            _assert_answered_quickly(real_server.port, f"{len(socks)} slow bodies after 100 Continue")
        for s in socks:
            s.sendall(b"a" * (length - len(BODY_START) - trickling.rounds - 2) + b'"}')
        # The final answer only: no second "100 Continue" from gunicorn in the thread.
        assert _responses(socks) == [NO_NAME] * len(socks)
    finally:
        for s in socks:
            s.close()


def test_curl_posts_a_body_with_expect_100_continue(real_server):
    """curl waits (here up to 20 s) for "100 Continue" when it sends "Expect: 100-continue". Of its own it
    sends that for bodies over 1 MB (7.88; over 1 KB in older ones), so it is asked to here."""
    body = b'{"pad": "' + b"a" * 4000 + b'"}'
    started = time.monotonic()
    run = subprocess.run(
        [shutil.which("curl") or "curl", "-sS", "-v", "--expect100-timeout", "20", "--max-time", "30",
         "-H", "Content-Type: application/json", "-H", "Expect: 100-continue", "--data-binary", "@-",
         f"{real_server.url}/api/login"],
        input=body, capture_output=True, timeout=40)
    assert run.returncode == 0, run.stderr.decode()[-2000:]
    assert b"Expect: 100-continue" in run.stderr and b"HTTP/1.1 100 Continue" in run.stderr
    assert json.loads(run.stdout) == {"error": "name is required"}
    assert time.monotonic() - started < 5, "curl waited for its 100 Continue"


def test_it_refuses_a_declared_2_gb_body_without_reading_it(real_server):
    """413 from the head alone, before any of the body; the connection is then closed without a
    request thread reading (or draining) the body, so clients that keep sending cost no thread.
    Django itself would read a large multipart body (CSRF middleware, request.POST)."""
    heads = [LOGIN + b"Content-Length: 2000000000\r\n\r\n",
             LOGIN + EXPECT + b"Content-Length: 2000000000\r\n\r\n",
             b"POST /login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: csrftoken=" + b"a" * 32 + b"\r\n"
             b"Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 2000000000\r\n\r\n"]
    socks = [_connect(real_server.port, heads[i % len(heads)]) for i in range(3 * real_server.threads)]
    try:
        for s in socks:
            assert Reader(s, timeout=2).response() == TOO_LARGE
        with Trickling(socks, 0.3, b"a" * 1000):  # the body keeps coming
            _assert_answered_quickly(real_server.port, f"{len(socks)} huge bodies")
            for s in socks:
                closed, _ = _closed_after(s, 4)
                assert closed is not None, "a refused body's connection was kept open"
    finally:
        for s in socks:
            s.close()


def test_it_keeps_alive_and_pipelines_requests_with_bodies(real_server):
    def post(body):
        return LOGIN + b"Content-Length: %d\r\n\r\n%s" % (len(body), body)

    get = b"GET /api/auth HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    last = post(b'{"c": 3}')
    with socket.create_connection(("127.0.0.1", real_server.port)) as s:
        s.sendall(post(b'{"a": 1}') + post(b'{"b": 2}') + get + last[:-3])
        reader = Reader(s)
        assert [reader.response() for _ in range(2)] == [NO_NAME] * 2
        assert reader.response()[0] == 200
        time.sleep(0.1)
        s.sendall(last[-3:])
        assert reader.response() == NO_NAME


def test_it_answers_503_once_the_bodies_it_holds_pass_64_mb(real_server):
    """1,000 connections × 1 MB would be 1 GB in the worker: bodies held at once are capped at 64 MiB."""
    body = BODY_START + b"a" * (MAX_BODY - len(BODY_START) - 2) + b'"}'
    head = LOGIN + b"Content-Length: %d\r\n\r\n" % len(body)
    socks = [_connect(real_server.port, head + body[:-1]) for _ in range(70)]  # all but one byte each
    try:
        busy, deadline = [], time.monotonic() + 10  # the loop has 70 MB to read first
        while len(busy) < 70 - 64 and time.monotonic() < deadline:
            busy = select.select(socks, [], [], 0.2)[0]
        assert [Reader(s).response() for s in busy] == [BUSY] * (70 - 64)
        for s in busy:
            socks.remove(s)
        assert select.select(socks, [], [], 0.5)[0] == [], "more than 6 connections refused"
        _assert_answered_quickly(real_server.port, "64 MiB of bodies held")
        socks[0].sendall(body[-1:])
        assert Reader(socks[0]).response() == NO_NAME
        # The room that answer freed: the loop releases it just after the thread has answered,
        # so a body sent at once may still find none (and be told to retry).
        for _ in range(20):
            with _connect(real_server.port, head + body) as s:
                answer = Reader(s).response()
            if answer != BUSY:
                break
            time.sleep(0.05)
        assert answer == NO_NAME
    finally:
        for s in socks:
            s.close()


def test_clients_that_never_close_their_side_do_not_stall_the_loop(real_server):
    """A response that closes the connection (HTTP/1.0 here) is followed by a wait for the client to
    close too; gthread waited in its loop, 2 s a connection, and nobody else was served meanwhile."""
    socks = [_connect(real_server.port, b"GET /api/auth HTTP/1.0\r\n\r\n") for _ in range(10)]
    try:
        time.sleep(0.5)
        _assert_answered_quickly(real_server.port, "10 clients that do not close")
        for s in socks:
            closed, said = _closed_after(s, 4)  # after LINGER (2 s), though they never close
            assert closed is not None and said.startswith(b"HTTP/1.0 200 ")
    finally:
        for s in socks:
            s.close()
