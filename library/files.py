"""Serving page images from LIBRARY (and thumbnails from DATA) without ever serving anything else.

`open_page(rel)` is the one way to a page's bytes, for /lib/, thumbnails and anything else that
needs them: a file in a chapter folder, or a member of a CBZ/ZIP archive (pagefile.py). It answers
None when:
- a segment is empty, `.`, `..`, hidden (`.staging`) or a system name, or the path holds NUL or `\\`;
- the name (and the name the path really resolves to) has no page extension;
- the real path, symlinks resolved, is not inside LIBRARY;
- the path leads into an archive the index holds, and the index does not hold that member;
- the file (or member) is not a regular file whose magic bytes name an image format.
The URL is decoded once, by the server; `%2e%2e` that arrives still encoded is a file name like any
other, and does not exist.

`page_response()` answers with the Content-Type from those bytes, an ETag (304 on If-None-Match),
`Cache-Control: private, max-age=86400` and `Content-Security-Policy: sandbox; default-src 'none'`
(nosniff comes from Django's SecurityMiddleware, as on every response). The body is a
FileResponse (gunicorn sends it with sendfile, an archive's stored member from its offset), a
stream decompressed as it goes (a deflated member), or, with SENDFILE_HEADER set, an empty
response that hands a folder's file to the reverse proxy: only after the session check that the
view did first.
"""
from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING, Literal
from urllib.parse import quote

from django.conf import settings

from mangacircus.memo import PerObject

from . import index, libarch, libraries, pagecache, pagefile, pdfread
from .folders import inside
from .names import ARCHIVE_EXTENSIONS, IMAGE_EXTENSIONS, extension, is_ignored

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponseBase

    from mangacircus.jsonfile import StrPath

    from .model import Page, Version
    from .pagefile import PageFile

MAX_PATH = 4096


@functools.lru_cache(maxsize=64)
def _real_root(root: StrPath) -> str:
    """LIBRARY's real path, resolved once per process: LIBRARY is fixed at start, and resolving it
    again cost 36 µs of lstat calls on every /lib/ request, twice with the hand-off (docs/performance.md).
    Should LIBRARY be a link re-pointed while the reader runs, pages are still served only from
    inside the folder it named at the first request, until a restart."""
    return os.path.realpath(root)


def _root(rel: str) -> str | None:
    """The folder of the library holding the manga `rel` begins with (libraries.py)."""
    root = libraries.root_of(rel.split("/", 1)[0])
    return None if root is None else str(root)


def library_page(rel: str) -> str | None:
    """The real path of the page image named by `rel` (relative to its library's folder), or None."""
    root = _root(rel)
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


def library_folder(rel: str) -> str | None:
    """The real path of the folder named by `rel` (relative to its library's folder), checked like a page's, or None."""
    root = _root(rel)
    if root is None or not rel or len(rel) > MAX_PATH or "\0" in rel or "\\" in rel:
        return None
    parts = rel.split("/")
    if any(not p or p in (".", "..") or is_ignored(p) for p in parts):
        return None
    root_real = _real_root(root)
    real = os.path.realpath(os.path.join(root_real, *parts))
    return real if real != root_real and inside(real, root_real) and os.path.isdir(real) else None


def sendfile_prefix(library: libraries.Library) -> str:
    """The proxy's internal location of a library's files: SENDFILE_PREFIX for the first, then
    SENDFILE_PREFIX with `-<n>-<name>` for the others (docs/proxy.md, "Several libraries")."""
    prefix = settings.SENDFILE_PREFIX.rstrip("/")
    return prefix if not library.slug else f"{prefix}-{library.slug}"


def _proxy_path(real: str, rel: str) -> str | None:
    """The file's path for the proxy hand-off, or None when the header could not carry it."""
    if settings.SENDFILE_HEADER == "x-accel-redirect":
        library = libraries.of(rel.split("/", 1)[0])
        if library is None:
            return None
        # nginx expects an escaped URI; quote() leaves nothing a header could choke on.
        return sendfile_prefix(library) + "/" + quote(os.path.relpath(real, _real_root(str(library.root))))
    if any(ord(c) < 32 or c == "\x7f" for c in real):
        return None
    return real.encode("utf-8", "surrogateescape").decode("latin-1")  # raw bytes, as the file system has them


def _in_archive(rel: str) -> tuple[str, str] | Literal[False] | None:
    """(real path of the archive, member name) when the index holds `rel` as a page inside an
    archive; False when `rel` points into an indexed archive at something the index does not hold;
    None when it names no archive of the index (a file in a folder, then)."""
    parts = rel.split("/")
    manga = index.current().get(parts[0])
    if manga is None:
        return None
    for i in range(1, len(parts) - 1):
        if extension(parts[i]) in ARCHIVE_EXTENSIONS:
            archive = "/".join(parts[:i + 1])
            if manga.holds_archive(archive):
                member = "/".join(parts[i + 1:])
                if not manga.holds_member(archive, member):
                    return False
                root = _root(rel)
                if root is None:
                    return False
                root_real = _real_root(root)
                real = os.path.realpath(os.path.join(root_real, *parts[:i + 1]))
                if not inside(real, root_real) or extension(real) not in ARCHIVE_EXTENSIONS:
                    return False
                return real, member
    return None


def _checked(rel: str) -> bool:
    return (bool(libraries.all()) and bool(rel) and len(rel) <= MAX_PATH and "\0" not in rel and "\\" not in rel
            and not any(not p or p in (".", "..") or is_ignored(p) for p in rel.split("/"))
            and extension(rel) in IMAGE_EXTENSIONS)


def open_page(rel: str, width: int | None = None) -> PageFile | None:
    """The page image at `rel` (relative to its library's folder, as in a /lib/ URL), opened and checked, or None.

    The one way to a page's bytes, whatever holds it: a file in a chapter folder (library_page's
    checks) or a member of a CBZ/ZIP archive, which must be a page the index holds. The answer is
    a pagefile.PageFile: `kind`, `length`, `etag`, `read()`, `chunks()`, `response(request)`; close it
    (or use `with`) unless response() was called. `width`: the pixels a PDF page is wanted at (the
    other pages have one size)."""
    if not _checked(rel):
        return None
    found = _in_archive(rel)
    if found is False:
        return None
    if found:
        return pagefile.open_member(*found, width=width)
    real = library_page(rel)
    return pagefile.open_file(real) if real else None


# version.pages() parses each page's name (its index, tags): a tenth of GET /api/chapter's own time.
_pages = PerObject(lambda version: version.pages())


def pages_with_sizes(version: Version) -> list[Page]:
    """version.pages(), with the sizes the scan could not read of a solid archive's pages (RAR
    solid, 7z) taken from the page cache, which unpacks the archive now if it has not yet: the
    first page would need that anyway (docs/library.md, "Archives")."""
    pages = list(_pages(version))
    root = _root(version.archive) if version.archive else None
    if version.archive is None or all(p.w for p in pages) or root is None:
        return pages
    root_real = _real_root(root)
    real = os.path.realpath(os.path.join(root_real, *version.archive.split("/")))
    if not inside(real, root_real) or extension(real) not in ARCHIVE_EXTENSIONS:
        return pages
    try:
        st = os.stat(real)
        if not libarch.is_solid(real, st):
            return pages
        measured = pagecache.sizes(real, st)
    except (OSError, libarch.Refused):
        return pages
    out = []
    for p in pages:
        size = measured.get(version.archive_member(p.file)) if not p.w else None
        out.append(p._replace(w=size[0], h=size[1]) if size else p)
    return out


def widths(version: Version) -> list[int] | None:
    """The widths its pages can be asked at (/lib/…?w=): a PDF's rendering ladder; None for the
    other pages, which have one size."""
    return list(pdfread.WIDTHS) if version.archive and extension(version.archive) == "pdf" else None


def page_stamp(rel: str) -> str | None:
    """What identifies the bytes of the page at `rel` without opening it (thumbnail names):
    the holding file's inode, size and mtime, and the member's name in an archive; None when gone."""
    if not _checked(rel):
        return None
    found = _in_archive(rel)
    if found is False:
        return None
    real, member = found or (library_page(rel), "")
    try:
        st = os.stat(real) if real else None
    except OSError:
        return None
    return st and f"{st.st_ino}\0{st.st_size}\0{st.st_mtime_ns}\0{member}"


def page_response(request: HttpRequest, rel: str, width: int | None = None) -> HttpResponseBase | None:
    """The /lib/ answer for the page at `rel` (`width`: open_page's), or None (404)."""
    page = open_page(rel, width)
    if page is None:
        return None
    hand_off = None
    if settings.SENDFILE_HEADER and page.member is None and page.real is not None:
        path = _proxy_path(page.real, rel)
        if path is not None:
            hand_off = ("X-Accel-Redirect" if settings.SENDFILE_HEADER == "x-accel-redirect" else "X-Sendfile", path)
    return page.response(request, hand_off=hand_off)


def image_response(request: HttpRequest, real: str) -> HttpResponseBase | None:
    """A file that is not in LIBRARY (a thumbnail in DATA) answered the same way, or None."""
    page = pagefile.open_file(real)
    return page.response(request) if page else None
