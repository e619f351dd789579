"""Suwayomi-Server (read at v2.3.2243, commit 4b2c19a): its downloads folder, `mangas/` in it.

Naming rule, from github.com/Suwayomi/Suwayomi-Server:
- server/.../server/ServerSetup.kt: `mangaDownloadsRoot` is `<downloadsPath>/mangas` (thumbnails go
  to `<downloadsPath>/thumbnails`). LIBRARY here is that `mangas/` folder.
- server/.../manga/impl/util/DirName.kt: `<source.toString()>/<manga title>/<chapter dir>`, each part
  through SafePath.buildValidFilename() (FAT-invalid characters → `_`); source.toString() is
  `"$name (${lang.uppercase()})"` (HttpSource.kt), and the chapter dir is `<scanlator>_<chapter name>`,
  or the name alone when the scanlator is null. No md5 suffix, unlike Mihon since v0.19.2.
- Page.kt getPageName(): `%0{n}d` of the 1-based page index, n = max(3, digits of the page count).
- ChaptersFilesProvider.kt writes ComicInfo.xml (util/GetComicInfo.kt: Title = the chapter name,
  Series, Number, Web, Translator, Genre, Year/Month/Day of the upload) into the chapter; with
  `downloadAsCbz` ArchiveProvider.kt zips it (deflated) to `<chapter dir>.cbz`.
- Chapter names come from the same extensions as Mihon's (MangaDex: "Vol.1 Ch.3 - Title").
"""
from tests.library.layouts.tree import Cbz, Pages, comic_info, numbered

XMLNS = ' xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'


def chapter(folder, series, name, number, scanlator, cbz=False):
    info = comic_info([("Title", name), ("Series", series), ("Number", number),
                       ("Web", "https://mangadex.org/chapter/0d6b2c1a-3f4e-4a5b-9c8d-7e6f5a4b3c2d"),
                       ("Translator", scanlator), ("Genre", "Drama"), ("Year", 2024), ("Month", 5), ("Day", 1)],
                      attrs=XMLNS)
    dirname = f"{scanlator}_{name}" if scanlator is not None else name
    if cbz:
        return f"{folder}/{dirname}.cbz", Cbz(numbered(3), {"ComicInfo.xml": info})
    return f"{folder}/{dirname}", Pages(numbered(3), {"ComicInfo.xml": info})


# the folders above the manga: LIBRARY is pointed at each (test_layouts.py)
SOURCES = ("MangaDex (EN)", "Asura Scans (EN)")

LAYOUT = dict([
    chapter("MangaDex (EN)/Moon Garden", "Moon Garden", "Vol.1 Ch.1 - Seeds", "1", "Lunar Scans"),
    chapter("MangaDex (EN)/Moon Garden", "Moon Garden", "Vol.1 Ch.2", "2", "Lunar Scans"),
    chapter("MangaDex (EN)/Moon Garden", "Moon Garden", "Vol.1 Ch.2", "2", "Moon Team"),
    chapter("MangaDex (EN)/Moon Garden", "Moon Garden", "Vol.2 Ch.3 - Roots", "3", "Lunar Scans", cbz=True),
    # Asura Scans' extension names chapters as the site does and sets no scanlator (see mihon.py)
    chapter("Asura Scans (EN)/Star Ferry", "Star Ferry", "Chapter 7", "7", None, cbz=True),
    chapter("Asura Scans (EN)/Star Ferry", "Star Ferry", "Chapter 8", "8", None, cbz=True),
])

EXPECTED = {
    "Moon Garden": [
        ("1", "1", "Seeds", "Lunar Scans"),
        ("1", "2", None, "Lunar Scans"),
        ("1", "2", None, "Moon Team"),
        ("2", "3", "Roots", "Lunar Scans"),
    ],
    "Star Ferry": [
        (None, "7", None, None),
        (None, "8", None, None),
    ],
}
