"""Cover thumbnails: small WebP files in DATA/thumbs/, made with Pillow, disposable.

A thumbnail's file name is a hash of the manga, its cover's path, inode, size and mtime, so a
changed cover gets a new file (and a new ETag) and the old one is removed by the next clean-up.
They are made in a background thread after each scan for the manga that changed (all of them
after the start-up restore), and on demand by /thumb/<manga> when one is missing.

Pillow only ever opens the five page formats (formats allowlist); an image whose declared size is
beyond Image.MAX_IMAGE_PIXELS is refused before any decoding, and DecompressionBombWarning is
turned into an error for the whole process as a second guard.
"""
import hashlib
import logging
import os
import queue
import re
import threading
import warnings
from io import BytesIO
from pathlib import Path

from django.conf import settings
from PIL import Image, ImageOps

from mangacircus import pauses
from mangacircus.jsonfile import write_atomic

from . import files, index
from .names import parse_page

log = logging.getLogger(__name__)

warnings.simplefilter("error", Image.DecompressionBombWarning)

FORMATS = ("JPEG", "PNG", "WEBP", "GIF", "AVIF")
BOX = (360, 540)  # twice the cover grid's cell, for sharp covers on dense screens
QUALITY = 80
SCHEME = "1"  # bump to remake every thumbnail after changing BOX, QUALITY or the method

_make_lock = threading.Lock()
_failed = set()  # keys whose cover could not be made into a thumbnail: not retried until it changes
_queue = queue.Queue()
_thread = None


def folder():
    return settings.DATA / "thumbs"


_chooser = None  # a higher layer's manga → chosen cover path (catalog overrides), or None


def choose_covers(chooser):
    """Let `chooser(manga)` name a cover instead of the folder's: a page (a path relative to LIBRARY,
    as a str) or an image file in DATA (an absolute pathlib.Path: a provider's cover)."""
    global _chooser
    _chooser = chooser


def cover_path(manga):
    chosen = _chooser(manga) if _chooser and manga is not None else None
    return chosen or (manga.cover if manga is not None else None)


FILE_NAME = re.compile(r"[0-9a-f]{32}\.webp")  # key() + ".webp": a thumbnail's file in folder()


def key(manga):
    """The thumbnail's name for this manga's cover as it is on disk now, or None without a cover."""
    path = cover_path(manga)
    found = _data_stamp(path) if isinstance(path, Path) else files.page_stamp(path) if path else None
    if found is None:
        return None
    raw = "\0".join((SCHEME, manga.name, str(path), found))
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _data_stamp(path):
    """The inode, size and mtime of a cover file in DATA, or None when it is gone."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return f"{st.st_ino}\0{st.st_size}\0{st.st_mtime_ns}"


def render(source, rotation=0, box=BOX, quality=QUALITY):
    """WebP bytes of a thumbnail of the image `source` (a path or a file), to fit `box`.
    Raises on anything unreadable."""
    with Image.open(source, formats=FORMATS) as im:
        if im.width * im.height > Image.MAX_IMAGE_PIXELS:
            raise Image.DecompressionBombError(f"{im.width}×{im.height} is too large to decode")
        im.draft("RGB", (box[0] * 2, box[1] * 2))  # JPEG: decode at a reduced scale
        im = ImageOps.exif_transpose(im)
        if rotation:
            im = im.rotate(-rotation, expand=True)
        alpha = im.mode in ("RGBA", "LA") or (im.mode == "P" and "transparency" in im.info)
        im = im.convert("RGBA" if alpha else "RGB")
        im.thumbnail(box, Image.Resampling.LANCZOS)
        out = BytesIO()
        im.save(out, "WEBP", quality=quality, method=4)
        return out.getvalue()


def make(manga):
    """The thumbnail file of this manga, made now if missing; None when it has no usable cover."""
    name = key(manga)
    if name is None or name in _failed:
        return None
    target = folder() / f"{name}.webp"
    if target.exists():
        return target
    with _make_lock:
        if target.exists():
            return target
        path = cover_path(manga)
        try:
            if isinstance(path, Path):
                data = render(path)
            else:
                page = files.open_page(path)
                if page is None:
                    raise OSError("the cover cannot be opened")
                with page:
                    data = render(page.stream(), parse_page(os.path.basename(path)).rotation)
        except Exception as e:  # Pillow raises many kinds for broken files; none may break a request
            _failed.add(name)
            log.warning("no thumbnail for %r from %s: %s", manga.name, path, e)
            return None
        folder().mkdir(parents=True, exist_ok=True)
        write_atomic(target, data)
    return target


def clean(current):
    """Remove thumbnails that belong to no current cover."""
    keep = {f"{k}.webp" for k in (key(m) for m in current.manga.values()) if k}
    try:
        entries = list(os.scandir(folder()))
    except FileNotFoundError:
        return 0
    removed = 0
    for entry in entries:
        if entry.name not in keep:
            try:
                os.unlink(entry.path)
                removed += 1
            except OSError:
                pass
    return removed


def on_scan(current, report):
    """Scan hook: queue the manga that were added or changed; the worker makes and cleans."""
    names = report["changed"]["added"] + report["changed"]["changed"]
    if names or report["changed"]["removed"]:
        _queue.put(names)


def _work():
    pauses.background()
    while True:
        names = _queue.get()
        if names is None:
            return
        for name in names:
            manga = index.current().get(name)
            if manga is not None:
                make(manga)
        clean(index.current())


def start():
    global _thread
    if _thread is None:
        _thread = threading.Thread(target=_work, name="cover thumbnails", daemon=True)
        _thread.start()


def stop():
    global _thread
    if _thread is not None:
        _queue.put(None)
        _thread.join(10)
        _thread = None
