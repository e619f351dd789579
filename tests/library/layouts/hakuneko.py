"""HakuNeko (read at commit 128f3c7; latest release v6.1.7): its manga directory.

Naming rule, from github.com/manga-download/hakuneko:
- src/web/mjs/engine/Storage.mjs: `_mangaOutputPath()` is `<baseDirectory>/<manga title>`, with a
  `<connector label>/` level only when "Use Sub-Directories" is on (Settings.mjs useSubdirectory,
  off by default); `_chapterOutputPath()` adds `<chapter title>`, plus `.cbz` when the "Chapter File
  Format" is CBZ (Settings.mjs chapterFormat, default a folder of images). Each part goes through
  sanatizePath(): on Linux only `/` and control characters go, and trailing dots and spaces.
- `_pageFileName()`: the 1-based page number padded to the digit count of the page count (`1.jpg`
  for up to 9 pages, `01.jpg` for 10 to 99). A CBZ is stored (JSZip 'STORE') with a ComicInfo.xml
  of Title, Series and PageCount (engine/ComicInfoGenerator.mjs).
- Chapter titles come from the connector. src/web/mjs/connectors/MangaDex.mjs: "Vol." + the volume
  padded to 2, " Ch." + the chapter padded to 4, " - " + title, " (" + language + ")", " [" + groups
  joined by ", " + "]", trimmed: "Vol.01 Ch.0001 - Seeds (en) [Lunar Scans]".

Expected: the language tag `(en)` is not part of the title; the last bracket group is the source.
"""
from tests.library.layouts.tree import Cbz, Pages, comic_info, numbered

XMLNS = ' xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'


def cbz(series, title, pages):
    info = comic_info([("Title", title), ("Series", series), ("PageCount", pages)],
                      header='<?xml version="1.0" encoding="utf-8"?>\n', attrs=XMLNS)
    return Cbz(numbered(pages, width=len(str(pages))), {"ComicInfo.xml": info}, deflate=False)


LAYOUT = {
    "Moon Garden/Vol.01 Ch.0001 - Seeds (en) [Lunar Scans]": Pages(numbered(3, width=1)),
    "Moon Garden/Vol.01 Ch.0002 (en) [Lunar Scans]": Pages(numbered(10, width=2)),
    "Moon Garden/Vol.01 Ch.0002 (en) [Moon Team]": Pages(numbered(3, width=1)),
    "Moon Garden/Ch.0003.5 - Omake (en) [Lunar Scans]": Pages(numbered(3, width=1)),
    # the same downloads with the CBZ chapter format
    "Star Ferry/Vol.02 Ch.0010 - Departure (en) [Crew].cbz": cbz("Star Ferry", "Vol.02 Ch.0010 - Departure (en) [Crew]",
                                                                  3),
    "Star Ferry/Ch.0011 (en) [Crew, Night Shift].cbz": cbz("Star Ferry", "Ch.0011 (en) [Crew, Night Shift]", 3),
}

EXPECTED = {
    "Moon Garden": [
        ("1", "1", "Seeds", "Lunar Scans"),
        ("1", "2", None, "Lunar Scans"),
        ("1", "2", None, "Moon Team"),
        (None, "3.5", "Omake", "Lunar Scans"),
    ],
    "Star Ferry": [
        ("2", "10", "Departure", "Crew"),
        (None, "11", None, "Crew, Night Shift"),
    ],
}
