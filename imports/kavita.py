"""Reading a Kavita server's `kavita.db` (docs/import.md, "Kavita"): its users, each chapter's read
progress with its file's path below the library folder that holds it, ratings, want-to-read,
collections and reading lists.

Kavita (EF Core on SQLite) stores a file's absolute path with forward slashes, counts the pages
read (PagesRead; progress here is the page from 0), writes dates as text with the …Utc columns in
UTC, and gives a chapter without a number the number -100000.
"""
import math
import re
from pathlib import PurePosixPath

from . import sqlite
from .komga import parse_date
from .source import Source

NEEDED = {
    "ASPNETUSERS": {"ID", "USERNAME"},
    "FOLDERPATH": {"LIBRARYID", "PATH"},
    "SERIES": {"ID", "NAME", "LIBRARYID"},
    "VOLUME": {"ID", "SERIESID"},
    "CHAPTER": {"ID", "VOLUMEID", "PAGES", "ISSPECIAL"},
    "MANGAFILE": {"CHAPTERID", "FILEPATH"},
    "APPUSERPROGRESSES": {"APPUSERID", "CHAPTERID", "PAGESREAD"},
}

PROGRESS = """
SELECT p.AppUserId, p.ChapterId, p.PagesRead, {modified}, c.Pages, c.IsSpecial, {number}, {range}, s.LibraryId,
       s.Name, {titles}
FROM AppUserProgresses p JOIN Chapter c ON c.Id = p.ChapterId JOIN Volume v ON v.Id = c.VolumeId
JOIN Series s ON s.Id = v.SeriesId
ORDER BY p.AppUserId, s.Name, c.Id
"""


def read(path, max_bytes=None):
    """The Source of the Kavita database at `path`."""
    conn = sqlite.open_readonly(path, max_bytes)
    try:
        found = sqlite.tables(conn)
        sqlite.require(found, "Kavita", NEEDED)
        source = Source("kavita", str(path))
        admins = _admins(conn, found)
        for uid, name in sqlite.rows(conn, "SELECT Id, UserName FROM AspNetUsers ORDER BY UserName, Id"):
            label = str(name) if name else f"user {uid}"
            source.add_user(str(uid), label, str(name or ""), uid in admins)
        _progress(conn, found, source)
        _ratings(conn, found, source)
        _wants(conn, found, source)
        _collections(conn, found, source)
        _readlists(conn, found, source)
        return source
    finally:
        conn.close()


def _admins(conn, found):
    if not ({"USERID", "ROLEID"} <= found.get("ASPNETUSERROLES", set()) and "NAME" in found.get("ASPNETROLES", set())):
        return set()
    query = ("SELECT ur.UserId FROM AspNetUserRoles ur JOIN AspNetRoles r ON r.Id = ur.RoleId"
             " WHERE r.Name = 'Admin'")
    return {row[0] for row in sqlite.rows(conn, query)}


def _series_titles(found):
    """The columns of Series `s` that name it besides its Name (NULL where an older Kavita lacks one)."""
    columns = found["SERIES"]
    return ", ".join(f"s.{c}" if c.upper() in columns else "NULL" for c in ("OriginalName", "LocalizedName"))


def _series(name, original, localized):
    """How the plan looks a series up: its name, and the other title it has there."""
    title = next((str(t) for t in (original, localized) if t and str(t) != str(name)), None)
    return {"name": str(name or ""), "title": title}


def _progress(conn, found, source):
    chapter, progress = found["CHAPTER"], found["APPUSERPROGRESSES"]
    modified = next((f"p.{c}" for c in ("LastModifiedUtc", "LastModified") if c.upper() in progress), "NULL")
    number = next((f"c.{c}" for c in ("MinNumber", "Number") if c.upper() in chapter), "NULL")
    sql = PROGRESS.format(modified=modified, number=number, range="c.Range" if "RANGE" in chapter else "NULL",
                          titles=_series_titles(found))
    folders = {}
    for library, folder in sqlite.rows(conn, "SELECT LibraryId, Path FROM FolderPath"):
        folders.setdefault(library, []).append(folder)
    files = {}
    query = ("SELECT ChapterId, FilePath FROM MangaFile WHERE ChapterId IN"
             " (SELECT ChapterId FROM AppUserProgresses) ORDER BY ChapterId, FilePath")
    for cid, file_path in sqlite.rows(conn, query):
        files.setdefault(cid, []).append(file_path)
    for row in sqlite.rows(conn, sql):
        _add_progress(source, row, files, folders)


def _add_progress(source, row, files, folders):
    uid, cid, pages_read, modified, pages, special, number, range_, library, name, original, localized = row
    series = _series(name, original, localized)
    paths = files.get(cid, [])
    what = f"{series['name']} / {_file_name(paths[0]) if paths else range_ or cid}"
    try:
        pages_read, pages = int(pages_read), int(pages or 0)
    except (TypeError, ValueError):
        source.skip("progress", what, "its page is not a number")
        return
    if pages_read <= 0:
        return  # a chapter marked unread there: nothing to bring over
    rel, why = None, None
    for file_path in paths:
        rel, why = relative_path(file_path, folders.get(library, []))
        if rel is not None:
            break
    if paths and rel is None:
        source.skip("progress", what, why)
        return
    done = 0 < pages <= pages_read
    page = pages - 1 if done else max(0, pages_read - 1)
    source.add_progress(str(uid), path=rel, series=series["name"], title=series["title"],
                        number="" if special else chapter_number(number), page=page, pages=pages or None, done=done,
                        t=max(0, parse_date(modified)), what=None if rel else what)


def chapter_number(value):
    """Kavita's chapter number (MinNumber, a float; or, before it, Number, text) as a key's text:
    1.0 → "1", 2.5 → "2.5"; Kavita's "no number" (-100000; "0" in the Number of older Kavitas) → "".
    """
    try:
        number = float(value)
    except (TypeError, ValueError):
        return ""
    if not math.isfinite(number) or number < 0 or (number == 0 and isinstance(value, str)):
        return ""
    return f"{number:.4f}".rstrip("0").rstrip(".")


def _file_name(file_path):
    return str(file_path).replace("\\", "/").rstrip("/").rpartition("/")[2]


def _posix(path):
    if not isinstance(path, str) or not path or "\x00" in path:
        return None
    return PurePosixPath(path.replace("\\", "/"))  # Kavita's Parser.NormalizePath, for paths it did not normalise


def _rooted(path):
    """"/data/manga", or on a Windows server "D:/Comics"."""
    return path.is_absolute() or bool(path.parts and re.fullmatch(r"[A-Za-z]:", path.parts[0]))


def relative_path(file_path, folders):
    """(the file's path below the library folder that holds it, None) or (None, why)."""
    path = _posix(file_path)
    if path is None:
        return None, "it has no file path"
    if ".." in path.parts:
        return None, "its path has a '..' in it"
    bases = [b for b in map(_posix, folders) if b is not None and ".." not in b.parts and _rooted(b)]
    for base in sorted(bases, key=lambda b: -len(b.parts)):
        try:
            rel = path.relative_to(base)
        except ValueError:
            continue
        if rel.parts:
            return rel.as_posix(), None
    return None, "it is not inside its library's folders"


def stars(rating):
    """Kavita's 0-5 rating (a float, in halves) as 1 to 5 stars, a half rounded up."""
    return min(5, max(1, math.floor(rating + 0.5)))


def _ratings(conn, found, source):
    columns = found.get("APPUSERRATING", set())
    if not {"APPUSERID", "SERIESID", "RATING"} <= columns:
        return
    rated = "r.HasBeenRated" if "HASBEENRATED" in columns else "0"  # older Kavitas: 0 meant not rated
    query = (f"SELECT r.AppUserId, r.Rating, {rated}, s.Name, {_series_titles(found)} FROM AppUserRating r"
             " JOIN Series s ON s.Id = r.SeriesId ORDER BY r.AppUserId, s.Name")
    for uid, rating, has_been_rated, name, original, localized in sqlite.rows(conn, query):
        series = _series(name, original, localized)
        try:
            rating = float(rating or 0)
        except (TypeError, ValueError):
            source.skip("rating", series["name"], "its rating is not a number")
            continue
        if not math.isfinite(rating) or not (has_been_rated or rating > 0):
            continue
        source.add_rating(str(uid), series, stars(rating))


def _wants(conn, found, source):
    if {"APPUSERID", "SERIESID"} <= found.get("APPUSERWANTTOREAD", set()):
        query = (f"SELECT w.AppUserId, s.Name, {_series_titles(found)} FROM AppUserWantToRead w"
                 " JOIN Series s ON s.Id = w.SeriesId ORDER BY w.AppUserId, s.Name")
    elif "APPUSERID" in found["SERIES"]:  # Kavita from July 2022 to January 2024: the series named who wanted it
        query = (f"SELECT s.AppUserId, s.Name, {_series_titles(found)} FROM Series s"
                 " WHERE s.AppUserId IS NOT NULL ORDER BY s.AppUserId, s.Name")
    else:
        return
    for uid, name, original, localized in sqlite.rows(conn, query):
        source.add_want(str(uid), _series(name, original, localized))


def _collections(conn, found, source):
    """Each user's collections: a promoted one is shared here, the others private to its owner."""
    columns = found.get("APPUSERCOLLECTION", set())
    if not ({"ID", "TITLE", "APPUSERID", "PROMOTED"} <= columns
            and {"COLLECTIONSID", "ITEMSID"} <= found.get("APPUSERCOLLECTIONSERIES", set())):
        return
    members = {}
    sort = "COALESCE(s.SortName, s.Name)" if "SORTNAME" in found["SERIES"] else "s.Name"
    query = (f"SELECT cs.CollectionsId, s.Name, {_series_titles(found)} FROM AppUserCollectionSeries cs"
             f" JOIN Series s ON s.Id = cs.ItemsId ORDER BY cs.CollectionsId, {sort}")
    for cid, name, original, localized in sqlite.rows(conn, query):
        members.setdefault(cid, []).append(_series(name, original, localized))
    summary = "Summary" if "SUMMARY" in columns else "NULL"
    query = f"SELECT Id, AppUserId, Title, Promoted, {summary} FROM AppUserCollection ORDER BY AppUserId, Title"
    for cid, uid, title, promoted, text in sqlite.rows(conn, query):
        source.add_collection(str(uid), str(title or ""), members.get(cid, []), ordered=False,
                              shared=bool(promoted), summary=str(text or ""))


READING_LIST = """
SELECT i.ReadingListId, c.Id, c.IsSpecial, {number}, s.LibraryId, s.Name, {titles}
FROM ReadingListItem i JOIN Chapter c ON c.Id = i.ChapterId JOIN Volume v ON v.Id = c.VolumeId
JOIN Series s ON s.Id = v.SeriesId ORDER BY i.ReadingListId, i."Order", i.Id
"""


def _readlists(conn, found, source):
    """Each user's reading lists: a promoted one is shared here, the others private to its owner;
    each chapter found as its progress would be (its file's path, then series and number)."""
    lists, items = found.get("READINGLIST", set()), found.get("READINGLISTITEM", set())
    if not ({"ID", "TITLE", "APPUSERID"} <= lists and {"READINGLISTID", "CHAPTERID", "ORDER", "ID"} <= items):
        return
    folders = {}
    for library, folder in sqlite.rows(conn, "SELECT LibraryId, Path FROM FolderPath"):
        folders.setdefault(library, []).append(folder)
    files = {}
    query = ("SELECT ChapterId, FilePath FROM MangaFile WHERE ChapterId IN (SELECT ChapterId FROM ReadingListItem)"
             " ORDER BY ChapterId, FilePath")
    for cid, file_path in sqlite.rows(conn, query):
        files.setdefault(cid, []).append(file_path)
    number = next((f"c.{c}" for c in ("MinNumber", "Number") if c.upper() in found["CHAPTER"]), "NULL")
    books = {}
    for rid, cid, special, value, library, name, original, localized in sqlite.rows(
            conn, READING_LIST.format(number=number, titles=_series_titles(found))):
        rel = next((r for r, _ in (relative_path(f, folders.get(library, [])) for f in files.get(cid, [])) if r), None)
        series = _series(name, original, localized)
        books.setdefault(rid, []).append({
            "path": rel, "series": series["name"], "title": series["title"],
            "number": "" if special else chapter_number(value),
            "what": f"{series['name']} / {_file_name(files[cid][0]) if files.get(cid) else cid}"})
    promoted = "Promoted" if "PROMOTED" in lists else "0"
    summary = "Summary" if "SUMMARY" in lists else "NULL"
    query = f"SELECT Id, AppUserId, Title, {promoted}, {summary} FROM ReadingList ORDER BY AppUserId, Title"
    for rid, uid, title, shared, text in sqlite.rows(conn, query):
        source.add_readlist(str(uid), str(title or ""), books.get(rid, []), shared=bool(shared),
                            summary=str(text or ""))
