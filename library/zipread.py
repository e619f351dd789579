"""Reading ZIP (CBZ) archives in place: the central directory, and members' bytes, never extracting.

`directory(f, file_size)` parses the central directory (ZIP64 too) with caps, and answers the
members worth reading plus a warning for each member it refuses; `Refused` says why a whole
archive cannot be read. Only stored and deflated members are read; encrypted ones, names with
`..`, absolute paths, control characters or invalid UTF-8, and duplicates are refused by name.

Zip bombs: a page may declare at most MAX_PAGE_BYTES, at most MAX_RATIO times its compressed size
once it is over 1 MiB (images barely compress), and an archive's pages at most MAX_TOTAL in all;
decompression never produces more than the member declares.

`MemberSource` gives imagesize the first bytes of a member (stored: read in place; deflated:
decompressed only as far as asked, at most HEADER_LIMIT); `chunks()` serves it, and
`member_bytes()` reads it whole with its checksum checked. The scan, the page routes and the
scraper's folder import all read archives here, with these limits.
"""
import os
import re
import struct
import zlib
from typing import NamedTuple

from .names import is_ignored

MAX_MEMBERS = 20_000  # a 1,000-page volume is large; 100,000 members is an attack or a mistake
MAX_DIRECTORY_BYTES = 8 << 20
MAX_PAGE_BYTES = 64 << 20
MAX_RATIO = 100
MAX_TOTAL = 4 << 30
HEADER_LIMIT = 1 << 20  # bytes a header read may decompress (a JPEG behind a large EXIF block)
CHUNK = 64 << 10

_EOCD = b"PK\x05\x06"
_EOCD64 = b"PK\x06\x06"
_LOCATOR = b"PK\x06\x07"
_CENTRAL = struct.Struct("<4s6H3I5H2I")
_LOCAL = struct.Struct("<4s5H3I2H")
_OTHER_FORMATS = ((b"Rar!\x1a\x07", "a RAR archive (CBR)"), (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive (CB7)"),
                  (b"%PDF", "a PDF"))
IGNORED_FOLDERS = frozenset({"thumbnails", "thumbs"})
_CONTROL = re.compile("[\x00-\x1f\x7f]")


class Refused(Exception):
    """The archive cannot be read at all; the message says why, for the scan report."""


class Member(NamedTuple):
    name: str
    method: int  # 0 stored, 8 deflated
    crc: int
    csize: int
    size: int
    offset: int  # of the local header


def _pread(f, offset, n):
    return os.pread(f.fileno(), n, offset)


def _end_record(f, file_size):
    """(entries, directory size, directory offset) from the end records, ZIP64 included."""
    if file_size < 22:
        raise Refused(f"it is only {file_size} bytes long: not a ZIP archive, or truncated")
    head = _pread(f, 0, 8)
    for magic, what in _OTHER_FORMATS:
        if head.startswith(magic):
            raise Refused(f"it is {what}, not a ZIP: only ZIP archives (CBZ) are read; repack it as a CBZ")
    start = max(0, file_size - 22 - 0xFFFF)
    tail = _pread(f, start, file_size - start)
    at = tail.rfind(_EOCD)
    while at >= 0 and (at + 22 > len(tail) or at + 22 + struct.unpack_from("<H", tail, at + 20)[0] != len(tail)):
        at = tail.rfind(_EOCD, 0, at)  # the signature inside a comment; the real one ends the file
    if at < 0:
        raise Refused("it has no ZIP end record: it is truncated, or not a ZIP archive")
    disk, cd_disk, _here, entries, cd_size, cd_offset = struct.unpack_from("<4H2I", tail, at + 4)
    if disk or cd_disk:
        raise Refused("it is one part of a split archive, which is not read")
    if 0xFFFF in (entries,) or 0xFFFFFFFF in (cd_size, cd_offset):
        loc = tail[at - 20:at] if at >= 20 else _pread(f, start + at - 20, 20)
        if len(loc) != 20 or loc[:4] != _LOCATOR:
            raise Refused("its ZIP64 end record is missing: the archive is truncated or corrupt")
        rec64 = struct.unpack_from("<Q", loc, 8)[0]
        rec = _pread(f, rec64, 56) if rec64 < file_size else b""
        if len(rec) < 56 or rec[:4] != _EOCD64:
            raise Refused("its ZIP64 end record is corrupt")
        entries, cd_size, cd_offset = struct.unpack_from("<QQQ", rec, 32)
        end = rec64
    else:
        end = start + at
    if entries > MAX_MEMBERS:
        raise Refused(f"it holds {entries:,} members; at most {MAX_MEMBERS:,} are read")
    if cd_size > MAX_DIRECTORY_BYTES:
        raise Refused(f"its central directory is {cd_size:,} bytes; at most {MAX_DIRECTORY_BYTES:,} are read")
    if cd_offset + cd_size > end:
        raise Refused("its central directory lies beyond the end of the file: the archive is truncated")
    return entries, cd_size, cd_offset


def _zip64(extra, size, csize, offset):
    pos = 0
    while pos + 4 <= len(extra):
        kind, length = struct.unpack_from("<HH", extra, pos)
        if kind == 1:
            values = extra[pos + 4:pos + 4 + length]
            fields = []
            for want in (size, csize, offset):
                if want == 0xFFFFFFFF:
                    if len(values) < 8:
                        raise ValueError("short ZIP64 field")
                    fields.append(struct.unpack_from("<Q", values)[0])
                    values = values[8:]
                else:
                    fields.append(want)
            return tuple(fields)
        pos += 4 + length
    raise ValueError("no ZIP64 field")


def _name(raw, flags):
    """The member name as text, or None when it is not valid UTF-8 although it says so."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None if flags & 0x800 else raw.decode("cp437")  # old tools: IBM code page 437


def unsafe(name, parts):
    """Why a member name (split at `/` into `parts`) must not be read, or None: traversal, an
    absolute path, control characters."""
    if name[:1] == "/" or name[1:2] == ":":
        return "is an absolute path"
    if "." in name and ("." in parts or ".." in parts):
        return "has a '..' or '.' part"
    if _CONTROL.search(name):
        return "holds control characters"
    return None


def ignored(parts):
    """__MACOSX/, .DS_Store, Thumbs.db, thumbnail folders: left out silently."""
    return any(is_ignored(p) for p in parts) or any(p.casefold() in IGNORED_FOLDERS for p in parts[:-1])


def directory(f, file_size, wanted=lambda name: True):
    """([Member] of readable members that `wanted(name)` accepts, [(name, why refused)]).

    Raises Refused when the archive as a whole cannot be read."""
    entries, cd_size, cd_offset = _end_record(f, file_size)
    data = _pread(f, cd_offset, cd_size)
    if len(data) != cd_size:
        raise Refused("its central directory is cut short: the archive is truncated")
    members, refused, seen, total, pos = [], [], set(), 0, 0
    for i in range(entries):
        if pos + 46 > len(data) or data[pos:pos + 4] != b"PK\x01\x02":
            raise Refused(f"its central directory is corrupt at entry {i + 1} of {entries}")
        (_sig, _made, _need, flags, method, _t, _d, crc, csize, size, nlen, elen, clen, _disk, _ia, _ea,
         offset) = _CENTRAL.unpack_from(data, pos)
        raw = data[pos + 46:pos + 46 + nlen]
        extra = data[pos + 46 + nlen:pos + 46 + nlen + elen]
        pos += 46 + nlen + elen + clen
        if pos > len(data):
            raise Refused(f"its central directory is corrupt at entry {i + 1} of {entries}")
        name = _name(raw, flags)
        if name is None:
            refused.append((raw.decode("utf-8", "replace"), "its name is not valid UTF-8"))
            continue
        if "\\" in name:
            name = name.replace("\\", "/")
        parts = name.split("/")
        why = unsafe(name, parts)
        if why:
            refused.append((name, f"its name {why}"))
            continue
        if not parts[-1] or ignored(parts):
            continue
        if not wanted(name):
            continue
        if 0xFFFFFFFF in (size, csize, offset):
            try:
                size, csize, offset = _zip64(extra, size, csize, offset)
            except (ValueError, struct.error):
                refused.append((name, "its ZIP64 sizes are missing"))
                continue
        if name in seen:
            refused.append((name, "it appears twice in the archive: the first one is read"))
            continue
        seen.add(name)
        if flags & 1:
            refused.append((name, "it is encrypted"))
        elif method not in (0, 8):
            refused.append((name, f"it is compressed with method {method}; only stored and deflate are read"))
        elif method == 0 and csize != size:
            refused.append((name, "it is stored with two different sizes: the archive is corrupt"))
        elif size > MAX_PAGE_BYTES or (size > 1 << 20 and size > MAX_RATIO * max(csize, 1)):
            refused.append((name, f"it would unpack to {size:,} bytes from {csize:,}: refused as a zip bomb"))
        elif offset + 30 + csize > cd_offset:
            refused.append((name, "it lies beyond the archive's data: the archive is truncated or corrupt"))
        else:
            total += size
            members.append(Member(name, method, crc, csize, size, offset))
    if total > MAX_TOTAL:
        raise Refused(f"its pages would unpack to {total:,} bytes, more than {MAX_TOTAL:,}: refused as a zip bomb")
    return members, refused


def data_start(f, member, file_size, prefetch=0):
    """(where the member's bytes begin, after its local header; up to `prefetch` of its stored
    bytes, read in the same call). ValueError when that header is wrong."""
    local = _pread(f, member.offset, 30 + (prefetch + 512 if prefetch else 0))
    if len(local) < 30 or local[:4] != b"PK\x03\x04":
        raise ValueError("no local header where the directory says")
    nlen, elen = struct.unpack_from("<HH", local, 26)
    skip = 30 + nlen + elen
    start = member.offset + skip
    if start + member.csize > file_size:
        raise ValueError("the member runs past the end of the file")
    return start, local[skip:skip + min(prefetch, member.csize)]


class MemberSource:
    """The first bytes of one member, for imagesize: read(offset, n) and length. `head`: its
    first stored bytes, already read (data_start's prefetch), so most reads need no system call."""

    def __init__(self, f, member, start, head=b""):
        self.f, self.member, self.start = f, member, start
        self.length = member.size
        self._z = zlib.decompressobj(-15) if member.method == 8 else None
        self._head = head if self._z is None else b""
        self._out = b""
        self._fed = 0
        if self._z is not None and head:
            self._feed(head)

    def _feed(self, chunk):
        self._fed += len(chunk)
        try:
            self._out += self._z.decompress(chunk, HEADER_LIMIT - len(self._out))
        except zlib.error as e:
            raise ValueError(f"corrupt deflate data: {e}") from None

    def read(self, offset, n):
        end = min(offset + n, self.length)
        if offset >= end:
            return b""
        if self._z is None:
            if end <= len(self._head):
                return self._head[offset:end]
            return _pread(self.f, self.start + offset, end - offset)
        if end > HEADER_LIMIT:
            return b""
        while len(self._out) < end and self._fed < self.member.csize:
            chunk = _pread(self.f, self.start + self._fed, min(16 << 10, self.member.csize - self._fed))
            if not chunk:
                break
            self._feed(chunk)
        return self._out[offset:end]


def chunks(f, member, start, size=CHUNK):
    """The member's bytes in chunks, never more than it declares (deflated ones decompressed as
    they go); stops early when the data is short or corrupt."""
    left_in, left_out, pos = member.csize, member.size, start
    z = zlib.decompressobj(-15) if member.method == 8 else None
    while left_out > 0:
        if z is not None and z.unconsumed_tail:
            raw, more = z.unconsumed_tail, False
        else:
            raw = _pread(f, pos, min(size, left_in)) if left_in > 0 else b""
            pos, left_in, more = pos + len(raw), left_in - len(raw), True
            if not raw:
                rest = z.flush()[:left_out] if z is not None else b""
                if rest:
                    yield rest
                return
        if z is None:
            out = raw[:left_out]
        else:
            try:
                out = z.decompress(raw, min(size, left_out))
            except zlib.error:
                return
            if not out and not more:
                return
        left_out -= len(out)
        if out:
            yield out


def member_bytes(f, member, file_size):
    """A whole member's bytes, checked: ValueError when the data is short, corrupt, longer than the
    directory declares, or fails its CRC-32 (the folder import reads pages whole, as one job)."""
    start, _ = data_start(f, member, file_size)
    data = b"".join(chunks(f, member, start))
    if len(data) != member.size:
        raise ValueError(f"it holds {len(data):,} bytes where the archive declares {member.size:,}")
    if zlib.crc32(data) != member.crc:
        raise ValueError("its data does not match its checksum: the archive is corrupt")
    return data
