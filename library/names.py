"""Names in the library tree: books, chapters, pages and their tags (docs/library.md, "Names", "Pages").

Pure functions of one name each; nothing here touches the disk.
Matching is case-insensitive; the separators between parts are any run of spaces, `_`, `-`, `.`.
"""
import functools
import re
from decimal import Decimal
from typing import NamedTuple

from . import release

IMAGE_EXTENSIONS = frozenset({"jpg", "jpeg", "png", "webp", "gif", "avif"})
# CBZ/ZIP and EPUB (zipread.py, epubread.py), CBR/RAR, CB7/7z, CBT/tar (libarch.py), PDF (pdfread.py).
ARCHIVE_EXTENSIONS = frozenset({"cbz", "zip", "epub", "cbr", "rar", "cb7", "7z", "cbt", "tar", "pdf"})
# Books of other formats: never read, always reported (docs/library.md, "Archives").
UNREAD_FORMATS = {"mobi": "MOBI", "azw3": "Kindle (AZW3)", "djvu": "DjVu"}
IGNORED_NAMES = frozenset({"@eadir", "__macosx", "thumbs.db", "desktop.ini"})
ROTATIONS = {"r90": 90, "r180": 180, "r270": 270}

_BRACKETS = re.compile(r"\[([^\[\]]*)\]")
_TRAILING_BRACKET = re.compile(r"\[([^\[\]]*)\]\s*$")
_LEADING_SEP = re.compile(r"^[\s_.\-:,]+")
_DIGITS = re.compile(r"(\d+)")


class BookName(NamedTuple):
    key: str  # "1", "2.5", "x1"
    title: str | None


class ChapterName(NamedTuple):
    key: str  # "2", "2.5", "0", "x1"
    title: str | None
    source: str | None


def number_key(digits):
    """'0012.5' → '12.5', '0003.10' → '3.10', '0000' → '0': the integer part loses its leading
    zeros, the decimal digits stay as written (sources number sub-chapters 3.9, 3.10, 3.11)."""
    whole, dot, fraction = digits.partition(".")
    whole = whole.lstrip("0") or "0"
    return f"{whole}.{fraction}" if dot and fraction else whole


# Fractions read as decimals rather than as a sub-chapter number: one digit (.5), a leading zero
# (.05), or quarters (.25, .75). Any other fraction of two or more digits (.10, .11, .12 ...)
# is a sub-chapter number and comes after .9. So 3.9 < 3.10 < 3.11 and 12.25 < 12.5 < 12.75.
_QUARTERS = frozenset({"25", "75"})


def _fraction_order(fraction):
    if not fraction:
        return Decimal(0)
    if len(fraction) == 1 or fraction.startswith("0") or fraction in _QUARTERS:
        return Decimal("0." + fraction)
    return Decimal(int(fraction))


def key_order(key):
    """Sort order of a book or chapter key: by number (the fraction rule above), extras (x…) after
    the numbered ones; the key itself breaks ties (3.1 and 3.10 are different chapters)."""
    extra = key.startswith("x")
    whole, _, fraction = (key[1:] if extra else key).partition(".")
    return (int(extra), int(whole), _fraction_order(fraction), key)


@functools.lru_cache(maxsize=4096)
def natural_key(name):
    """'2.jpg' before '10.jpg'; ties broken by the plain name so the order is total. Cached: a
    library repeats its page names (001.jpg …) in every chapter, and a full scan sorts them all."""
    parts = _DIGITS.split(name.casefold())
    return tuple(int(p) if i % 2 else p for i, p in enumerate(parts)), name


def is_ignored(name):
    """Hidden names (the scraper's .staging/ too) and the litter of NAS boxes and other systems."""
    return name.startswith(".") or name.casefold() in IGNORED_NAMES


def extension(name):
    stem, dot, ext = name.rpartition(".")
    return ext.lower() if dot and stem else ""


def is_page(name):
    """A page is any non-ignored file with an image extension (jpg jpeg png webp gif avif)."""
    return not is_ignored(name) and extension(name) in IMAGE_EXTENSIONS


def _title(text):
    text = _LEADING_SEP.sub("", text).strip()
    return text or None


def parse_book(name, series=()):
    """A book folder name → BookName, or None when the name is no book (or names a chapter)."""
    named = parse_entry(name, series)
    return named.book if named and named.chapter is None else None


def source_of(name):
    """The scanlation group or site of a name: its last bracket group that looks like one."""
    return release.read(name).source


def loose_chapter(name, series=()):
    """Title and source of a folder read as a chapter though its name has no number: the name
    without a leading series name and its trailing bracket group."""
    title = _TRAILING_BRACKET.sub("", release.strip_series(name, series))
    return ChapterName(None, _title(title), source_of(name))


def parse_chapter(name, in_book=False, series=()):
    """A chapter folder name → ChapterName, or None. Inside a book folder `x01 Title` is an extra
    chapter (key x1); in the manga folder it names an extras book instead (see parse_book)."""
    named = parse_entry(name, series, in_book)
    return named.chapter if named and (in_book or named.book is None) else None


def parse_volume_chapter(name, series=()):
    """'Vol.02 Ch.005 Title [Group]' (a common download layout) → (BookName, ChapterName) or None."""
    named = parse_entry(name, series)
    return (named.book, named.chapter) if named and named.book and named.chapter else None


def next_free_key(used, after=None):
    """The key for an unrecognised chapter folder: the next whole number after `after` not in `used`."""
    n = int(Decimal(after)) + 1 if after and not after.startswith("x") else 1
    while str(n) in used:
        n += 1
    return str(n)


class PageName(NamedTuple):
    tags: tuple
    rotation: int


_PLAIN = PageName((), 0)


def parse_page(file):
    """Tags are the bracket groups of the file stem, lower-cased; r90/r180/r270 set the rotation.
    A page inside an archive may have folders in its name: only the last part counts."""
    if "[" not in file:
        return _PLAIN
    file = file.rpartition("/")[2]
    stem = file.rpartition(".")[0] or file
    tags = tuple(t for t in (g.strip().lower() for g in _BRACKETS.findall(stem)) if t)
    rotation = 0
    for tag in tags:
        rotation = ROTATIONS.get(tag, rotation)
    return PageName(tags, rotation)


def is_valid_text(name):
    """False for names that are not valid UTF-8 on disk (os.listdir hands them over as surrogates)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def is_archive(name):
    return not is_ignored(name) and extension(name) in ARCHIVE_EXTENSIONS


def unread_format(name):
    """'CBR (RAR)' for a file of a book format that is not read, else None."""
    return None if is_ignored(name) else UNREAD_FORMATS.get(extension(name))


class ArchiveName(NamedTuple):
    book: BookName | None  # the book the name gives (a volume, or the v of "v01 c003")
    chapter: ChapterName | None  # None with a book: a whole volume
    span: bool = False  # a range ("c001-005"): its chapter folders, if it has any, are the chapters
    leading: bool = False  # the chapter is only a leading number ("04 - Title"): ComicInfo may say better


def parse_entry(name, series=(), in_book=False, in_extras=False):
    """A folder name or archive stem → ArchiveName, or None when it gives no number
    (docs/library-names.md). `series`: names of the manga (its folder, its title), dropped when the
    name starts with one. In a book folder no book is given: the folder's wins; a special (SP01) is
    an extra chapter there, a chapter of an extras book, and in the manga folder chapter 1 of the
    extras book x1 ("Specials")."""
    r = release.read(name, series)
    if r.extra is not None:
        key = "x" + number_key(r.extra) if r.extra else "x1"
        if in_book:
            return ArchiveName(None, ChapterName(key, r.title, r.source))
        return ArchiveName(BookName(key, r.title or (None if r.extra else name.strip())), None)
    if r.special is not None:
        number = number_key(r.special)
        if in_book:
            return ArchiveName(None, ChapterName(number if in_extras else "x" + number, r.title, r.source))
        return ArchiveName(BookName("x1", None), ChapterName(number, r.title, r.source))
    book = BookName(number_key(r.volume), None) if r.volume is not None else None
    if r.chapter is not None:
        chapter = ChapterName(number_key(r.chapter), r.title, r.source)
        return ArchiveName(None if in_book else book, chapter, r.chapter_end is not None, r.leading)
    if book:
        return ArchiveName(book._replace(title=r.title), None)
    return None


def parse_archive(name, series=(), in_book=False, in_extras=False):
    """An archive's file name → ArchiveName, or None (docs/library.md, "Archives"): its extension goes,
    then it reads as a folder name would."""
    stem = name.rpartition(".")[0] or name
    return parse_entry(stem, series, in_book, in_extras)
