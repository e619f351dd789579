"""An open page image, whatever holds it: a file in a folder, or a member of a CBZ/ZIP archive.

`PageFile` is what files.open_page() answers: `kind` (from the bytes), `length`, `etag`, `read()`
(the whole image, for thumbnails and downloads), `chunks()`, and `response(request)` for /lib/.

Archive members: the central directory of each archive is parsed once and kept (ARCHIVES_KEPT,
keyed by real path, inode, size and mtime, so an archive that changes is parsed again); a stored
member is then answered as a slice of the archive file (gunicorn sends it with sendfile from its
offset); a deflated one is decompressed whole (at most zipread.MAX_PAGE_BYTES) and sent only when its
size and CRC-32 match what the archive declares, so a member longer or shorter than declared is
refused (500, with a warning in the log) instead of passing for the whole page.
"""
import io
import logging
import os
import stat
import threading
from collections import OrderedDict

from django.http import FileResponse, HttpResponse, HttpResponseNotModified

from . import libarch, pagecache, pdfread, zipread
from .imagesize import CONTENT_TYPES, detect
from .names import is_page

log = logging.getLogger(__name__)

CACHE_CONTROL = "private, max-age=86400"
CSP = "sandbox; default-src 'none'"
ARCHIVES_KEPT = 64
MAX_READ = zipread.MAX_PAGE_BYTES

_directories = OrderedDict()  # (real, ino, size, mtime) → {member name: Member}
_lock = threading.Lock()


def _open_regular(real):
    """(file, stat) of a regular file opened without following a last-moment link, or None."""
    try:
        fd = os.open(real, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError("not a regular file")
        return os.fdopen(fd, "rb"), st
    except OSError:
        os.close(fd)
        return None


def _members(f, real, st):
    key = (real, st.st_ino, st.st_size, st.st_mtime_ns)
    with _lock:
        table = _directories.get(key)
        if table is not None:
            _directories.move_to_end(key)
            return table
    members, _refused = zipread.directory(f, st.st_size, lambda name: is_page(name.rpartition("/")[2]))
    table = {m.name: m for m in members}
    with _lock:
        _directories[key] = table
        while len(_directories) > ARCHIVES_KEPT:
            _directories.popitem(last=False)
    return table


class _Slice(io.RawIOBase):
    """Bytes [start, end) of an open file, at absolute positions: FileResponse takes its length
    from seek/tell, and gunicorn's sendfile starts at the file's real offset."""

    def __init__(self, f, start, length):
        self.f, self.start, self.end = f, start, start + length
        f.seek(start)

    def readable(self):
        return True

    def seekable(self):
        return True

    def fileno(self):
        return self.f.fileno()

    def tell(self):
        return self.f.tell()

    def seek(self, offset, whence=io.SEEK_SET):
        target = self.end + offset if whence == io.SEEK_END else offset if whence == io.SEEK_SET \
            else self.f.tell() + offset
        return self.f.seek(min(max(target, self.start), self.end))

    def read(self, n=-1):
        left = self.end - self.f.tell()
        return self.f.read(left if n is None or n < 0 else min(n, left)) if left > 0 else b""

    def readinto(self, buffer):
        data = self.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)

    def close(self):
        self.f.close()
        super().close()


class PageFile:
    """One open page image. Use it as a context manager, or hand it to response(), which closes it."""

    def __init__(self, f, kind, length, etag, real, member=None, start=0):
        self.f, self.kind, self.length, self.etag, self.real = f, kind, length, etag, real
        self.member, self.start = member, start
        self.content_type = CONTENT_TYPES[kind]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self.f.close()

    def chunks(self, size=zipread.CHUNK):
        """The image's bytes in chunks. A deflated member is read whole first and checked (its
        size and CRC-32): data longer or shorter than the archive declares must not pass for the
        whole page, so ValueError then."""
        if self.member is None:
            self.f.seek(0)
            return iter(lambda: self.f.read(size), b"")
        if self.member.method != 0:
            return iter([self.checked_member()])
        return zipread.chunks(self.f, self.member, self.start, size)

    def checked_member(self):
        return zipread.member_bytes(self.f, self.member, os.fstat(self.f.fileno()).st_size)

    def read(self):
        """The whole image (at most MAX_READ bytes); ValueError for a corrupt member."""
        return b"".join(self.chunks())[:MAX_READ]

    def stream(self):
        """A seekable file of the image for a decoder: the file itself, or a member read into memory."""
        if self.member is None:
            self.f.seek(0)
            return self.f
        return io.BytesIO(self.read())

    def response(self, request, *, hand_off=None):
        """The HTTP answer: 304 on a matching If-None-Match, else the bytes (or the proxy header
        `hand_off` = (name, value) for a file in a folder). Closes the page when it is not sent."""
        headers = {"ETag": self.etag, "Cache-Control": CACHE_CONTROL, "Content-Security-Policy": CSP}
        if _matches(request, self.etag):
            self.close()
            response = HttpResponseNotModified()
            for name, value in headers.items():
                response[name] = value
            return response
        if hand_off is not None and self.member is None:
            self.close()
            return HttpResponse(b"", content_type=self.content_type, headers={**headers, hand_off[0]: hand_off[1]})
        if self.member is None:
            self.f.seek(0)
            return FileResponse(self.f, content_type=self.content_type, headers=headers)
        if self.member.method == 0:
            return FileResponse(_Slice(self.f, self.start, self.length), content_type=self.content_type,
                                headers=headers)
        try:
            data = self.checked_member()  # deflated: at most MAX_PAGE_BYTES, checked before a byte is sent
        except (OSError, ValueError) as e:
            log.warning("not serving %s in %s: %s", self.member.name, self.real, e)
            return HttpResponse(f"this page cannot be read from its archive: {e}", status=500,
                                content_type="text/plain; charset=utf-8")
        finally:
            self.close()
        return HttpResponse(data, content_type=self.content_type, headers={**headers, "Content-Length": str(len(data))})


def _matches(request, etag):
    header = request.META.get("HTTP_IF_NONE_MATCH", "")
    tags = {t.strip().removeprefix("W/") for t in header.split(",")}
    return etag in tags or "*" in tags


def open_file(real):
    """The image file at the real path `real` as a PageFile, or None when it is no readable image."""
    opened = _open_regular(real)
    if opened is None:
        return None
    f, st = opened
    try:
        kind = detect(f.read(32))
    except OSError:
        kind = None
    if kind is None:
        f.close()
        return None
    return PageFile(f, kind, st.st_size, f'"{st.st_ino:x}-{st.st_size:x}-{st.st_mtime_ns:x}"', real)


def open_member(real, member_name, width=None):
    """The member `member_name` of the archive at the real path `real`, or None when it is not
    there, cannot be read, or is no image. RAR, 7z and tar: _open_libarchive(); a PDF's page is
    rendered `width` pixels wide when asked (a step of pdfread.WIDTHS)."""
    ext = real.rpartition(".")[2].casefold()
    if ext in libarch.FORMATS:
        return _open_libarchive(real, member_name)
    if ext == "pdf":
        return _open_pdf(real, member_name, pdfread.step(width))
    opened = _open_regular(real)
    if opened is None:
        return None
    f, st = opened
    try:
        try:
            table = _members(f, real, st)
        except zipread.Refused:
            if libarch.sniff(real):  # a RAR or 7z named .cbz (archives.read reads it so too)
                f.close()
                return _open_libarchive(real, member_name)
            raise
        member = table.get(member_name)
        if member is None:
            raise ValueError("no such member")
        start, head = zipread.data_start(f, member, st.st_size, 32)
        head = zipread.MemberSource(f, member, start, head).read(0, 32)
        kind = detect(head)
        if kind is None:
            raise ValueError("no image")
    except (OSError, ValueError, zipread.Refused):
        f.close()
        return None
    etag = f'"{st.st_ino:x}-{st.st_size:x}-{st.st_mtime_ns:x}-{member.offset:x}"'
    return PageFile(f, kind, member.size, etag, real, member, start)


def _archive_stat(real, member_name):
    """(stat, ETag of the member) of a regular file at `real` that the readers below open themselves."""
    opened = _open_regular(real)
    if opened is None:
        return None
    f, st = opened
    f.close()
    return st, f'"{st.st_ino:x}-{st.st_size:x}-{st.st_mtime_ns:x}-{pagecache.file_name(member_name)[:12]}"'


def _open_libarchive(real, member_name):
    """A member of a RAR, 7z or tar archive: read whole from a non-solid one (at most
    zipread.MAX_PAGE_BYTES, checked against its declared size), else from the page cache."""
    found = _archive_stat(real, member_name)
    if found is None:
        return None
    st, etag = found
    try:
        if libarch.is_solid(real, st):
            cached = pagecache.page(real, st, member_name)
            page = open_file(cached) if cached else None
            if page is not None:
                page.etag = etag
            return page
        data = libarch.member(real, member_name)
    except (OSError, libarch.Refused) as e:
        log.warning("not serving %s in %s: %s", member_name, real, e)
        return None
    kind = detect(data[:32]) if data else None
    if kind is None:
        return None
    return PageFile(io.BytesIO(data), kind, len(data), etag, None)


def _open_pdf(real, member_name, width):
    """A page of a PDF, from the page cache: the JPEG it holds when that is the whole page, else its
    rendering `width` pixels wide (pdfread.page_file)."""
    found = _archive_stat(real, member_name)
    if found is None:
        return None
    st, etag = found
    etag = f'{etag[:-1]}-{width:x}"'
    try:
        cached = pdfread.page_file(real, st, member_name, width)
    except (OSError, ValueError, pdfread.Refused) as e:
        log.warning("not serving %s in %s: %s", member_name, real, e)
        return None
    page = open_file(cached) if cached else None
    if page is not None:
        page.etag = etag
    return page
