"""How much of a request the worker's loop must buffer before a thread gets it (mangacircus/gworker.py):
how the body is framed, read from the head, and where a chunked body ends.

This is framing only, read as gunicorn reads it (gunicorn/http/message.py, set_body_reader). Once a
thread has the request, gunicorn's parser still parses and checks all of it. A head whose framing
is odd (two Content-Lengths, Transfer-Encoding with Content-Length or not ending in chunked, folded
or malformed header lines, an Expect other than 100-continue) is ODD: the loop hands it over at
once, and gunicorn answers 400 or 417 without reading a body.
"""
import string
from typing import NamedTuple

HEX_DIGITS = string.hexdigits.encode()
MAX_CHUNK_LINE = 8190  # a chunk-size line, extensions included (gunicorn's limit for it)
MAX_TRAILERS = 64 * 1024


class Framing(NamedTuple):
    kind: str  # "none" (no body), "length" (`length` bytes), "chunked", or "odd" (the parser decides)
    length: int = 0
    expect_continue: bool = False  # an HTTP/1.1 client waiting for "100 Continue" before its body


NO_BODY = Framing("none")
ODD = Framing("odd")


def framing(head):
    """The Framing of the request whose head (request line and headers, CRLF-separated) is `head`."""
    lines = head.lstrip(b"\r\n").split(b"\r\n")
    version = lines[0].rsplit(b" ", 1)[-1]
    if version not in (b"HTTP/1.1", b"HTTP/1.0"):
        return ODD
    lengths, codings, expects = [], [], []
    for line in lines[1:]:
        if not line:
            break
        name, colon, value = line.partition(b":")
        if not colon or not name or name != name.strip(b" \t"):  # folded, no colon, space before it
            return ODD
        name, value = name.lower(), value.strip(b" \t")
        if name == b"content-length":
            lengths.append(value)
        elif name == b"transfer-encoding":
            codings += [coding.strip(b" \t").lower() for coding in value.split(b",")]
        elif name == b"expect":
            expects.append(value.lower())
    if expects and expects != [b"100-continue"]:
        return ODD
    expect_continue = bool(expects) and version == b"HTTP/1.1"
    if codings:
        if lengths or version != b"HTTP/1.1" or codings[-1] != b"chunked" or codings.count(b"chunked") > 1:
            return ODD
        return Framing("chunked", expect_continue=expect_continue)
    if not lengths:
        return NO_BODY
    if len(lengths) > 1 or not lengths[0].isdigit():
        return ODD
    length = int(lengths[0])
    return Framing("length", length, expect_continue) if length else NO_BODY


BAD = "bad"  # ChunkScan.end(): broken chunked framing; the parser answers 400
TOO_LARGE = "too large"  # ChunkScan.end(): the body is over the limit


class ChunkScan:
    """Where a chunked body ends in a buffer that grows: each call goes on from the chunk where the
    last one stopped, so a body arriving a byte at a time is not scanned again from its start."""

    def __init__(self, start, limit):
        self.pos = start  # where the next chunk-size line starts
        self.size = 0  # body bytes in the chunks passed so far
        self.limit = limit
        self.trailers_searched = 0

    def end(self, buf):
        """The index just past the body (its last chunk and trailers) once all of it is in `buf`;
        None while it is not; BAD or TOO_LARGE (known from a chunk's size, before its bytes come)."""
        while True:
            eol = buf.find(b"\r\n", self.pos)
            if eol < 0:
                return BAD if len(buf) - self.pos > MAX_CHUNK_LINE else None
            digits = bytes(buf[self.pos:eol]).split(b";", 1)[0].rstrip(b" \t")
            if not digits or digits.translate(None, HEX_DIGITS) or eol - self.pos > MAX_CHUNK_LINE:
                return BAD
            size = int(digits, 16)
            if size == 0:  # the last chunk: then trailer lines, if any, and an empty line
                end = buf.find(b"\r\n\r\n", max(eol, self.trailers_searched - 3))
                self.trailers_searched = len(buf)
                if end >= 0:
                    return end + 4
                return BAD if len(buf) - eol > MAX_TRAILERS else None
            if self.size + size > self.limit:
                return TOO_LARGE
            after = eol + 2 + size
            if len(buf) < after + 2:
                return None
            if buf[after:after + 2] != b"\r\n":
                return BAD
            self.size += size
            self.pos = after + 2
