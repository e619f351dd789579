"""The name table of docs/library-names.md, read back: each row's name, its folder and what it reads as."""
import re
from pathlib import Path
from typing import NamedTuple

from library import release
from library.names import number_key, parse_entry

DOC = Path(__file__).resolve().parents[2] / "docs" / "library-names.md"
NONE = "—"
# Extensions a name in the table may carry: archives, other book formats, a page.
EXTENSIONS = {"cbz", "zip", "cbr", "rar", "cb7", "7z", "cbt", "epub", "pdf", "png", "jpg"}


class Row(NamedTuple):
    name: str
    folder: str
    book: str
    chapter: str
    title: str
    source: str
    kavita: str  # "volume / chapter" as Kavita's parser tests give them, "?" for one they do not test
    note: str
    origin: str


def _cell(text):
    return text.strip().strip("`").replace("\\|", "|")


def rows():
    """Every row of the tables under "## The table" in docs/library-names.md."""
    text = DOC.read_text(encoding="utf-8").split("## The table", 1)[1]
    found = []
    for line in text.splitlines():
        if not line.startswith("| `"):
            continue
        cells = [_cell(c) for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        found.append(Row(*cells))
    return found


def _range(start, end):
    return number_key(start) + (f"-{number_key(end)}" if end else "")


def reading(name, folder):
    """(book, chapter, title, source) of `name` lying in the manga folder `folder`, as table cells."""
    base = name.rpartition("/")[2]
    stem, dot, ext = base.rpartition(".")
    stem = stem if dot and ext.lower() in EXTENSIONS else base
    series = (folder,) if folder != NONE else ()
    named, read = parse_entry(stem, series), release.read(stem, series)
    book = chapter = title = NONE
    if named and named.book:
        book = named.book.key
        if read.volume_end and not named.book.key.startswith("x"):
            book = _range(read.volume, read.volume_end)
        title = named.book.title or NONE
    if named and named.chapter:
        chapter = named.chapter.key
        if read.chapter_end:
            chapter = _range(read.chapter, read.chapter_end)
        title = named.chapter.title or NONE
    return book, chapter, title, read.source or NONE


def kavita_reading(book, chapter):
    """The reading as Kavita's tests write it: an extra or special (book x…) has neither a volume nor a
    chapter there, it is a special."""
    return (NONE, NONE) if book.startswith("x") else (book, chapter)
