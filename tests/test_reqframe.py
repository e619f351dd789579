"""mangacircus/reqframe.py: how much of a request the worker's loop buffers. Its framing must be
gunicorn's, or a thread would wait for a body the loop did not buffer: each head is also given to
gunicorn's parser, and the two must agree."""
import pytest
from gunicorn.config import Config
from gunicorn.http.body import ChunkedReader
from gunicorn.http.parser import RequestParser

from mangacircus.reqframe import BAD, NO_BODY, ODD, TOO_LARGE, ChunkScan, Framing, framing

POST = b"POST /api/login HTTP/1.1\r\nHost: x\r\n"

HEADS = {
    b"GET / HTTP/1.1\r\nHost: x\r\n\r\n": NO_BODY,
    b"GET / HTTP/1.0\r\n\r\n": NO_BODY,
    POST + b"Content-Length: 5\r\n\r\n": Framing("length", 5),
    POST + b"content-LENGTH:  5 \r\n\r\n": Framing("length", 5),
    b"POST / HTTP/1.0\r\nContent-Length: 5\r\n\r\n": Framing("length", 5),
    POST + b"Content-Length: 0\r\n\r\n": NO_BODY,
    POST + b"Content-Length: 5\r\nExpect: 100-continue\r\n\r\n": Framing("length", 5, True),
    POST + b"Expect: 100-Continue\r\nTransfer-Encoding: chunked\r\n\r\n": Framing("chunked", 0, True),
    b"POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n": Framing("length", 5),  # ignored
    POST + b"Transfer-Encoding: chunked\r\n\r\n": Framing("chunked"),
    POST + b"Transfer-Encoding: gzip, chunked\r\n\r\n": Framing("chunked"),
    POST + b"Content_Length: 5\r\n\r\n": NO_BODY,  # not Content-Length (gunicorn drops the header)
    # gunicorn answers these 400 (or 417) without reading a body: handed over at once.
    POST + b"Content-Length: 5\r\nContent-Length: 5\r\n\r\n": ODD,
    POST + b"Content-Length: +5\r\n\r\n": ODD,
    POST + b"Content-Length: 5x\r\n\r\n": ODD,
    POST + b"Content-Length : 5\r\n\r\n": ODD,
    POST + b"X-A: 1\r\n Content-Length: 5\r\n\r\n": ODD,
    POST + b"Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n": ODD,
    POST + b"Transfer-Encoding: gzip\r\n\r\n": ODD,
    POST + b"Transfer-Encoding: chunked, gzip\r\n\r\n": ODD,
    POST + b"Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n": ODD,
    b"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n": ODD,
    POST + b"Expect: something\r\nContent-Length: 5\r\n\r\n": ODD,
    b"POST / HTTP/2.0\r\nContent-Length: 5\r\n\r\n": ODD,
}


def gunicorn_reads(head):
    """What gunicorn's parser makes of `head`: the body it would read, or None for an error answer."""
    try:
        req = next(RequestParser(Config(), [head], ("127.0.0.1", 1)))
    except Exception:
        return None
    reader = req.body.reader
    if isinstance(reader, ChunkedReader):
        return Framing("chunked", 0, req._expected_100_continue)
    return Framing("length", reader.length, req._expected_100_continue) if reader.length else NO_BODY


@pytest.mark.parametrize("head", HEADS)
def test_it_reads_the_framing_as_gunicorn_does(head):
    assert framing(head) == HEADS[head]
    assert gunicorn_reads(head) == (None if HEADS[head] == ODD else HEADS[head])


BODY = b"5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n"


def test_it_finds_the_end_of_a_chunked_body_whole_or_a_byte_at_a_time():
    buf = bytearray(b"HEAD" + BODY + b"GET /next")
    assert ChunkScan(4, 100).end(buf) == 4 + len(BODY)
    scan, buf = ChunkScan(0, 100), bytearray()
    ends = []
    for byte in BODY:
        buf.append(byte)
        ends.append(scan.end(buf))
    assert ends == [None] * (len(BODY) - 1) + [len(BODY)]
    assert scan.size == 11


def test_it_takes_trailers_and_refuses_bad_or_too_large_chunks():
    with_trailers = b"1\r\na\r\n0\r\nX-Sum: 1\r\nX-Other: 2\r\n\r\nnext"
    assert ChunkScan(0, 100).end(with_trailers) == len(with_trailers) - 4
    assert ChunkScan(0, 100).end(b"1\r\na\r\n0\r\nX-Sum: 1\r\n") is None
    assert ChunkScan(0, 10).end(b"a\r\n") is None  # 10 bytes: within the limit, still to come
    assert ChunkScan(0, 10).end(b"5\r\nhello\r\n6\r\n") == TOO_LARGE  # known from the size line
    for bad in (b"zz\r\n", b"\r\n", b" 5\r\n", b"5\r\nhelloXX", b"5" * 9000):
        assert ChunkScan(0, 10**9).end(bad) == BAD, bad
