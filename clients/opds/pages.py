"""The image type a chapter's Page Streaming link declares, and the JPEG copies of pages that need one.

OPDS-PSE gives one templated link per chapter with one `type` for all its pages. A chapter whose
pages share one type (by file name) declares it and its pages are sent as they are. A chapter that
mixes types declares image/jpeg, and its link asks for `type=jpeg`: each page that is not a JPEG is
then converted with Pillow (quality 90) and the copy kept in memory, up to CACHE_BYTES in all, the
least recently sent dropped first (docs/apps.md, "OPDS readers")."""
import io
import threading
from collections import OrderedDict

from django.http import HttpResponse, HttpResponseNotModified
from PIL import Image

from library import files, pagefile

from ..komga.dto import MEDIA_TYPES

JPEG = "image/jpeg"
QUALITY = 90
CACHE_BYTES = 64 << 20

_cache: OrderedDict[tuple[str, str], bytes] = OrderedDict()
_cached_bytes = 0
_lock = threading.Lock()


def stream_type(version):
    """(the type the PSE link declares, whether its pages must be asked for as JPEG)."""
    found = {MEDIA_TYPES.get(name.rpartition(".")[2].casefold()) for name in version.files()}
    if len(found) == 1 and None not in found:
        return found.pop(), False
    return JPEG, True


def as_jpeg(image_bytes):
    with Image.open(io.BytesIO(image_bytes)) as image:
        image.load()
        if image.mode in ("RGBA", "LA", "P", "PA"):  # transparency shows as white, as on paper
            rgba = image.convert("RGBA")
            flat = Image.new("RGB", rgba.size, (255, 255, 255))
            flat.paste(rgba, mask=rgba.getchannel("A"))
            image = flat
        elif image.mode != "RGB":
            image = image.convert("RGB")
        out = io.BytesIO()
        image.save(out, "JPEG", quality=QUALITY)
        return out.getvalue()


def _remember(key, data):
    global _cached_bytes
    with _lock:
        if key not in _cache:
            _cache[key] = data
            _cached_bytes += len(data)
        _cache.move_to_end(key)
        while _cached_bytes > CACHE_BYTES and len(_cache) > 1:
            _, dropped = _cache.popitem(last=False)
            _cached_bytes -= len(dropped)


def _cached(key):
    with _lock:
        data = _cache.get(key)
        if data is not None:
            _cache.move_to_end(key)
        return data


def jpeg_response(request, rel):
    """The page at `rel` as a JPEG: itself when it is one, else its converted copy; None when it
    cannot be read (404)."""
    page = files.open_page(rel)
    if page is None:
        return None
    if page.kind == "jpeg":
        return page.response(request)
    etag = page.etag[:-1] + '-jpeg"'
    headers = {"ETag": etag, "Cache-Control": pagefile.CACHE_CONTROL, "Content-Security-Policy": pagefile.CSP}
    if etag in {t.strip().removeprefix("W/") for t in request.META.get("HTTP_IF_NONE_MATCH", "").split(",")}:
        page.close()
        response = HttpResponseNotModified()
        for name, value in headers.items():
            response[name] = value
        return response
    key = (rel, etag)
    data = _cached(key)
    if data is None:
        try:
            with page:
                data = as_jpeg(page.read())
        except (OSError, ValueError, Image.DecompressionBombError) as e:
            return HttpResponse(f"this page cannot be converted to JPEG: {e}", status=500,
                                content_type="text/plain; charset=utf-8")
        _remember(key, data)
    else:
        page.close()
    return HttpResponse(data, content_type=JPEG, headers={**headers, "Content-Length": str(len(data))})
