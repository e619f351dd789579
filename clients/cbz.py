"""Chapters and books as CBZ files for offline reading in other apps: a ZIP of the page images
(stored, not compressed: they are compressed already) with a ComicInfo.xml, streamed while it
is written, so nothing is copied to disk and memory holds one chunk at a time.

Every page goes through /lib/'s path check (library/files.py: inside LIBRARY, an image name) and
is opened without following a last-moment link; a page that cannot be read is left out.
"""
import time
import zipfile
from urllib.parse import quote
from xml.sax.saxutils import escape

from django.http import StreamingHttpResponse

from catalog import overrides
from library import files
from reader import lookup

CHUNK = 256 * 1024
MANGA_FLAG = {"rtl": "YesAndRightToLeft", "ltr": "No", "ttb": "No"}


class _Sink:
    """A write-only, unseekable file for ZipFile: it keeps what was written until taken."""

    def __init__(self):
        self.parts, self.size = [], 0

    def write(self, data):
        self.parts.append(bytes(data))
        self.size += len(data)
        return len(data)

    def tell(self):
        return self.size

    def flush(self):
        pass

    def take(self):
        data = b"".join(self.parts)
        self.parts = []
        return data


def comic_info(*, series, number, title, direction, pages, summary="", writer=""):
    fields = [("Title", title), ("Series", series), ("Number", number), ("Summary", summary), ("Writer", writer),
              ("PageCount", str(pages)), ("Manga", MANGA_FLAG.get(direction, "Unknown"))]
    if direction == "ttb":
        fields.append(("Format", "Webtoon"))
    body = "".join(f"  <{k}>{escape(str(v))}</{k}>\n" for k, v in fields if v not in ("", None))
    return ('<?xml version="1.0" encoding="utf-8"?>\n<ComicInfo xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
            'xmlns:xsd="http://www.w3.org/2001/XMLSchema">\n' + body + "</ComicInfo>\n").encode()


def stream(entries, info):
    """Yield the ZIP's bytes: ComicInfo.xml, then each (name in the archive, path in LIBRARY)."""
    sink = _Sink()
    stamp = time.gmtime()[:6]
    with zipfile.ZipFile(sink, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr(zipfile.ZipInfo("ComicInfo.xml", stamp), info)
        yield sink.take()
        for name, rel in entries:
            source = files.open_page(rel)  # a file in a folder or a member of an archive
            if source is None:
                continue
            with source, archive.open(zipfile.ZipInfo(name, stamp), "w", force_zip64=True) as target:
                for chunk in source.chunks(CHUNK):
                    target.write(chunk)
                    yield sink.take()
            yield sink.take()
    yield sink.take()


def _entries(version, folder=""):
    return [(f"{folder}{page.file}", f"{version.path}/{page.file}") for page in version.pages()]


def _response(filename, entries, info):
    response = StreamingHttpResponse(stream(entries, info), content_type="application/vnd.comicbook+zip")
    ascii_name = filename.encode("ascii", "replace").decode().replace('"', "'")
    response["Content-Disposition"] = f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(filename)}"
    response["Cache-Control"] = "private, no-store"
    return response


def _writer(manga):
    authors = manga.meta.get("authors") if isinstance(manga.meta, dict) else None
    return ", ".join(a for a in authors if isinstance(a, str)) if isinstance(authors, list) else ""


def chapter_response(manga, chapter, version):
    label = lookup.chapter_label(chapter)
    info = comic_info(series=manga.title, number=chapter.key if chapter.book == "0" else chapter.id,
                      title=chapter.title or label, direction=overrides.version_direction(manga, version),
                      pages=version.page_count,
                      summary=str(manga.meta.get("description") or ""), writer=_writer(manga))
    return _response(f"{manga.title} - {label}.cbz", _entries(version), info)


def book_response(manga, book, versions):
    """A whole book: each chapter's pages in a folder of its own, in reading order.
    `versions` is [(chapter, version)]."""
    entries = []
    for n, (chapter, version) in enumerate(versions, start=1):
        entries += _entries(version, f"{n:04d} {lookup.chapter_label(chapter)}/")
    heading = lookup.book_heading(book) or manga.title
    pages = sum(v.page_count for _, v in versions)
    direction = (overrides.version_direction(manga, versions[0][1]) if versions
                 else overrides.manga_direction(manga)[0])
    info = comic_info(series=manga.title, number=book.key, title=book.title or heading, direction=direction,
                      pages=pages, summary=str(manga.meta.get("description") or ""), writer=_writer(manga))
    return _response(f"{manga.title} - {heading}.cbz", entries, info)
