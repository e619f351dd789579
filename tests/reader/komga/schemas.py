"""What each app parses, key by key, with its type (from docs/apps.md's sources: the Mihon Komga
extension and tracker, Komelia's komga-client, KMReader). `check(value, schema)` lists every key
that is missing or of the wrong type; Komelia needs every key, even nullable ones."""
import re

DT = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
DATE = re.compile(r"^\d{4}-\d\d-\d\d$")


class Opt:
    """A value that may be null."""

    def __init__(self, kind):
        self.kind = kind


NUM = "number"  # int or float, not bool
ENUM_STATUS = {"ONGOING", "ENDED", "ABANDONED", "HIATUS"}
ENUM_DIRECTION = {"LEFT_TO_RIGHT", "RIGHT_TO_LEFT", "VERTICAL", "WEBTOON", ""}


def check(value, schema, where="$"):
    problems = []
    if isinstance(schema, Opt):
        return [] if value is None else check(value, schema.kind, where)
    if isinstance(schema, dict):
        if not isinstance(value, dict):
            return [f"{where}: expected an object, got {value!r}"]
        for key, sub in schema.items():
            if key not in value:
                problems.append(f"{where}.{key}: missing")
            else:
                problems += check(value[key], sub, f"{where}.{key}")
        return problems
    if isinstance(schema, list):
        if not isinstance(value, list):
            return [f"{where}: expected a list, got {value!r}"]
        for i, item in enumerate(value):
            problems += check(item, schema[0], f"{where}[{i}]")
        return problems
    if isinstance(schema, set):
        return [] if value in schema else [f"{where}: {value!r} is not one of {sorted(schema)}"]
    if schema is DT or schema is DATE:
        return [] if isinstance(value, str) and schema.match(value) else [f"{where}: {value!r} is no {schema.pattern}"]
    if schema == NUM:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return [] if ok else [f"{where}: {value!r} is no number"]
    if schema is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
        return [] if ok else [f"{where}: {value!r} is no integer"]
    return [] if isinstance(value, schema) else [f"{where}: {value!r} is no {schema.__name__}"]


AUTHOR = {"name": str, "role": str}
SORT = {"empty": bool, "sorted": bool, "unsorted": bool}


def page_of(item):
    return {"content": [item], "pageable": {"sort": SORT, "offset": int, "pageNumber": int, "pageSize": int,
                                            "paged": bool, "unpaged": bool},
            "last": bool, "totalElements": int, "totalPages": int, "size": int, "number": int, "sort": SORT,
            "first": bool, "numberOfElements": int, "empty": bool}


SERIES = {
    "id": str, "libraryId": str, "name": str, "url": str, "created": DT, "lastModified": DT, "fileLastModified": DT,
    "booksCount": int, "booksReadCount": int, "booksUnreadCount": int, "booksInProgressCount": int,
    "metadata": {
        "status": ENUM_STATUS, "statusLock": bool, "title": str, "titleLock": bool, "titleSort": str,
        "titleSortLock": bool, "summary": str, "summaryLock": bool, "readingDirection": ENUM_DIRECTION,
        "readingDirectionLock": bool, "publisher": str, "publisherLock": bool, "ageRating": Opt(int),
        "ageRatingLock": bool, "language": str, "languageLock": bool, "genres": [str], "genresLock": bool,
        "tags": [str], "tagsLock": bool, "totalBookCount": Opt(int), "totalBookCountLock": bool,
        "sharingLabels": [str], "sharingLabelsLock": bool, "links": [{"label": str, "url": str}], "linksLock": bool,
        "alternateTitles": [{"label": str, "title": str}], "alternateTitlesLock": bool, "created": DT,
        "lastModified": DT,
    },
    "booksMetadata": {"authors": [AUTHOR], "tags": [str], "releaseDate": Opt(DATE), "summary": str,
                      "summaryNumber": str, "created": DT, "lastModified": DT},
    "deleted": bool, "oneshot": bool,
}
READ_PROGRESS = {"page": int, "completed": bool, "readDate": DT, "created": DT, "lastModified": DT,
                 "deviceId": str, "deviceName": str}
BOOK = {
    "id": str, "seriesId": str, "seriesTitle": str, "libraryId": str, "name": str, "url": str, "number": int,
    "created": DT, "lastModified": DT, "fileLastModified": DT, "sizeBytes": int, "size": str,
    "media": {"status": {"READY"}, "mediaType": str, "pagesCount": int, "comment": str, "epubDivinaCompatible": bool,
              "epubIsKepub": bool, "mediaProfile": {"DIVINA"}},
    "metadata": {"title": str, "titleLock": bool, "summary": str, "summaryLock": bool, "number": str,
                 "numberLock": bool, "numberSort": NUM, "numberSortLock": bool, "releaseDate": Opt(DATE),
                 "releaseDateLock": bool, "authors": [AUTHOR], "authorsLock": bool, "tags": [str], "tagsLock": bool,
                 "isbn": str, "isbnLock": bool, "links": [{"label": str, "url": str}], "linksLock": bool,
                 "created": DT, "lastModified": DT},
    "readProgress": Opt(READ_PROGRESS),
    "deleted": bool, "fileHash": str, "oneshot": bool,
}
PAGE = {"number": int, "fileName": str, "mediaType": {"image/jpeg", "image/png", "image/gif", "image/webp",
                                                       "image/avif"},
        "width": Opt(int), "height": Opt(int), "sizeBytes": Opt(int), "size": str}
LIBRARY = {
    "id": str, "name": str, "root": str, "importComicInfoBook": bool, "importComicInfoSeries": bool,
    "importComicInfoCollection": bool, "importComicInfoReadList": bool, "importComicInfoSeriesAppendVolume": bool,
    "importEpubBook": bool, "importEpubSeries": bool, "importMylarSeries": bool, "importLocalArtwork": bool,
    "importBarcodeIsbn": bool, "scanForceModifiedTime": bool,
    "scanInterval": {"DISABLED", "HOURLY", "EVERY_6H", "EVERY_12H", "DAILY", "WEEKLY"},
    "scanOnStartup": bool, "scanCbx": bool, "scanPdf": bool, "scanEpub": bool, "scanDirectoryExclusions": [str],
    "repairExtensions": bool, "convertToCbz": bool, "emptyTrashAfterScan": bool,
    "seriesCover": {"FIRST", "FIRST_UNREAD_OR_FIRST", "FIRST_UNREAD_OR_LAST", "LAST"}, "hashFiles": bool,
    "hashPages": bool, "hashKoreader": bool, "analyzeDimensions": bool, "oneshotsDirectory": Opt(str),
    "unavailable": bool,
}
USER = {"id": str, "email": str, "roles": [str], "sharedAllLibraries": bool, "sharedLibrariesIds": [str],
        "labelsAllow": [str], "labelsExclude": [str], "ageRestriction": Opt(dict)}
TACHIYOMI = {"booksCount": int, "booksReadCount": int, "booksUnreadCount": int, "booksInProgressCount": int,
             "lastReadContinuousNumberSort": NUM, "maxNumberSort": NUM}
COLLECTION = {"id": str, "name": str, "ordered": bool, "seriesIds": [str], "createdDate": DT,
              "lastModifiedDate": DT, "filtered": bool}
READLIST = {"id": str, "name": str, "summary": str, "ordered": bool, "bookIds": [str], "createdDate": DT,
            "lastModifiedDate": DT, "filtered": bool}
