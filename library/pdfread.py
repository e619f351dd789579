"""PDF books, read in place through PDFium (`pypdfium2`; docs/library.md, "Archives").

A PDF is one book whose pages are its pages. The scan reads only the page count and each page's
box (`listing()`: no page is loaded or drawn), so a page's size is known before it is rendered:
RENDER_WIDTH wide, its height in the box's proportion. The members are named `0001.jpg` … in page
order; every page is served as a JPEG:

- a page that is one JPEG image covering the page (a scanned comic) is served as that image's own
  bytes, never re-encoded;
- any other page is rendered, RENDER_WIDTH pixels wide and at most MAX_PIXELS in all; or at the
  width a reader asks for (`/lib/…?w=`), taken up to the next step of WIDTHS (the largest at most),
  so a phone gets 800 or 1,200 pixels and a 4K screen 2,400.

Either is made once per width, at the first request, and kept in the page cache (pagecache.py)
with the pages of solid archives; every later request is a plain file.

PDFium is not safe to call from two threads at once, so every call holds one lock. It runs no
JavaScript (no form environment is set up) and follows no link; an encrypted PDF is refused.
"""
from __future__ import annotations

import functools
import io
import os
import threading
from typing import Any, NamedTuple

from . import pagecache
from .zipread import MAX_MEMBERS, Refused


@functools.cache
def _pdfium() -> Any:
    """pypdfium2, imported on the first PDF: loading PDFium took 45 ms of every process's start."""
    try:
        import pypdfium2
        import pypdfium2.raw  # noqa: F401 (pypdfium2.raw.FPDF_PAGEOBJ_IMAGE)
    except ImportError as e:
        raise Refused(f"the pypdfium2 package cannot be loaded ({e})") from None
    return pypdfium2

RENDER_WIDTH = 1600  # the width listed by the scan, and rendered when no width is asked
WIDTHS = (800, 1200, RENDER_WIDTH, 2400)  # the width ladder (docs/library.md, "PDF")
MAX_PIXELS = 16_000_000
JPEG_QUALITY = 88
COVERS = 0.95  # an image over 95 % of the page box in each direction is the page
_lock = threading.Lock()


class Page(NamedTuple):
    name: str
    size: tuple[int, int]


def member_name(index: int) -> str:
    return f"{index + 1:04d}.jpg"


def _index(name: str) -> int | None:
    stem, _, ext = name.partition(".")
    return int(stem) - 1 if ext == "jpg" and stem.isdigit() and len(stem) >= 4 else None


def _open(path: str) -> Any:
    pdfium = _pdfium()
    try:
        return pdfium.PdfDocument(path)
    except pdfium.PdfiumError as e:
        text = str(e)
        if "password" in text.casefold():
            raise Refused("it is encrypted (password-protected PDFs are not read)") from None
        raise Refused(f"PDFium cannot read it: {text}") from None


def step(asked: int | None) -> int:
    """The width of the ladder a request for `asked` pixels gets: the first step at least as wide,
    the largest when none is; RENDER_WIDTH when none is asked."""
    if asked is None:
        return RENDER_WIDTH
    return next((w for w in WIDTHS if w >= asked), WIDTHS[-1])


def _render_size(width: float, height: float, target: int = RENDER_WIDTH) -> tuple[int, int]:
    """Pixels of a page `target` wide (fewer when it would pass MAX_PIXELS)."""
    if width <= 0 or height <= 0:
        return target, target
    w = target
    h = w * height / width
    if w * h > MAX_PIXELS:
        w = int((MAX_PIXELS * width / height) ** 0.5)
        h = w * height / width
    return max(1, int(w)), max(1, round(h))


def listing(path: str) -> tuple[list[Page], dict[str, str]]:
    """([Page], its Title and Author as ComicInfo-like fields) from the page boxes alone."""
    with _lock:
        pdf = _open(path)
        try:
            count = len(pdf)
            if count > MAX_MEMBERS:
                raise Refused(f"it has more than {MAX_MEMBERS:,} pages")
            pages = [Page(member_name(i), _render_size(*pdf.get_page_size(i))) for i in range(count)]
            meta = pdf.get_metadata_dict()
        finally:
            pdf.close()
    info = {}
    for key, field in (("Title", "Title"), ("Author", "Writer")):
        value = (meta.get(key) or "").replace("\x00", "").strip()
        if value and "://" not in value:  # ImageMagick and others write their address as the author
            info[field] = value
    return pages, info


def _kept_as(member: str, width: int | None) -> str:
    """The page cache's name of a page's own JPEG (width None) or of its rendering `width` wide."""
    return f"{member}@{width or 'own'}"


def page_file(real: str, st: os.stat_result, member: str, width: int = RENDER_WIDTH) -> str | None:
    """The path, in the page cache, of the JPEG of one page (its own JPEG when that is the whole
    page, whatever the width; else its rendering `width` pixels wide, a step of WIDTHS), made now
    when it is not there yet; None when there is no such page."""
    index = _index(member)
    if index is None:
        return None
    cached = pagecache.cached(real, st, _kept_as(member, None)) or pagecache.cached(real, st, _kept_as(member, width))
    if cached:
        return cached
    data, own = _page_jpeg(real, index, width)
    if data is None:
        return None
    return pagecache.keep(real, st, _kept_as(member, None if own else width), data)


def page_jpeg(path: str, member: str) -> bytes | None:
    """The JPEG of one page: its own JPEG when that is the whole page, else drawn RENDER_WIDTH wide;
    None when the PDF has no such page. Nothing is kept (page_file() keeps it; the folder import
    does not)."""
    index = _index(member)
    return None if index is None else _page_jpeg(path, index, RENDER_WIDTH)[0]


def _page_jpeg(path: str, index: int, target: int) -> tuple[bytes | None, bool]:
    """(the JPEG of page `index`, whether it is the page's own image)."""
    with _lock:
        pdf = _open(path)
        try:
            if index >= len(pdf):
                return None, False
            page = pdf[index]
            try:
                own = _own_jpeg(page)
                if own is None:
                    width, height = page.get_size()
                    w, _ = _render_size(width, height, target)
                    image = page.render(scale=w / width if width > 0 else 1, may_draw_forms=False).to_pil()
            finally:
                page.close()
        finally:
            pdf.close()
    if own is not None:
        return own, True
    out = io.BytesIO()
    image.convert("RGB").save(out, "JPEG", quality=JPEG_QUALITY)
    return out.getvalue(), False


def _own_jpeg(page: Any) -> bytes | None:
    """The bytes of the one JPEG image that covers the page, when that is all the page holds."""
    objects = list(page.get_objects(max_depth=1))
    if len(objects) != 1 or objects[0].type != _pdfium().raw.FPDF_PAGEOBJ_IMAGE:
        return None
    image = objects[0]
    if image.get_filters() != ["DCTDecode"]:
        return None
    width, height = page.get_size()
    left, bottom, right, top = image.get_bounds()
    if (right - left) < COVERS * width or (top - bottom) < COVERS * height:
        return None
    data = bytes(image.get_data(decode_simple=False))
    return data if data[:3] == b"\xff\xd8\xff" else None

