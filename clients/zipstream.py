"""A ZIP of stored members whose sizes are known before the first byte is written: its length is
worked out up front (Content-Length), any byte range of it can be produced without building the
rest (206 answers, resumed downloads), and the same members give the same bytes (one fixed date,
the members in the order given), so the part of a download already received still fits.

Layout, as a streaming writer makes it: per member a local header without sizes (flag bit 3), the
data, a data descriptor (CRC-32 and sizes); then the central directory and its end record, with
ZIP64 fields only where an offset or the member count needs them. Names are UTF-8 (flag bit 11).
A CRC-32 is known only once the member was read: those worked out are kept per archive (`key`),
so a resumed download reads again only what it skips and was never sent.
"""
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import NamedTuple

FLAGS = 0x0808  # data descriptor follows the data; names in UTF-8
DOS_TIME, DOS_DATE = 0, (1 << 5) | 1  # 1980-01-01 00:00, the ZIP epoch: no clock in the bytes
MADE_BY = (3 << 8) | 45  # Unix, ZIP 4.5
FILE_MODE = 0o100644 << 16
OFFSET_LIMIT = 0xFFFFFFFF  # an offset or size this large needs its ZIP64 field
COUNT_LIMIT = 0xFFFF
MAX_MEMBER = 0xFFFFFFFF - 1  # pages are far smaller; a larger member would need ZIP64 sizes
LOCAL, DESCRIPTOR, CENTRAL, END, END64, LOCATOR = 30, 16, 46, 22, 56, 20
KEPT = 64


class Member(NamedTuple):
    name: str
    size: int
    chunks: Callable[[], Iterable[bytes]]  # exactly `size` bytes, in chunks


class Mismatch(ValueError):
    """A member's data is not the size the archive was planned with (the file changed since)."""


_crcs: OrderedDict = OrderedDict()  # archive key → {member index: CRC-32}
_lock = threading.Lock()


def _kept(key):
    with _lock:
        found = _crcs.get(key)
        if found is None:
            found = _crcs[key] = {}
            while len(_crcs) > KEPT:
                _crcs.popitem(last=False)
        else:
            _crcs.move_to_end(key)
        return found


def _field(value):
    """A 4-byte offset or size, or the mark that its ZIP64 field holds it."""
    return value if value < OFFSET_LIMIT else 0xFFFFFFFF


class Archive:
    def __init__(self, members, key):
        self.members = list(members)
        self.names = [m.name.encode("utf-8") for m in self.members]
        for m in self.members:
            if not 0 <= m.size <= MAX_MEMBER:
                raise ValueError(f"{m.name}: {m.size} bytes is more than a ZIP member without ZIP64 sizes holds")
        self.crcs = _kept(key) if key is not None else {}
        self.offsets, pos = [], 0
        for m, name in zip(self.members, self.names):
            self.offsets.append(pos)
            pos += LOCAL + len(name) + m.size + DESCRIPTOR
        self.cd_start = pos
        self.cd_size = sum(CENTRAL + len(n) + (12 if off >= OFFSET_LIMIT else 0)
                           for n, off in zip(self.names, self.offsets))
        count = len(self.members)
        self.zip64 = self.cd_start >= OFFSET_LIMIT or self.cd_size >= OFFSET_LIMIT or count >= COUNT_LIMIT
        self.length = self.cd_start + self.cd_size + (END64 + LOCATOR if self.zip64 else 0) + END

    def _local(self, i):
        name = self.names[i]
        return struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, FLAGS, 0, DOS_TIME, DOS_DATE, 0, 0, 0, len(name), 0) + name

    def _data(self, i):
        """Member i's bytes, checked against its planned size; its CRC-32 is kept at the end."""
        member, crc, sent = self.members[i], 0, 0
        for chunk in member.chunks():
            sent += len(chunk)
            if sent > member.size:
                raise Mismatch(f"{member.name} is longer than the {member.size} bytes planned")
            crc = zlib.crc32(chunk, crc)
            yield chunk
        if sent != member.size:
            raise Mismatch(f"{member.name} is {sent} bytes, not the {member.size} planned")
        self.crcs[i] = crc

    def _crc(self, i):
        if i not in self.crcs:
            for _ in self._data(i):
                pass
        return self.crcs[i]

    def _descriptor(self, i):
        size = self.members[i].size
        return struct.pack("<IIII", 0x08074B50, self._crc(i), size, size)

    def _central(self):
        out = []
        for i, (m, name, off) in enumerate(zip(self.members, self.names, self.offsets)):
            big = off >= OFFSET_LIMIT
            extra = struct.pack("<HHQ", 1, 8, off) if big else b""
            out.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, MADE_BY, 45 if big else 20, FLAGS, 0, DOS_TIME,
                                   DOS_DATE, self._crc(i), m.size, m.size, len(name), len(extra), 0, 0, 0,
                                   FILE_MODE, _field(off)) + name + extra)
        return b"".join(out)

    def _end(self):
        count, out = len(self.members), b""
        if self.zip64:
            end64 = self.cd_start + self.cd_size
            out = (struct.pack("<IQHHIIQQQQ", 0x06064B50, END64 - 12, MADE_BY, 45, 0, 0, count, count,
                               self.cd_size, self.cd_start)
                   + struct.pack("<IIQI", 0x07064B50, 0, end64, 1))
        entries = count if count < COUNT_LIMIT else 0xFFFF
        return out + struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, entries, entries, _field(self.cd_size),
                                 _field(self.cd_start), 0)

    def _parts(self):
        """(position, length, what makes its bytes, member index or None), in order."""
        for i, (m, name, off) in enumerate(zip(self.members, self.names, self.offsets)):
            data = off + LOCAL + len(name)
            yield off, LOCAL + len(name), lambda i=i: [self._local(i)], None
            yield data, m.size, lambda i=i: self._data(i), i
            yield data + m.size, DESCRIPTOR, lambda i=i: [self._descriptor(i)], None
        yield self.cd_start, self.cd_size, lambda: [self._central()], None
        yield self.cd_start + self.cd_size, self.length - self.cd_start - self.cd_size, lambda: [self._end()], None

    def chunks(self, start=0, end=None):
        """The bytes [start, end) of the archive, in chunks. A member that is skipped is read only
        when a CRC-32 in the range needs it and none is kept."""
        end = self.length if end is None else end
        for pos, length, make, index in self._parts():
            if pos >= end:
                return
            if pos + length <= start:
                if index is not None and (end > self.cd_start or pos + length + DESCRIPTOR > start):
                    self._crc(index)
                continue
            source = iter(make())
            try:
                for chunk in source:
                    chunk_end = pos + len(chunk)
                    if chunk_end > start:
                        yield chunk[max(start - pos, 0):end - pos]
                    if chunk_end >= end:
                        return
                    pos = chunk_end
            finally:
                getattr(source, "close", lambda: None)()
