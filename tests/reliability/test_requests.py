"""Hostile requests (battery R1, R2, R3): bodies over the limit or lying about their size, hostile
JSON, and slow clients. R1 and R3 against a real `serve` (gunicorn parses the request), R2 in
process through every POST route of the authorisation matrix.

tests/reader/test_serve.py::test_it_reads_chunked_request_bodies_up_to_1_mb and
tests/reader/test_guards.py::test_it_answers_400_to_hostile_json hold the single cases.
"""
import socket
import threading
import time

import pytest

from bench.server import Server
from tests import test_authz_matrix as matrix
from tests.reader.test_serve import _post_chunked
from tests.reliability.support import ms, raw_exchange, rss_mb, sized, status_of, worker_pid
from tests.test_authz_matrix import MATRIX

pytestmark = pytest.mark.reliability
server, personas = matrix.server, matrix.personas  # the matrix's fixtures (no scraper daemon)

MB = 1024 * 1024


def post_head(port, sid, extra):
    return (f"POST /api/settings HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Cookie: sid={sid}\r\nConnection: close\r\n{extra}\r\n").encode()


def endless_chunks(port, sid, stop, sent):
    """A chunked body that never ends (up to 1 GB), until `stop` or the server closes; -> the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(post_head(port, sid, "Transfer-Encoding: chunked\r\n"))
        chunk = b"10000\r\n" + b"[" + b" " * 0xFFFF + b"\r\n"
        answer = []

        def read():
            try:
                answer.append(s.recv(4096))
            except OSError:
                answer.append(b"")

        reader = threading.Thread(target=read)
        reader.start()
        try:
            while not stop.is_set() and not answer and sent[0] < 1024 * MB:
                s.sendall(chunk)
                sent[0] += len(chunk)
        except OSError:
            pass
        reader.join(10)
        return answer[0] if answer else b""


@pytest.mark.process
def test_r1_bodies_over_the_limit_or_lying_about_their_size_are_refused_at_once(figures, data_dir, library_dir):
    srv = Server(data_dir, library_dir, env={"ACCESS_LOG": "0"}).start()
    results, slowest = {}, 0.0
    try:
        sid = srv.client().signup("admin").cookies["sid"]
        big = b'{"a": "' + b"x" * (MB + 100_000) + b'"}'
        head = lambda extra: post_head(srv.port, sid, extra)  # noqa: E731
        cases = {
            "1.1 MB with its Content-Length": head(f"Content-Length: {len(big)}\r\n") + big,
            "Content-Length 5 GB, 10 bytes sent": head("Content-Length: 5000000000\r\n") + b"{}" * 5,
            "Content-Length 10, 1.1 MB sent": head("Content-Length: 10\r\n") + big,
            "Content-Length -1": head("Content-Length: -1\r\n") + b"{}",
            "Content-Length not a number": head("Content-Length: 1e3\r\n") + b"{}",
            "Content-Length and chunked": head("Content-Length: 2\r\nTransfer-Encoding: chunked\r\n")
            + b"2\r\n{}\r\n0\r\n\r\n",
            "two Content-Lengths": head("Content-Length: 2\r\nContent-Length: 300\r\n") + b"{}",
        }
        for name, request in cases.items():
            began = time.monotonic()
            results[name] = status_of(raw_exchange(srv.port, request, read_all=False))
            slowest = max(slowest, time.monotonic() - began)
        began = time.monotonic()
        results["chunked 1.1 MB"] = _post_chunked(srv.port, sid, big)[0]
        slowest = max(slowest, time.monotonic() - began)
        # A chunked body that does not end: refused once 1 MB is in, with the worker's memory flat.
        pid = worker_pid(srv)
        rss_before, stop, sent = rss_mb(pid), threading.Event(), [0]
        began = time.monotonic()
        answer = endless_chunks(srv.port, sid, stop, sent)
        stream_time, rss_after = time.monotonic() - began, rss_mb(pid)
        results["endless chunked stream"] = status_of(answer)
        alive = srv.client().get("/api/auth")[0] == 200
    finally:
        srv.stop()
    expected = {name: (413,) if "1.1 MB" in name or "5 GB" in name or "endless" in name else (400,) for name in results}
    expected["Content-Length 10, 1.1 MB sent"] = (400,)
    wrong = {name: status for name, status in results.items() if status not in expected[name]}
    figures.check("R1", "body limits, lying Content-Length, chunked", f"{len(results)} requests",
                  "413 over 1 MB (chunked too), 400 for a lying or malformed length, each within 1 s; "
                  "an endless stream refused with the worker's RSS up < 20 MB",
                  f"slowest {ms(slowest)}; endless stream: {results['endless chunked stream']} "
                  f"after {ms(stream_time)}, "
                  f"{sent[0] / MB:.1f} MB sent, RSS {rss_before:.0f} → {rss_after:.0f} MB; "
                  f"wrong: {wrong or 'none'}; still serving: {alive}",
                  not wrong and slowest < 1 and stream_time < 2 and rss_after - rss_before < 20 and alive)


JSON_ERRORS = {  # not a JSON object: 400 from every route
    "100k nested [": b"[" * 100_000,
    "50k nested objects": b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    "1e999999": b'{"m": 1e999999}',
    "NaN": b'{"m": NaN}',
    "bare Infinity": b"Infinity",
    "huge integer": b'{"p": 1' + b"0" * 5000 + b"}",
    "invalid UTF-8": b'{"m": "\xff\xfe"}',
    "lone surrogate": b'{"m": "\\ud800"}',
    "a string": b'"just a string"',
    "a list": b"[]",
    "null": b"null",
    "empty": b"",
    "trailing garbage": b"{} x",
}
ODD_VALUES = {  # valid JSON objects with hostile values: anything but a server error
    "a 900 KB string": b'{"m": "' + b"x" * 900_000 + b'", "c": "1/1", "name": "' + b"y" * 1000 + b'"}',
    "duplicate keys": b'{"m": "Moon Garden", "m": "Long Scroll", "c": "1/2", "c": "0/1"}',
    "50k keys": b"{" + b",".join(b'"k%d": 1' % i for i in range(50_000)) + b"}",
    "wrong types": b'{"m": ["Moon Garden"], "c": {"a": 1}, "v": 1.5, "p": "1", "n": null, "value": true}',
    "big floats": b'{"zoom": {"page": 1e308}, "p": 1e308, "seq": -1e308}',
}


def test_r2_hostile_json_gets_400_never_a_server_error(figures, server, personas):
    """Every POST route of the matrix, as an admin (a fresh session for the routes that end it)."""
    routes = sorted({path for _, method, path, *_ in MATRIX if method == "POST" and path.startswith("/api/")})
    admin = personas["admin"]()
    wrong, sent = [], 0
    for path in routes:
        for kind, bodies in (("error", JSON_ERRORS), ("odd", ODD_VALUES)):
            for name, raw in bodies.items():
                client = personas["admin"]() if path == "/api/logout" else admin
                status, _, data = client.request("POST", path, raw=raw, headers={"Content-Type": "application/json"})
                sent += 1
                # the daemon is not running here: its routes answer 503 "scraper offline…", as documented
                offline = status == 503 and isinstance(data, dict) and str(data.get("error")).startswith(
                    "scraper offline")
                if (kind == "error" and status != 400) or (status >= 500 and not offline):
                    wrong.append((path, name, status))
    figures.check("R2", "hostile JSON to every POST route", f"{sent} requests ({len(routes)} routes)",
                  "invalid JSON or a non-object: 400; hostile values: no 5xx",
                  f"{len(wrong)} wrong" + (f": {wrong[:4]}" if wrong else ""), not wrong)


def slow_connections(port, count):
    socks = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(b"GET /api/auth HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        socks.append(s)
    return socks


def probe(port, path, cookie, timeout):
    """Seconds a GET took, or None when it was not answered within `timeout`."""
    began = time.monotonic()
    try:
        answer = raw_exchange(port, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{cookie}Connection: close\r\n\r\n"
                              .encode(), timeout=timeout, read_all=False)
    except OSError:
        return None
    return time.monotonic() - began if status_of(answer) == 200 else None


@pytest.mark.process
@pytest.mark.timing  # each probe within 3 s
def test_r3_probes_are_answered_while_slow_clients_trickle_their_headers(figures, data_dir, library_dir):
    """100 connections send a request head one byte every 0.5 s; meanwhile, plain and signed-in
    GETs must be answered within a few seconds. Needs a worker that reads request heads in its own
    loop: gunicorn's gthread hands each connection to a request thread first, so 8 slow clients hold
    all 8 threads (the limit documented in docs/reliability.md)."""
    case = ("R3", "slow clients trickling request heads")
    # Shorter than the head-reading worker's HEADER_TIMEOUT (10 s), after which a slow head gets 408.
    count, seconds = sized(100, 500), sized(5, 8)
    srv = Server(data_dir, library_dir, env={"ACCESS_LOG": "0"}).start()
    socks, stop, latencies, trickler = [], threading.Event(), [], None
    try:
        cookie = f"Cookie: sid={srv.client().signup('admin').cookies['sid']}\r\n"
        socks = slow_connections(srv.port, count)

        def trickle():
            while not stop.wait(0.5):
                for s in socks:
                    try:
                        s.sendall(b"a")
                    except OSError:
                        pass

        trickler = threading.Thread(target=trickle)
        trickler.start()
        time.sleep(1)
        began = time.monotonic()
        while time.monotonic() - began < seconds:
            for path, with_cookie in (("/api/auth", ""), ("/api/me", cookie)):
                latencies.append(probe(srv.port, path, with_cookie, timeout=4))
            time.sleep(0.2)
    finally:
        stop.set()
        if trickler:
            trickler.join()
        for s in socks:
            s.close()
        srv.stop()
    answered = [t for t in latencies if t is not None]
    measured = (f"{len(answered)}/{len(latencies)} probes answered within 4 s; slowest "
                f"{ms(max(answered, default=0))}, with {len(socks)} slow connections open")
    figures.check(*case, f"{count} slow connections, {seconds} s", "every probe answered, each within 3 s",
                  measured, len(answered) == len(latencies) and max(answered, default=0) < 3)
