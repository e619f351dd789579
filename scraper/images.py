"""Verify page bytes as a real image of an allowed type; the extension comes from the bytes."""
import io
import warnings

from PIL import Image

from .errors import BadImage

EXTENSIONS = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp", "GIF": "gif", "AVIF": "avif"}


def verify(data, scaled=False):
    """-> (ext, width, height), or BadImage naming what is wrong.

    Only the formats in EXTENSIONS are tried (never SVG or TIFF), the header is checked, then the
    whole image is decoded so a truncated file is caught, with the bomb warning raised as an error.
    `scaled`: a JPEG is decoded at 1/8 of its size, which still reads every coefficient of the file
    (so a truncated one fails the same) but skips most of the inverse DCT.
    """
    if not data:
        raise BadImage("the page is empty")
    head = data[:512].lstrip().lower()
    if head.startswith((b"<!doctype", b"<html", b"<?xml", b"<svg")):
        raise BadImage("the server sent HTML or SVG instead of an image")
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            with Image.open(io.BytesIO(data), formats=list(EXTENSIONS)) as im:
                # Past Image.MAX_IMAGE_PIXELS the open itself warns, which is an error here.
                fmt, (width, height) = im.format, im.size
                im.verify()
            with Image.open(io.BytesIO(data), formats=[fmt]) as im:
                if scaled and fmt == "JPEG":
                    im.draft(im.mode, (max(1, width // 8), max(1, height // 8)))
                im.load()
        except (Image.DecompressionBombWarning, Image.DecompressionBombError):
            raise BadImage("the image is a decompression bomb") from None
        except Exception as e:  # Pillow raises many kinds for broken input
            raise BadImage(f"not an image of an allowed type (JPEG, PNG, WebP, GIF, AVIF): {e}") from None
    return EXTENSIONS[fmt], width, height
