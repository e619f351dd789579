"""RAR (CBR, RAR4 and RAR5), 7-Zip (CB7) and tar (CBT) archives, read in place through libarchive
(docs/library.md, "Archives").

libarchive (Debian's libarchive13, through `libarchive-c`) reads RAR5 solid or not, RAR4 that is not
solid, 7z and tar; it refuses solid RAR4 and encrypted archives, and each is reported as such. It
reads an archive from its start: `listing()` walks the headers once (the scan), `member()` reads
one member of a non-solid archive (libarchive seeks over the others' data), and `extract()` writes
the pages of a solid one into the page cache in one pass (pagecache.py), since a solid archive's
member can only be reached by decompressing everything before it.

The limits are zipread's: at most MAX_MEMBERS members, a page at most MAX_PAGE_BYTES, all pages at
most MAX_TOTAL and at most MAX_RATIO times the archive's size once over 1 MiB (a member's packed size
is not known here, so the ratio is the archive's); names with `..`, absolute paths or control
characters are refused, links and devices are never read, and no member yields more bytes than
its header declares.
"""
from __future__ import annotations

import ctypes
import os
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from .zipread import MAX_MEMBERS, MAX_PAGE_BYTES, MAX_RATIO, MAX_TOTAL, Refused, ignored, unsafe

try:  # a missing libarchive makes these formats unread (reported), never the app unusable
    import libarchive
    from libarchive import ffi
    from libarchive.exception import ArchiveError
    MISSING = None
    # libarchive-c has no binding for it: an encrypted member is known from its header, before its
    # data is read (a solid archive's scan reads no data: archives._read_libarchive)
    _is_encrypted = ffi.libarchive.archive_entry_is_encrypted
    _is_encrypted.argtypes, _is_encrypted.restype = [ctypes.c_void_p], ctypes.c_int
except (ImportError, OSError, AttributeError) as e:  # OSError: libarchive-c without Debian's libarchive13
    libarchive, ArchiveError, _is_encrypted = None, Exception, None
    MISSING = f"libarchive cannot be loaded ({e}): install Debian's libarchive13 and the libarchive-c package"

ENCRYPTED = "it is encrypted (password-protected archives are not read)"

FORMATS = {"cbr": "RAR", "rar": "RAR", "cb7": "7-Zip", "7z": "7-Zip", "cbt": "tar", "tar": "tar"}
BLOCK = 64 << 10


class Member(NamedTuple):
    name: str
    size: int


class Directory(NamedTuple):
    members: list[Member]  # regular members with safe names, in archive order
    refused: list[tuple[str, str]]  # (name, why) of members left out, for warnings
    solid: bool


def _why(error: Exception) -> str:
    text = str(error).split(" (errno=")[0]
    low = text.casefold()
    if "encrypt" in low or "passphrase" in low or "password" in low:
        return ENCRYPTED
    if "solid" in low and "rar" in low:
        return "it is a solid RAR4 archive, which libarchive cannot read: repack it as CBZ or RAR5"
    return f"libarchive cannot read it: {text}"


def _head(path: str, n: int = 64) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read(n)
    except OSError:
        return b""


def _kind(head: bytes) -> str | None:
    if head.startswith(b"Rar!\x1a\x07"):
        return "RAR"
    return "7-Zip" if head.startswith(b"7z\xbc\xaf\x27\x1c") else None


def sniff(path: str) -> str | None:
    """"RAR" or "7-Zip" when the file's first bytes say so, whatever its name ends with."""
    return _kind(_head(path, 8))


def is_solid(path: str, st: os.stat_result | None = None) -> bool:
    """True when members cannot be reached one by one: a solid RAR (its main header says so), a 7z
    (its members share compressed blocks as 7-Zip writes them by default). tar never is. With the
    file's `st`, the answer is kept for as long as the file is the same (each page served asks)."""
    key = (path, st.st_ino, st.st_size, st.st_mtime_ns) if st is not None else None
    if key in _solid:
        return _solid[key]
    answer = _is_solid(path)
    if key is not None:
        if len(_solid) >= 1024:
            _solid.clear()
        _solid[key] = answer
    return answer


_solid: dict[tuple[str, int, int, int] | None, bool] = {}


def _is_solid(path: str) -> bool:
    head = _head(path)
    kind = _kind(head) or FORMATS.get(path.rpartition(".")[2].casefold())
    if kind == "7-Zip":
        return True
    if kind != "RAR":
        return False
    if head.startswith(b"Rar!\x1a\x07\x00") and len(head) >= 12:  # RAR4: main header flags, MHD_SOLID
        return bool(int.from_bytes(head[10:12], "little") & 0x0008)
    if head.startswith(b"Rar!\x1a\x07\x01\x00"):  # RAR5: CRC32, then variable-length integers
        values = _vints(head, 12)
        size, header, flags = next(values, None), next(values, None), next(values, 0)
        if size is None or header != 1:  # 1: the main archive header
            return False
        if flags & 0x0001:
            next(values, None)  # the extra area's size
        if flags & 0x0002:
            next(values, None)  # the data area's size
        return bool(next(values, 0) & 0x0004)
    return False


def _vints(data: bytes, pos: int) -> Iterator[int]:
    """RAR5's variable-length integers from `pos`: 7 bits a byte, low bits first."""
    value, shift = 0, 0
    for byte in data[pos:]:
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            yield value
            value, shift = 0, 0


def _entries(path: str) -> Iterator[Any]:
    if libarchive is None:
        raise Refused(MISSING)
    try:
        with libarchive.file_reader(path) as archive:
            yield from archive
    except ArchiveError as e:
        raise Refused(_why(e)) from None


def _name(entry: Any) -> str:
    """The member's name; tar's leading `./` (`tar -cf x.cbt -C folder .`) is no part of it."""
    name = entry.pathname or ""
    while name.startswith("./"):
        name = name[2:]
    return name


def _checked(entry: Any, file_size: int, count: int, total: int) -> tuple[str, str | None]:
    """(name, why it is refused or None) of one entry; why is "" for entries left out silently."""
    name = _name(entry)
    if not name or name == ".":
        return name, ""
    if entry.isdir:
        return name, ""
    parts = name.split("/")
    why = unsafe(name, parts)  # before ignored(): `..` starts with a dot, and must be reported
    if why:
        return name, why
    if ignored(parts):
        return name, ""
    if _is_encrypted is not None and _is_encrypted(entry._entry_p) > 0:
        raise Refused(ENCRYPTED)
    if count >= MAX_MEMBERS:
        raise Refused(f"it holds more than {MAX_MEMBERS:,} members")
    if not entry.isreg:
        return name, "is a link or a device, not a file"
    size = entry.size or 0
    if size > MAX_PAGE_BYTES:
        return name, f"declares {size:,} bytes, over the {MAX_PAGE_BYTES >> 20} MB a page may have"
    if total + size > MAX_TOTAL:
        raise Refused(f"its members declare more than {MAX_TOTAL >> 30} GB")
    if total + size > max(1 << 20, MAX_RATIO * file_size):
        raise Refused(f"its members declare more than {MAX_RATIO} times the archive's size (an archive bomb)")
    return name, None


def _read(entry: Any, limit: int) -> bytes:
    """At most `limit` bytes of the entry; Refused when it yields more than its header declares."""
    out, got = [], 0
    for block in entry.get_blocks(BLOCK):
        got += len(block)
        if got > (entry.size or 0):
            raise Refused(f"{entry.pathname} holds more bytes than it declares")
        out.append(block)
        if got >= limit:
            break
    return b"".join(out)[:limit]


def listing(path: str, heads: Callable[[str], int]) -> tuple[Directory, dict[str, bytes]]:
    """(Directory, {name: its first heads(name) bytes}) in one pass; heads() answers 0 for members
    whose bytes are not wanted."""
    file_size = os.path.getsize(path)
    members: list[Member] = []
    refused: list[tuple[str, str]] = []
    found: dict[str, bytes] = {}
    total, seen = 0, set()
    for entry in _entries(path):
        name, why = _checked(entry, file_size, len(members), total)
        if why == "":
            continue
        if why:
            refused.append((name, why))
            continue
        if name in seen:
            refused.append((name, "appears twice: the first is read"))
            continue
        seen.add(name)
        members.append(Member(name, entry.size or 0))
        total += entry.size or 0
        want = heads(name)
        if want:
            try:
                found[name] = _read(entry, want)
            except ArchiveError as e:
                raise Refused(_why(e)) from None
    return Directory(members, refused, is_solid(path)), found


def member(path: str, name: str) -> bytes | None:
    """The whole member `name` (a non-solid archive), or None when it is not there."""
    file_size = os.path.getsize(path)
    for count, entry in enumerate(_entries(path)):
        if _name(entry) == name:
            _, why = _checked(entry, file_size, count, 0)
            if why is not None:
                return None
            try:
                data = _read(entry, entry.size or 0)
            except ArchiveError as e:
                raise Refused(_why(e)) from None
            return data if len(data) == (entry.size or 0) else None
    return None


def extract(path: str, wanted: Callable[[str], bool], write: Callable[[str, bytes], None]) -> int:
    """Call write(name, bytes) for each member wanted(name) accepts, in one pass (a solid archive
    is decompressed once); answers the bytes written."""
    file_size, total, done = os.path.getsize(path), 0, set()
    for count, entry in enumerate(_entries(path)):
        name = _name(entry)
        if name in done or not wanted(name):
            continue
        _, why = _checked(entry, file_size, count, total)
        if why is not None:
            continue
        try:
            data = _read(entry, entry.size or 0)
        except ArchiveError as e:
            raise Refused(_why(e)) from None
        if len(data) == (entry.size or 0):
            write(name, data)
            done.add(name)
            total += len(data)
    return total
