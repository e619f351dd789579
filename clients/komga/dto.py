"""The Komga DTOs, every key present (Komelia's decoder refuses a missing one, nullable or not),
dates as yyyy-MM-dd'T'HH:mm:ss'Z' in UTC, enums in upper case (docs/apps.md)."""
import functools
from datetime import date, datetime, timezone

from catalog import overrides
from library import files as library_files
from library import libraries
from library import meta as library_meta
from library.model import stamp_ms
from reader import access, lookup
from shelf import manga_detail

from .. import cbz
from . import ids, numbering, state

STATUS = {"ongoing": "ONGOING", "completed": "ENDED", "ended": "ENDED", "finished": "ENDED", "hiatus": "HIATUS",
          "cancelled": "ABANDONED", "abandoned": "ABANDONED", "dropped": "ABANDONED"}
DIRECTION = {"rtl": "RIGHT_TO_LEFT", "ltr": "LEFT_TO_RIGHT", "ttb": "WEBTOON"}
# A book's media type as Komga reports it, by the archive's extension (folders read as ZIP).
ARCHIVE_TYPES = {"cbr": "application/x-rar-compressed", "rar": "application/x-rar-compressed",
                 "cb7": "application/x-7z-compressed", "7z": "application/x-7z-compressed",
                 "cbt": "application/x-tar", "tar": "application/x-tar"}
MEDIA_TYPES = {"jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp",
               "gif": "image/gif", "avif": "image/avif"}


@functools.lru_cache(maxsize=65_536)
def dt(ms):
    return datetime.fromtimestamp((ms or 0) / 1000, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def text(meta, key):
    value = (meta or {}).get(key)
    return value.strip() if isinstance(value, str) else ""


def strings(meta, key):
    value = (meta or {}).get(key)
    if isinstance(value, str):
        value = [value]
    return [v for v in value if isinstance(v, str) and v.strip()] if isinstance(value, list) else []


def genres(manga):
    """SeriesMetadata.genres: manga.json's genres or ComicInfo's Genre."""
    return library_meta.genres(manga.meta)


def series_tags(manga):
    """SeriesMetadata.tags: manga.json's tags (ComicInfo's Tags are the books', as in Komga)."""
    return library_meta.strings(manga.meta, "tags")


def book_tags(manga):
    """Every tag of the manga's chapters (booksMetadata.tags)."""
    return library_meta.chapter_tags(manga.meta)


def all_tags(manga):
    """What Komga's series `tag` filter matches: the series' tags and its books'."""
    return series_tags(manga) + book_tags(manga)


def series_status(manga):
    return STATUS.get(text(manga.meta, "status").lower(), "ONGOING")


def release_date(manga):
    year = (manga.meta or {}).get("year")
    if isinstance(year, int) and not isinstance(year, bool) and 1 <= year <= 9999:
        return f"{year:04d}-01-01"
    return None


def authors(manga):
    return ([{"name": a, "role": "writer"} for a in strings(manga.meta, "authors")]
            + [{"name": a, "role": "penciller"} for a in strings(manga.meta, "artists")])


def links(manga):
    found = []
    for link in (manga.meta or {}).get("links") or []:
        if isinstance(link, dict) and isinstance(link.get("url"), str) and link["url"].startswith(("http://", "https://")):
            found.append({"label": str(link.get("name") or link.get("label") or ""), "url": link["url"]})
    url = text(manga.meta, "url")
    if url.startswith(("http://", "https://")):
        found.append({"label": "Source", "url": url})
    return found


def counts(manga, entries):
    chapters = manga.chapters()
    read = sum(1 for c in chapters if (entries.get(c.id) or {}).get("done"))
    started = sum(1 for c in chapters if c.id in entries and not entries[c.id].get("done"))
    return len(chapters), read, started


def series(manga, entries):
    total, read, started = counts(manga, entries)
    created, modified = dt(manga.added), dt(manga.updated)
    return {
        "id": ids.series_id(manga.name), "libraryId": ids.library_of(manga.name), "name": manga.name, "url": "",
        "created": created, "lastModified": modified, "fileLastModified": modified,
        "booksCount": total, "booksReadCount": read, "booksUnreadCount": total - read - started,
        "booksInProgressCount": started,
        "metadata": {
            "status": series_status(manga), "statusLock": False,
            "title": manga.title, "titleLock": False, "titleSort": manga.sort_title, "titleSortLock": False,
            "summary": text(manga.meta, "description"), "summaryLock": False,
            "readingDirection": DIRECTION.get(overrides.manga_direction(manga)[0], ""), "readingDirectionLock": False,
            "publisher": text(manga.meta, "publisher"), "publisherLock": False,
            "ageRating": None, "ageRatingLock": False,
            "language": text(manga.meta, "language"), "languageLock": False,
            "genres": genres(manga), "genresLock": False, "tags": series_tags(manga), "tagsLock": False,
            "totalBookCount": None, "totalBookCountLock": False,
            "sharingLabels": [], "sharingLabelsLock": False,
            "links": links(manga), "linksLock": False,
            "alternateTitles": [{"label": "", "title": t} for t in strings(manga.meta, "altTitles")],
            "alternateTitlesLock": False,
            "created": created, "lastModified": modified,
        },
        "booksMetadata": {"authors": authors(manga), "tags": book_tags(manga), "releaseDate": release_date(manga),
                          "summary": "", "summaryNumber": "", "created": created, "lastModified": modified},
        "deleted": False, "oneshot": False,
    }


def chapter_title(manga, chapter):
    label = lookup.chapter_label(chapter)
    return f"{label}: {chapter.title}" if chapter.title else label


def _chapter_number(chapter):
    return chapter.key if chapter.book == "0" else chapter.id


def read_progress(entry, version):
    if not entry:
        return None
    when = dt(entry.get("t"))
    return {"page": state.page_of(entry, version), "completed": bool(entry.get("done")), "readDate": when,
            "created": when, "lastModified": when, "deviceId": "", "deviceName": ""}


_books = {}  # (id(manga), chapter id, version name, position) → (manga, the DTO without readProgress)
MAX_CACHED = 100_000


def book(user, manga, chapter, position, entry):
    """`position` is the chapter's 1-based place in the reading order; `entry` the user's progress.
    What is the same for everybody is built once per Manga object (a scan replaces the objects)."""
    version = state.chosen_version(user, manga, chapter, entry)
    key = (id(manga), chapter.id, version.name, position)
    cached = _books.get(key)
    if cached is None or cached[0] is not manga:
        if len(_books) >= MAX_CACHED:
            _books.clear()
        cached = _books[key] = (manga, _book(manga, chapter, position, version))
    return {**cached[1], "readProgress": read_progress(entry, version)}


def _published(version):
    value = text(version.meta, "published")[:10]
    try:
        return date.fromisoformat(value).isoformat() if len(value) == 10 else None
    except ValueError:
        return None


def chapter_release(chapter):
    """A book's releaseDate: the first publication date (yyyy-MM-dd) among the chapter's versions
    (chapter.json's "published"), or None when none has one."""
    return min((d for d in map(_published, chapter.versions) if d), default=None)


def _size(n):
    """sizeBytes, and size as Komga writes it (binary units, one decimal at most: "1.5 MiB")."""
    value, unit = float(n), "B"
    for bigger in ("KiB", "MiB", "GiB", "TiB"):
        if value < 1024:
            break
        value, unit = value / 1024, bigger
    return {"sizeBytes": n, "size": f"{value:,.1f}".removesuffix(".0") + f" {unit}"}


def _media_type(version):
    return ARCHIVE_TYPES.get((version.archive or "").rpartition(".")[2].casefold(), "application/zip")


def _book(manga, chapter, position, version):
    changed = dt(stamp_ms(version.stamp)) if version.stamp else dt(manga.updated)
    groups = strings(version.meta, "groups") or ([version.source] if version.source else [])
    return {
        "id": ids.book_id(manga.name, chapter.id), "seriesId": ids.series_id(manga.name),
        "seriesTitle": manga.title, "libraryId": ids.library_of(manga.name),
        "name": version.name, "url": version.name, "number": position,
        "created": changed, "lastModified": changed, "fileLastModified": changed,
        **_size(cbz.chapter_size(manga, chapter, version)),
        "media": {"status": "READY", "mediaType": _media_type(version), "pagesCount": version.page_count,
                  "comment": "", "epubDivinaCompatible": False, "epubIsKepub": False, "mediaProfile": "DIVINA"},
        "metadata": {
            "title": chapter_title(manga, chapter), "titleLock": False, "summary": "", "summaryLock": False,
            "number": _chapter_number(chapter), "numberLock": False,
            "numberSort": numbering.number(numbering.number_sorts(manga)[chapter.id]), "numberSortLock": False,
            "releaseDate": chapter_release(chapter),
            "releaseDateLock": False,
            "authors": [{"name": g, "role": "translator"} for g in groups], "authorsLock": False,
            "tags": manga_detail.chapter_tags(chapter), "tagsLock": False, "isbn": "", "isbnLock": False,
            "links": [], "linksLock": False,
            "created": changed, "lastModified": changed,
        },
        "readProgress": None,
        "deleted": False, "fileHash": "", "oneshot": False,
    }


def pages(version):
    """A book's pages as Komga lists them; a solid archive's are measured here at the first ask
    (library.files.pages_with_sizes), as an app asks for them when it opens the book."""
    out = []
    for n, page in enumerate(library_files.pages_with_sizes(version), start=1):
        ext = page.file.rsplit(".", 1)[-1].lower()
        out.append({"number": n, "fileName": page.file, "mediaType": MEDIA_TYPES.get(ext, "image/jpeg"),
                    "width": page.w, "height": page.h, "sizeBytes": None, "size": ""})
    return out


def library(lib, unavailable=False):
    """A LibraryDto: the library's name and id; its folder is not told (`root` empty)."""
    return {"id": ids.library_id(lib), "name": lib.name, **LIBRARY_SETTINGS, "unavailable": bool(unavailable)}


LIBRARY_SETTINGS = {
    "root": "",
    "importComicInfoBook": False, "importComicInfoSeries": False, "importComicInfoCollection": False,
    "importComicInfoReadList": False, "importComicInfoSeriesAppendVolume": False,
    "importEpubBook": False, "importEpubSeries": False, "importMylarSeries": False,
    "importLocalArtwork": True, "importBarcodeIsbn": False, "scanForceModifiedTime": False,
    "scanInterval": "DISABLED", "scanOnStartup": False, "scanCbx": False, "scanPdf": False,
    "scanEpub": False, "scanDirectoryExclusions": [], "repairExtensions": False, "convertToCbz": False,
    "emptyTrashAfterScan": False, "seriesCover": "FIRST", "hashFiles": False, "hashPages": False,
    "hashKoreader": False, "analyzeDimensions": True, "oneshotsDirectory": None, "unavailable": False,
}


def user(account):
    shelves = access.restrictions(account["name"])["libraries"]
    shared = [ids.library_id(lib) for lib in libraries.all() if shelves is not None and lib.name in shelves]
    return {"id": "u" + ids.series_id(account["name"])[1:], "email": account["name"],
            "roles": ["USER", "PAGE_STREAMING", "FILE_DOWNLOAD"], "sharedAllLibraries": shelves is None,
            "sharedLibrariesIds": shared, "labelsAllow": [], "labelsExclude": [], "ageRestriction": None}
