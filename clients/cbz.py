"""Chapters and books as CBZ files for offline reading in other apps: a ZIP of the page images
(stored, not compressed: they are compressed already) with a ComicInfo.xml first, made while it is
sent (clients/zipstream.py), so nothing is copied to disk and memory holds one chunk at a time.

The same pages give the same bytes, so the answer has a Content-Length, an ETag (from the pages'
names, lengths and files), and answers a `Range` (206; 416 past the end or backwards; `If-Range`
with another ETag gets the whole archive): a download that stopped resumes where it was.

Every page goes through /lib/'s path check (library/files.py: inside LIBRARY, an image name) and
is opened without following a last-moment link; a page that cannot be read is left out, with a
warning in the log. A page that changes while the archive is sent ends the answer short (its
length no longer fits the one announced), with a warning: the app sees a broken download.
"""
import functools
import hashlib
import logging
import os
import re
from urllib.parse import quote
from xml.sax.saxutils import escape

from django.http import HttpResponse, HttpResponseNotModified, StreamingHttpResponse

from catalog import overrides
from library import files, libarch, libraries
from library import meta as library_meta
from library.folders import inside
from library.imagesize import detect
from reader import lookup

from . import zipstream

log = logging.getLogger(__name__)

CHUNK = 256 * 1024
MANGA_FLAG = {"rtl": "YesAndRightToLeft", "ltr": "No", "ttb": "No"}
# ComicInfo v2.0's elements that are written, in the order of the schema's sequence.
ORDER = ("Title", "Series", "Number", "Volume", "Summary", "Writer", "Penciller", "Genre", "PageCount", "LanguageISO",
         "Format", "Manga")
NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")  # no XML 1.0 character


def comic_info(**fields):
    """ComicInfo.xml (v2.0 schema) with the fields of ORDER given and not empty."""
    unknown = set(fields) - set(ORDER)
    if unknown:
        raise TypeError(f"not ComicInfo elements this writes: {sorted(unknown)}")
    body = "".join(f"  <{k}>{escape(NOT_XML.sub('', str(fields[k])))}</{k}>\n" for k in ORDER
                   if fields.get(k) not in ("", None))
    return ('<?xml version="1.0" encoding="utf-8"?>\n<ComicInfo xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
            'xmlns:xsd="http://www.w3.org/2001/XMLSchema">\n' + body + "</ComicInfo>\n").encode()


def _page_chunks(rel):
    page = files.open_page(rel)
    if page is None:
        raise zipstream.Mismatch(f"{rel} can no longer be read")
    with page:
        yield from page.chunks(CHUNK)


def plan(entries, info):
    """(archive, ETag) of ComicInfo.xml (`info(page count)`) then each (name in the archive, path in
    LIBRARY, its length when known, else None) that can be read. A page of unknown length is opened
    to learn it."""
    pages, identity = [], hashlib.sha256()
    for name, rel, length in entries:
        page = files.open_page(rel) if length is None else None
        if page is not None:
            with page:
                length = page.length
        if length is None or length < 0:
            log.warning("left out of a CBZ download: the page %s cannot be read", rel)
            continue
        identity.update(f"\0{name}\0{length}\0{files.page_stamp(rel)}".encode("utf-8", "surrogateescape"))
        pages.append(zipstream.Member(name, length, functools.partial(_page_chunks, rel)))
    xml = info(len(pages))
    identity.update(xml)
    etag = f'"{identity.hexdigest()[:32]}"'
    return zipstream.Archive([zipstream.Member("ComicInfo.xml", len(xml), lambda: [xml]), *pages], etag), etag


def _range(header, length):
    """(start, end) of one `bytes=` range; None to send everything (no Range, another unit, several
    ranges); False when it cannot be satisfied."""
    match = re.fullmatch(r"\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*", header or "")
    if not match or match.groups() == ("", ""):
        return None
    first, last = match.groups()
    if not first:
        suffix = int(last)
        return (max(length - suffix, 0), length) if suffix and length else False
    start = int(first)
    if start >= length or (last and int(last) < start):
        return False
    return start, min(int(last) + 1, length) if last else length


def _response(request, filename, archive, etag):
    headers = {"ETag": etag, "Accept-Ranges": "bytes", "Cache-Control": "private, no-store"}
    if etag in {t.strip().removeprefix("W/") for t in request.META.get("HTTP_IF_NONE_MATCH", "").split(",")}:
        response = HttpResponseNotModified()
        for name, value in headers.items():
            response[name] = value
        return response
    wanted = _range(request.META.get("HTTP_RANGE"), archive.length)
    if_range = request.META.get("HTTP_IF_RANGE")
    if if_range is not None and if_range.strip() != etag:
        wanted = None  # the archive changed since the part the app holds: all of it again
    if wanted is False:
        return HttpResponse(f"the range {request.META['HTTP_RANGE']} is not within the {archive.length} bytes",
                            status=416, content_type="text/plain; charset=utf-8",
                            headers={**headers, "Content-Range": f"bytes */{archive.length}"})
    start, end = wanted or (0, archive.length)
    body = _sent(archive, start, end, filename) if request.method != "HEAD" else iter(())
    response = StreamingHttpResponse(body, status=206 if wanted else 200,
                                     content_type="application/vnd.comicbook+zip", headers=headers)
    response["Content-Length"] = str(end - start)
    if wanted:
        response["Content-Range"] = f"bytes {start}-{end - 1}/{archive.length}"
    ascii_name = filename.encode("ascii", "replace").decode().replace('"', "'")
    response["Content-Disposition"] = f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(filename)}"
    return response


def _sent(archive, start, end, filename):
    try:
        yield from archive.chunks(start, end)
    except (OSError, ValueError) as e:
        log.warning("a CBZ download of %s ended short: %s", filename, e)
        raise


def _entries(version, folder=""):
    """[(name in the CBZ, path in LIBRARY, length or None)]: the lengths of a non-solid RAR, 7z or
    tar file's pages come from one pass over it (-1 for a member that is no image), where opening
    each page would walk the archive from its start again (0.6 s for a 300-page tar)."""
    listed = _archive_lengths(version)
    return [(f"{folder}{p.file}", f"{version.path}/{p.file}",
             None if listed is None else listed.get(version.archive_member(p.file), -1)) for p in version.pages()]


def _people(manga, key):
    found = manga.meta.get(key) if isinstance(manga.meta, dict) else None
    return ", ".join(a for a in found if isinstance(a, str)) if isinstance(found, list) else ""


def _series_fields(manga):
    meta = manga.meta if isinstance(manga.meta, dict) else {}
    return {"Series": manga.title, "Summary": str(meta.get("description") or ""), "Writer": _people(manga, "authors"),
            "Penciller": _people(manga, "artists"), "Genre": ", ".join(library_meta.genres(manga.meta)),
            "LanguageISO": meta.get("language") if isinstance(meta.get("language"), str) else ""}


def _volume(book_key):
    """ComicInfo's Volume (an integer): the book's number when it is a whole one."""
    return int(book_key) if book_key.isdigit() and 0 < int(book_key) < 2**31 else None  # xs:int


def _format(direction):
    return {"Manga": MANGA_FLAG.get(direction, "Unknown"), "Format": "Webtoon" if direction == "ttb" else ""}


def _chapter_parts(manga, chapter, version):
    label = lookup.chapter_label(chapter)
    fields = {"Title": chapter.title or label, "Number": chapter.key, "Volume": _volume(chapter.book),
              **_series_fields(manga), **_format(overrides.version_direction(manga, version))}
    return f"{manga.title} - {label}.cbz", _entries(version), lambda count: comic_info(**fields, PageCount=count)


def chapter_response(request, manga, chapter, version):
    filename, entries, info = _chapter_parts(manga, chapter, version)
    return _response(request, filename, *plan(entries, info))


def book_response(request, manga, book, versions):
    """A whole book: each chapter's pages in a folder of its own, in reading order.
    `versions` is [(chapter, version)]."""
    entries = []
    for n, (chapter, version) in enumerate(versions, start=1):
        entries += _entries(version, f"{n:04d} {lookup.chapter_label(chapter)}/")
    heading = lookup.book_heading(book) or manga.title
    direction = (overrides.version_direction(manga, versions[0][1]) if versions
                 else overrides.manga_direction(manga)[0])
    fields = {"Title": book.title or heading, "Number": book.key, "Volume": _volume(book.key),
              **_series_fields(manga), **_format(direction)}
    return _response(request, f"{manga.title} - {heading}.cbz",
                     *plan(entries, lambda count: comic_info(**fields, PageCount=count)))


def chapter_size(manga, chapter, version):
    """The length of the chapter's CBZ download, for the apps' book lists, without reading a page:
    exact for pages in folders, CBZ/ZIP files and non-solid RAR, 7z and tar files (their lengths
    are in a directory or a header); for a solid archive or a PDF, whose pages are known only once
    unpacked or rendered, an estimate: the file's size shared out among the pages the library holds
    in it."""
    _, entries, info = _chapter_parts(manga, chapter, version)
    members = []
    folder = _folder_sizes(version.path) if version.archive is None else None
    estimated = version.archive is not None and _ext(version.archive) in (*libarch.FORMATS, "pdf")
    share = None
    for name, rel, known in entries:
        if known is not None:  # a non-solid archive's, from its listing
            length = known if known >= 0 else None
        elif folder is not None:
            length = folder.get(name)
        elif estimated:
            share = _share(manga, version.archive) if share is None else share
            length = share
        else:
            page = files.open_page(rel)
            length = page.length if page else None
            if page:
                page.close()
        if length is not None:  # else a page left out of the download
            members.append(zipstream.Member(name, length, list))
    xml = zipstream.Member("ComicInfo.xml", len(info(len(members))), list)
    return zipstream.Archive([xml, *members], None).length


def _ext(path):
    return path.rpartition(".")[2].casefold()


def _real_archive(archive):
    root = os.path.realpath(libraries.root_of(archive.split("/", 1)[0]))
    real = os.path.realpath(os.path.join(root, *archive.split("/")))
    return real if inside(real, root) else None


def _folder_sizes(path):
    """{file name: size} of a chapter folder, in one listing (each page's own path check costs
    about ten times as much, and the download makes it anyway)."""
    real = files.library_folder(path)
    if real is None:
        return {}
    try:
        with os.scandir(real) as found:
            return {e.name: e.stat().st_size for e in found if e.is_file()}
    except OSError:
        return {}


def _archive_lengths(version):
    """{member: length} of a non-solid RAR, 7z or tar file's image members; None for anything else
    (a folder, a ZIP, a PDF, a solid archive, one that cannot be listed): each page is opened."""
    if version.archive is None or _ext(version.archive) not in libarch.FORMATS:
        return None
    real = _real_archive(version.archive)
    try:
        st = os.stat(real) if real else None
        listed = _listed(real, st.st_ino, st.st_size, st.st_mtime_ns) if st else None
    except (OSError, libarch.Refused):
        return None
    return dict(listed) if listed is not None else None


@functools.lru_cache(maxsize=256)
def _listed(real, ino, size, mtime_ns):
    """((member, declared length), …) of a non-solid archive's members whose first bytes are an
    image's, in one pass; None for a solid one, whose headers can be walked only by unpacking it."""
    if libarch.is_solid(real):
        return None
    directory, heads = libarch.listing(real, lambda name: 32)
    return tuple((m.name, m.size) for m in directory.members if detect(heads.get(m.name, b"")))


def _share(manga, archive):
    pages = sum(v.page_count for c in manga.chapters() for v in c.versions if v.archive == archive)
    real = _real_archive(archive)
    try:
        size = os.stat(real).st_size if real else 0
    except OSError:
        return 0
    return size // pages if pages else 0
