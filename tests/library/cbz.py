"""CBZ archives made on disk for the archive tests: good ones, and the hostile kinds."""
import zipfile
from xml.sax.saxutils import escape

from tests.library.images import jpeg_bytes, png_bytes


def pages(n=3, size=(40, 60), folder=""):
    """{member name: image bytes} of n pages, alternating PNG and JPEG."""
    make = (png_bytes, jpeg_bytes)
    ext = ("png", "jpg")
    return {f"{folder}{i:03d}.{ext[i % 2]}": make[i % 2](size) for i in range(1, n + 1)}


def comic_info(**fields):
    pages_xml = fields.pop("pages_xml", "")
    body = "".join(f"<{k}>{escape(v)}</{k}>" for k, v in fields.items())
    return (f'<?xml version="1.0" encoding="utf-8"?>\n<ComicInfo>{body}{pages_xml}</ComicInfo>').encode()


def make_cbz(path, members, deflate=False):
    """Write `members` ({name: bytes}) as a ZIP at `path`; stored unless deflate."""
    path.parent.mkdir(parents=True, exist_ok=True)
    method = zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED
    with zipfile.ZipFile(path, "w", method) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path
