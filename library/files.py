"""Serving image files from LIBRARY (and thumbnails from DATA) without ever serving anything else.

`library_page(rel)` turns a URL path into a real file path, or None when:
- a segment is empty, `.`, `..`, hidden (`.staging`) or a system name, or the path holds NUL or `\\`;
- the name (and the name the path really resolves to) has no page extension;
- the real path, symlinks resolved, is not inside LIBRARY.
The URL is decoded once, by the server; `%2e%2e` that arrives still encoded is a file name like any
other, and does not exist.

`image_response()` then opens the file without following a last-moment link, checks that it is a
regular file whose magic bytes name an image format (the Content-Type comes from those bytes, not
from the name), and answers with an ETag (304 on If-None-Match), `Cache-Control: private,
max-age=86400` and `Content-Security-Policy: sandbox; default-src 'none'` (nosniff comes from
Django's SecurityMiddleware, as on every response). The body is a FileResponse (gunicorn sends it
with sendfile), or, with SENDFILE_HEADER set, an empty response that hands the file to the reverse
proxy: only after the session check that the view did first.
"""
import functools
import os
import stat
from urllib.parse import quote

from django.conf import settings
from django.http import FileResponse, HttpResponse, HttpResponseNotModified

from .folders import inside
from .imagesize import CONTENT_TYPES, detect
from .names import IMAGE_EXTENSIONS, extension, is_ignored

CACHE_CONTROL = "private, max-age=86400"
CSP = "sandbox; default-src 'none'"
MAX_PATH = 4096


@functools.lru_cache(maxsize=4)
def _real_root(root):
    """LIBRARY's real path, resolved once per process: LIBRARY is fixed at start, and resolving it
    again cost 36 µs of lstat calls on every /lib/ request, twice with the hand-off (docs/performance.md).
    Should LIBRARY be a link re-pointed while the reader runs, pages are still served only from
    inside the folder it named at the first request, until a restart."""
    return os.path.realpath(root)


def library_page(rel):
    """The real path of the page image named by `rel` (relative to LIBRARY), or None."""
    root = settings.LIBRARY
    if root is None or not rel or len(rel) > MAX_PATH or "\0" in rel or "\\" in rel:
        return None
    parts = rel.split("/")
    if any(not p or p in (".", "..") or is_ignored(p) for p in parts):
        return None
    if extension(parts[-1]) not in IMAGE_EXTENSIONS:
        return None
    root_real = _real_root(root)
    real = os.path.realpath(os.path.join(root_real, *parts))
    if real == root_real or not inside(real, root_real) or extension(real) not in IMAGE_EXTENSIONS:
        return None
    return real


def library_folder(rel):
    """The real path of the folder named by `rel` (relative to LIBRARY), checked like a page's, or None."""
    root = settings.LIBRARY
    if root is None or not rel or len(rel) > MAX_PATH or "\0" in rel or "\\" in rel:
        return None
    parts = rel.split("/")
    if any(not p or p in (".", "..") or is_ignored(p) for p in parts):
        return None
    root_real = _real_root(root)
    real = os.path.realpath(os.path.join(root_real, *parts))
    return real if real != root_real and inside(real, root_real) and os.path.isdir(real) else None


def _etag(st):
    return f'"{st.st_ino:x}-{st.st_size:x}-{st.st_mtime_ns:x}"'


def _matches(request, etag):
    header = request.META.get("HTTP_IF_NONE_MATCH", "")
    tags = {t.strip().removeprefix("W/") for t in header.split(",")}
    return etag in tags or "*" in tags


def _proxy_path(real):
    """The file's path for the proxy hand-off, or None when the header could not carry it."""
    root_real = _real_root(settings.LIBRARY)
    if settings.SENDFILE_HEADER == "x-accel-redirect":
        # nginx expects an escaped URI; quote() leaves nothing a header could choke on.
        return settings.SENDFILE_PREFIX.rstrip("/") + "/" + quote(os.path.relpath(real, root_real))
    if any(ord(c) < 32 or c == "\x7f" for c in real):
        return None
    return real.encode("utf-8", "surrogateescape").decode("latin-1")  # raw bytes, as the file system has them


def image_response(request, real, *, proxy=True):
    """The image at the real path `real`, or None when it is no readable image file."""
    try:
        fd = os.open(real, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError("not a regular file")
        f = os.fdopen(fd, "rb")
    except OSError:
        os.close(fd)
        return None
    try:
        kind = detect(f.read(32))
    except OSError:
        kind = None
    if kind is None:
        f.close()
        return None
    etag = _etag(st)
    headers = {"ETag": etag, "Cache-Control": CACHE_CONTROL, "Content-Security-Policy": CSP}
    if _matches(request, etag):
        f.close()
        response = HttpResponseNotModified()
        for name, value in headers.items():
            response[name] = value
        return response
    hand_off = _proxy_path(real) if proxy and settings.SENDFILE_HEADER else None
    if hand_off is not None:
        f.close()
        header = "X-Accel-Redirect" if settings.SENDFILE_HEADER == "x-accel-redirect" else "X-Sendfile"
        return HttpResponse(b"", content_type=CONTENT_TYPES[kind], headers={**headers, header: hand_off})
    f.seek(0)
    return FileResponse(f, content_type=CONTENT_TYPES[kind], headers=headers)
