"""Import a folder on the server into the library: a folder of images, of chapter folders, or of
CBZ/ZIP archives.

The series id is the folder's absolute path (inside SCRAPER_IMPORT_ROOTS). Its chapters are:
each sub-folder holding images, each archive, and the images standing in the folder itself (one
chapter). Chapter numbers come from the names by the library's own rules (library/names.py,
docs/library-names.md: `c0002`, `Ch. 2.5`, `Chapter 12`, `Vol 1 Ch 3`, `Series 012 (2019)`);
chapters without one follow the highest number. Ids are
absolute paths, so importing the same folder again queues only what is new.

Like every source it returns descriptors only: its transport is a LocalReader that reads under
the import roots; the daemon verifies every page as an image and publishes through staging.
"""
import re
from pathlib import Path

from library.names import parse_entry

from ..errors import InvalidInput
from ..localfiles import ARCHIVE_SUFFIXES, file_url, zip_url
from . import register
from .base import ChapterInfo, PageInfo, SeriesInfo, Source

_SEPARATORS = " _-.–—:"


def natural_key(name):
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", name)] + [name]


def parse_chapter_name(name, series=()):
    """'Chapter 12.5 - The End' -> ('12.5', 'The End'); ('', name) when no number is found."""
    stem = Path(name).stem if Path(name).suffix.lower() in ARCHIVE_SUFFIXES else name
    named = parse_entry(stem, series, in_book=True)
    if named is None or named.chapter is None or named.chapter.key.startswith("x"):
        return "", stem.strip(_SEPARATORS)
    return named.chapter.key, named.chapter.title or ""


class FolderSource(Source):
    key = "folder"
    name = "Import"
    pace = 0.0
    transport = "local"
    languages = ("",)

    def check_id(self, reader, series_id):
        """The folder's real path. A path is taken as given (a folder's name may end in a space);
        when that does not exist, the path without surrounding blanks (a stray one pasted along)."""
        super().check_id(reader, series_id)
        try:
            path = reader.resolve(series_id)
        except InvalidInput:
            if series_id == series_id.strip():
                raise
            path = reader.resolve(series_id.strip())
        if not path.is_dir():
            raise InvalidInput(f"{series_id} is not a folder")
        return str(path)

    def search(self, reader, query):
        """Folders (two levels deep) under the import roots whose name contains the query."""
        query = (query or "").strip().lower()
        found = []
        for root in reader.roots:
            if not root.is_dir():
                continue
            for name, kind in sorted(reader.list_dir(str(root)), key=lambda e: natural_key(e[0])):
                if kind != "dir":
                    continue
                path = root / name
                if query in name.lower():
                    found.append(SeriesInfo(id=str(path), title=name, url=str(path)))
                if query:
                    found += [SeriesInfo(id=str(path / sub), title=sub, url=str(path / sub))
                              for sub, k in reader.list_dir(str(path)) if k == "dir" and query in sub.lower()]
        return found[:100]

    def series(self, reader, series_id, lang=None):
        path = Path(self.check_id(reader, series_id))
        return SeriesInfo(id=str(path), title=path.name, url=str(path))

    def chapters(self, reader, series_id, lang):
        path = Path(self.check_id(reader, series_id))
        entries = sorted(reader.list_dir(str(path)), key=lambda e: natural_key(e[0]))
        parsed = []
        for name, kind in entries:
            if kind not in ("archive", "dir"):
                continue
            try:
                # A chapter that links out of the import roots is skipped, not the whole series.
                reader.resolve(str(path / name))
                if kind == "dir" and not any(k == "image" for _, k in reader.list_dir(str(path / name))):
                    continue
            except InvalidInput as e:
                reader.warn(f"skipped {path / name}: {e.message}")
                continue
            parsed.append((str(path / name), *parse_chapter_name(name, (path.name,))))
        if any(kind == "image" for _, kind in entries):
            # Loose images in the series folder: one chapter of their own, titled after the folder.
            parsed.append((str(path), "", path.name if parsed else ""))
        # Chapters without a number in their name come after the highest numbered one.
        highest = max((int(float(number)) for _, number, _ in parsed if number), default=0)
        found = []
        for chapter_id, number, title in parsed:
            if not number:
                highest += 1
                number = str(highest)
            found.append(ChapterInfo(id=chapter_id, number=number, title=title, language=lang or ""))
        return found

    def pages(self, reader, chapter_id):
        path = reader.resolve(chapter_id)
        if path.is_dir():
            names = [n for n, kind in reader.list_dir(str(path)) if kind == "image"]
            return [PageInfo(url=file_url(path / n)) for n in sorted(names, key=natural_key)]
        return [PageInfo(url=zip_url(path, n)) for n in reader.archive_images(str(path))]  # in reading order


register(FolderSource())
