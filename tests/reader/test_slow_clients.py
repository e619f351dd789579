"""Slow clients against a real `manage.py serve`: a request head that trickles in must not hold one of
the request threads (docs/configuration.md, "Slow clients"). Everything stays on 127.0.0.1."""
import http.client
import socket
import threading
import time

import pytest

from bench.server import Server

HEAD_START = b"GET /api/auth HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


def _slow_connections(port, count):
    """`count` connections that have sent the first line and a half of a request head."""
    socks = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(HEAD_START)
        socks.append(s)
    return socks


def _trickle(socks, stop, every=0.5):
    """One more header byte on each connection every `every` seconds, until `stop` is set."""
    while not stop.wait(every):
        for s in socks:
            try:
                s.sendall(b"a")
            except OSError:
                pass


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
