"""A small reader of the protobuf wire format, enough for a Mihon backup (docs/import.md): a message
is {field number: [values]}, a varint as an int, a length-delimited field as bytes (a string, a
nested message or a packed list: the schema says which), fixed32/fixed64 as their bytes."""
import struct


class WireError(ValueError):
    """Not a protobuf message: the message says where."""


def varint(buf, pos):
    result = shift = 0
    while True:
        if pos >= len(buf):
            raise WireError(f"a number is cut off at byte {pos}")
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
        if shift >= 70:
            raise WireError(f"a number longer than 10 bytes at byte {pos}")


def message(buf):
    """{field: [value, …]} of one message's bytes."""
    fields, pos, end = {}, 0, len(buf)
    while pos < end:
        key, pos = varint(buf, pos)
        number, kind = key >> 3, key & 7
        if number == 0:
            raise WireError(f"field number 0 at byte {pos}")
        if kind == 0:
            value, pos = varint(buf, pos)
        elif kind == 1:
            value, pos = bytes(buf[pos:pos + 8]), pos + 8
        elif kind == 2:
            length, pos = varint(buf, pos)
            value, pos = bytes(buf[pos:pos + length]), pos + length
        elif kind == 5:
            value, pos = bytes(buf[pos:pos + 4]), pos + 4
        else:
            raise WireError(f"wire type {kind} at byte {pos} (groups are not read)")
        if pos > end:
            raise WireError("the last field is cut off")
        fields.setdefault(number, []).append(value)
    return fields


def signed(value):
    """A varint as the int64 it encodes (Kotlin's Long: negatives take ten bytes)."""
    return value - (1 << 64) if value >= 1 << 63 else value


def string(fields, number, default=""):
    values = fields.get(number)
    if not values or not isinstance(values[-1], bytes):
        return default
    try:
        return values[-1].decode("utf-8")
    except UnicodeDecodeError:
        raise WireError(f"field {number} is not UTF-8 text") from None


def integer(fields, number, default=0):
    values = fields.get(number)
    return signed(values[-1]) if values and isinstance(values[-1], int) else default


def boolean(fields, number, default=False):
    values = fields.get(number)
    return bool(values[-1]) if values and isinstance(values[-1], int) else default


def float32(fields, number, default=0.0):
    values = fields.get(number)
    if values and isinstance(values[-1], bytes) and len(values[-1]) == 4:
        return struct.unpack("<f", values[-1])[0]
    return default


def messages(fields, number):
    return [message(v) for v in fields.get(number, []) if isinstance(v, bytes)]


def integers(fields, number):
    """A repeated integer field, packed or not."""
    out = []
    for value in fields.get(number, []):
        if isinstance(value, int):
            out.append(signed(value))
        else:
            pos = 0
            while pos < len(value):
                item, pos = varint(value, pos)
                out.append(signed(item))
    return out
