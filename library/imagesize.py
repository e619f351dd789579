"""Image sizes from file headers: JPEG, PNG, GIF, WebP (VP8, VP8L, VP8X) and AVIF. Never decodes pixels.

One read of the file's first HEAD bytes answers PNG, GIF, WebP and most JPEGs. A JPEG whose size
marker sits behind large EXIF/ICC blocks is followed segment by segment with small seeks, so
a 1 MB EXIF block costs one extra read rather than reading 1 MB. AVIF is walked box by box.

The size is the displayed one: a JPEG's EXIF orientation 5-8 and an AVIF `irot` of 90/270
swap width and height, as browsers do. `size()` returns (w, h) or None and never raises.
"""
import os
import struct

HEAD = 4096  # bytes read up front; see bench/imagesize_bench.py
MAX_SEGMENTS = 512  # JPEG segments followed before giving up (each costs at most one read)
MAX_BOXES = 256  # AVIF boxes visited before giving up
MAX_SIDE = 1 << 30

CONTENT_TYPES = {
    "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif", "webp": "image/webp", "avif": "image/avif",
}

_SOF = frozenset({0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF})
_AVIF_BRANDS = (b"avif", b"avis")


def detect(head):
    """The image format named by the magic bytes at the start of `head`, or None."""
    if head[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if head[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    if head[4:8] == b"ftyp":
        size = struct.unpack(">I", head[:4])[0]
        brands = head[8:12] + head[16:min(size, len(head), 64)]
        if any(brands[i:i + 4] in _AVIF_BRANDS for i in range(0, len(brands) - 3, 4)):
            return "avif"
    return None


class _Source:
    """Byte ranges of an open file: from the head already read, else one seek + read."""

    def __init__(self, f, head):
        self.f, self.head, self._length = f, head, None

    @property
    def length(self):
        if self._length is None:
            self._length = os.fstat(self.f.fileno()).st_size
        return self._length

    def read(self, offset, n):
        if offset + n <= len(self.head):
            return self.head[offset:offset + n]
        if offset >= self.length:
            return b""
        self.f.seek(offset)
        return self.f.read(n)


class Bytes:
    """A `source` for size_in() over bytes in memory (the first bytes of a member, or a whole page)."""

    def __init__(self, data):
        self.data, self.length = data, len(data)

    def read(self, offset, n):
        return self.data[offset:offset + n]


def size(path):
    """(width, height) as displayed, from the header of the image at `path`; None when unreadable."""
    try:
        with open(path, "rb", buffering=0) as f:
            head = f.read(HEAD)
            kind = detect(head)
            if kind is None:
                return None
            result = _READERS[kind](_Source(f, head))
    except (OSError, struct.error, ValueError, IndexError):
        return None
    return _sane(result)


def size_in(source):
    """The same from any `source` with read(offset, n) and length (an archive member, zipread.py)."""
    try:
        head = source.read(0, HEAD)
        kind = detect(head)
        result = _READERS[kind](source) if kind else None
    except (OSError, struct.error, ValueError, IndexError, EOFError):
        return None
    return _sane(result)


def _sane(result):
    if result and 0 < result[0] <= MAX_SIDE and 0 < result[1] <= MAX_SIDE:
        return result
    return None


def _png(src):
    head = src.read(0, 24)
    if head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def _gif(src):
    return struct.unpack("<HH", src.read(6, 4))


def _webp(src):
    head = src.read(0, 30)
    chunk = head[12:16]
    if chunk == b"VP8 ":
        if head[23:26] != b"\x9d\x01\x2a":
            return None
        w, h = struct.unpack("<HH", head[26:30])
        return w & 0x3FFF, h & 0x3FFF
    if chunk == b"VP8L":
        if head[20] != 0x2F:
            return None
        bits = struct.unpack("<I", head[21:25])[0]
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":
        w = int.from_bytes(head[24:27], "little") + 1
        h = int.from_bytes(head[27:30], "little") + 1
        return w, h
    return None


def _jpeg(src):
    pos, orientation = 2, 1
    for _ in range(MAX_SEGMENTS):
        b = src.read(pos, 4)
        if len(b) < 2 or b[0] != 0xFF:
            return None
        marker = b[1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker == 0x01 or 0xD0 <= marker <= 0xD8:  # markers without a length
            pos += 2
            continue
        if marker in (0xD9, 0xDA) or len(b) < 4:  # end of image, or scan data before any frame header
            return None
        length = (b[2] << 8) | b[3]
        if length < 2:
            return None
        if marker in _SOF:
            frame = src.read(pos + 4, 5)
            if len(frame) < 5:
                return None
            h, w = struct.unpack(">HH", frame[1:5])
            return (h, w) if orientation >= 5 else (w, h)
        if marker == 0xE1 and orientation == 1:
            orientation = _exif_orientation(src.read(pos + 4, length - 2))
        pos += 2 + length
    return None


def _exif_orientation(segment):
    """The EXIF Orientation tag (1-8) of an APP1 segment; 1 when absent or unreadable."""
    if segment[:6] != b"Exif\x00\x00" or len(segment) < 14:
        return 1
    tiff = segment[6:]
    order = {b"II": "<", b"MM": ">"}.get(tiff[:2])
    if order is None:
        return 1
    ifd = struct.unpack(order + "I", tiff[4:8])[0]
    if ifd + 2 > len(tiff):
        return 1
    count = struct.unpack(order + "H", tiff[ifd:ifd + 2])[0]
    for i in range(min(count, 256)):
        entry = tiff[ifd + 2 + 12 * i: ifd + 14 + 12 * i]
        if len(entry) < 12:
            break
        if struct.unpack(order + "H", entry[:2])[0] == 0x0112:
            value = struct.unpack(order + "H", entry[8:10])[0]
            return value if 1 <= value <= 8 else 1
    return 1


def _boxes(src, start, end, budget):
    """(type, content start, content end) of the ISO-BMFF boxes between start and end."""
    pos = start
    while pos + 8 <= end and budget[0] > 0:
        budget[0] -= 1
        hdr = src.read(pos, 16)
        if len(hdr) < 8:
            return
        box_size, kind = struct.unpack(">I4s", hdr[:8])
        header = 8
        if box_size == 1:
            if len(hdr) < 16:
                return
            box_size, header = struct.unpack(">Q", hdr[8:16])[0], 16
        elif box_size == 0:
            box_size = end - pos
        if box_size < header:
            return
        yield kind, pos + header, min(pos + box_size, end)
        pos += box_size


def _child(src, start, end, kind, budget):
    for found, content, stop in _boxes(src, start, end, budget):
        if found == kind:
            return content, stop
    return None


def _avif(src):
    """meta → iprp → ipco: the largest `ispe` (the primary image; alpha and thumbnails are not larger)."""
    budget = [MAX_BOXES]
    meta = _child(src, 0, src.length, b"meta", budget)
    if not meta:
        return None
    iprp = _child(src, meta[0] + 4, meta[1], b"iprp", budget)  # meta is a full box: skip version/flags
    ipco = iprp and _child(src, iprp[0], iprp[1], b"ipco", budget)
    if not ipco:
        return None
    best, turned = None, False
    for kind, content, _stop in _boxes(src, ipco[0], ipco[1], budget):
        if kind == b"ispe":
            w, h = struct.unpack(">II", src.read(content + 4, 8))
            if best is None or w * h > best[0] * best[1]:
                best = (w, h)
        elif kind == b"irot":
            turned = bool(src.read(content, 1)[0] & 1)
    if best and turned:
        return best[1], best[0]
    return best


_READERS = {"jpeg": _jpeg, "png": _png, "gif": _gif, "webp": _webp, "avif": _avif}
