"""Names in the library tree: books, chapters, pages and their tags (docs/library.md, "Names", "Pages").

Pure functions of one name each; nothing here touches the disk.
Matching is case-insensitive; the separators between parts are any run of spaces, `_`, `-`, `.`.
"""
import functools
import re
from decimal import Decimal
from typing import NamedTuple

IMAGE_EXTENSIONS = frozenset({"jpg", "jpeg", "png", "webp", "gif", "avif"})
ARCHIVE_EXTENSIONS = frozenset({"cbz", "zip"})
# Archives and books of other formats: never read, always reported (docs/library.md, "Archives").
UNREAD_FORMATS = {"cbr": "CBR (RAR)", "rar": "RAR", "cb7": "CB7 (7-Zip)", "7z": "7-Zip", "cbt": "CBT (tar)",
                  "tar": "tar", "pdf": "PDF", "epub": "EPUB"}
IGNORED_NAMES = frozenset({"@eadir", "__macosx", "thumbs.db", "desktop.ini"})
ROTATIONS = {"r90": 90, "r180": 180, "r270": 270}

_SEP = r"[\s_.\-]*"
_NUM = r"(\d+(?:\.\d+)?)"
_STOP = r"(?![^\W_])"  # the number is not followed by a letter or digit ("c12a" is no chapter 12)
_REST = r"(.*)$"

_BOOK = re.compile(rf"(?:volume|book|vol|b|v){_SEP}{_NUM}{_STOP}{_REST}", re.I | re.S)
_EXTRAS_NUMBERED = re.compile(rf"x{_SEP}{_NUM}{_STOP}{_REST}", re.I | re.S)
_EXTRAS_WORD = re.compile(rf"(?:extras?|specials?|omake)(?:{_SEP}{_NUM})?{_STOP}{_REST}", re.I | re.S)
_CHAPTER = re.compile(rf"(?:(?:chapter|chap|ch|c|#){_SEP})?{_NUM}{_STOP}{_REST}", re.I | re.S)
_EXTRA_CHAPTER = _EXTRAS_NUMBERED
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


def parse_book(name):
    """A book folder name → BookName, or None when the name is no book."""
    m = _BOOK.match(name)
    if m:
        return BookName(number_key(m[1]), _title(m[2]))
    m = _EXTRAS_NUMBERED.match(name)
    if m:
        return BookName("x" + number_key(m[1]), _title(m[2]))
    m = _EXTRAS_WORD.match(name)
    if m:
        # A bare word ("Extras", "Specials") is the first extras book and titles itself.
        if m[1]:
            return BookName("x" + number_key(m[1]), _title(m[2]))
        return BookName("x1", _title(m[2]) or name.strip())
    return None


def source_of(name):
    """The last bracket group of a chapter folder name: its scanlation group or site."""
    groups = _BRACKETS.findall(name)
    return (groups[-1].strip() or None) if groups else None


def _chapter(key, rest):
    title = _TRAILING_BRACKET.sub("", rest)
    return ChapterName(key, _title(title), source_of(rest))


def loose_chapter(name):
    """Title and source of a folder read as a chapter though its name has no number."""
    return _chapter(None, name)


def parse_chapter(name, in_book=False):
    """A chapter folder name → ChapterName, or None.

    Inside a book folder `x01 Title` is an extra chapter (key x1); in the manga folder it names
    an extras book instead (see parse_book), so pass in_book accordingly.
    """
    m = _CHAPTER.match(name)
    if m:
        return _chapter(number_key(m[1]), m[2])
    if in_book:
        m = _EXTRA_CHAPTER.match(name)
        if m:
            return _chapter("x" + number_key(m[1]), m[2])
    return None


_PREFIXED_CHAPTER = re.compile(rf"(?:chapter|chap|ch|c|#){_SEP}{_NUM}{_STOP}{_REST}", re.I | re.S)


def parse_volume_chapter(name):
    """'Vol.02 Ch.005 Title [Group]' (a common download layout) → (BookName, ChapterName) or None."""
    book = _BOOK.match(name)
    if not book:
        return None
    m = _PREFIXED_CHAPTER.match(_LEADING_SEP.sub("", book[2]))
    if not m:
        return None
    return BookName(number_key(book[1]), None), _chapter(number_key(m[1]), m[2])


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


_SERIES_SEP = re.compile(r"^[\s_.]*(?:-[\s_.]*)?")
_RANGE = re.compile(r"^[\s_.]*-[\s_.]*\d+(?:\.\d+)?(?![^\W_])")
_VOLUME_TOKEN = re.compile(rf"(?<![^\W_])(?:volume|vol|v){_SEP}{_NUM}{_STOP}", re.I)
_CHAPTER_TOKEN = re.compile(rf"(?<![^\W_])(?:chapter|chap|ch|c|#){_SEP}{_NUM}{_STOP}{_REST}", re.I | re.S)


def _fold(text):
    return re.sub(r"[\s_.\-]+", " ", text).strip().casefold()


def strip_series(stem, series):
    """The stem without a leading series name ('Moon Garden - c012' → 'c012'), when it has one."""
    folded = _fold(stem)
    for name in series:
        name = _fold(name or "")
        if name and folded.startswith(name + " "):
            # Walk the original stem past as many word characters as the name holds.
            want, i = len(name.replace(" ", "")), 0
            while want and i < len(stem):
                want -= not re.match(r"[\s_.\-]", stem[i])
                i += 1
            rest = _SERIES_SEP.sub("", stem[i:])
            if rest:
                return rest
    return stem


def _named(book, chapter):
    """'c001-005': chapter 1, the range dropped from the title, marked as a span."""
    if chapter.title and _RANGE.match("-" + chapter.title) and chapter.title.replace(".", "").isdigit():
        return ArchiveName(book, chapter._replace(title=None), True)
    return ArchiveName(book, chapter)


def parse_archive(name, series=(), in_book=False):
    """An archive's file name → ArchiveName, or None when it gives no number (docs/library.md, "Archives").

    1. The extension goes; so does a leading series name (the manga folder's name or title).
    2. In a book folder it is a chapter: `c003`, `Series v01 c003` (the v is the folder's), `003`;
       `Series v01` there is the whole book, read like a volume.
    3. In the manga folder: `v01 c003` → chapter 3 of book 1; `c012`, `Chapter 12`, `012` → a chapter;
       `v01`, `Vol 1 Title`, `x01` → a whole volume (book).
    4. Else a `v01`/`c012` token anywhere (`Series (2020) v01 (Digital)`).
    """
    stem = name.rpartition(".")[0] or name
    rest = strip_series(stem, series)
    for text in (rest, stem):
        both = parse_volume_chapter(text)
        if both:
            return _named(None if in_book else both[0], both[1])
        chapter = parse_chapter(text, in_book=in_book)
        if chapter:
            return _named(None, chapter)
        book = parse_book(text)
        if book:
            return ArchiveName(book, None)  # in a book folder: that book's chapters (build_archive.py)
    volume, chapter = _VOLUME_TOKEN.search(stem), _CHAPTER_TOKEN.search(stem)
    if chapter:
        return _named(BookName(number_key(volume[1]), None) if volume and not in_book else None,
                      _chapter(number_key(chapter[1]), chapter[2]))
    if volume:
        return ArchiveName(BookName(number_key(volume[1]), None), None)
    return None
