"""Image bytes made in memory for the library tests: good ones, and a decompression bomb."""
import io
import struct
import zlib

from PIL import Image


def png_bytes(size=(40, 60)):
    buf = io.BytesIO()
    Image.new("RGB", size, (200, 10, 10)).save(buf, "PNG")
    return buf.getvalue()


def jpeg_bytes(size=(40, 60), **kw):
    buf = io.BytesIO()
    Image.new("RGB", size, (10, 200, 10)).save(buf, "JPEG", **kw)
    return buf.getvalue()


def bomb_png(w=100_000, h=100_000):
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    chunk = struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    return b"\x89PNG\r\n\x1a\n" + chunk + struct.pack(">I", 0) + b"IEND" + struct.pack(">I", zlib.crc32(b"IEND"))
