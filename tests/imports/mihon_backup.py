"""Mihon backups made for the tests: the messages of Mihon's backup/models/*.kt (mihonapp/mihon,
commit a2c24ff0429ad2502b612c9ab1f2b09966629f73; the field numbers in imports/mihon.py), encoded
in the protobuf wire format as kotlinx.serialization writes them (integers as varints, a Float as
fixed32, repeated messages one field each), then gzipped as Mihon's BackupCreator does."""
import gzip
import struct

MANGADEX = 2499283573021220255


def varint(value):
    value &= (1 << 64) - 1  # a negative Long takes ten bytes
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field(number, value):
    if isinstance(value, bool) or isinstance(value, int):
        return varint(number << 3) + varint(int(value))
    if isinstance(value, float):
        return varint(number << 3 | 5) + struct.pack("<f", value)
    data = value.encode() if isinstance(value, str) else value
    return varint(number << 3 | 2) + varint(len(data)) + data


def chapter(url, name, *, read=False, page=0, number=0.0, modified=0):
    return b"".join([field(1, url), field(2, name), field(4, read), field(6, page), field(9, float(number)),
                     field(11, modified)])


def history(url, last_read):
    return field(1, url) + field(2, last_read)


def manga(url, title, chapters=(), *, source=MANGADEX, categories=(), histories=()):
    return b"".join([field(1, source), field(2, url), field(3, title), *(field(16, c) for c in chapters),
                     *(field(17, c) for c in categories), *(field(104, h) for h in histories)])


def category(name, order):
    return field(1, name) + field(2, order)


def backup(mangas, categories=()):
    return gzip.compress(b"".join([*(field(1, m) for m in mangas), *(field(2, c) for c in categories)]))
