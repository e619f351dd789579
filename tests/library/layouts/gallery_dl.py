"""gallery-dl (read at v1.32.9, commit 86047cf): its base-directory, `./gallery-dl/` by default.

Naming rule, from github.com/mikf/gallery-dl:
- gallery_dl/extractor/mangadex.py MangadexExtractor:
  directory_fmt = ("{category}", "{manga}", "{volume:?v/ />02}c{chapter:>03}{chapter_minor}{title:?: //}")
  filename_fmt = "{manga}_c{chapter:>03}{chapter_minor}_{page:>03}.{extension}"
  `volume` is 0 when MangaDex has none, and `{volume:?v/ />02}` then writes nothing; chapter "2.5"
  is chapter 2 with chapter_minor ".5"; `{title:?: //}` writes ": <title>" only when there is one.
  extractor/common.py ChapterExtractor, the base of the other manga sites, has the same formats.
- docs/configuration.rst extractor.*.path-restrict: "auto" replaces only "/" on Linux and
  \\ | / < > : " ? * on Windows, each with path-replace "_"; so ": Seeds" is "_ Seeds" in a tree
  downloaded on Windows.

Expected: `mangadex/` (the category) is a grouping folder; `v01 c001: Seeds` is book 1, chapter 1,
title "Seeds" whichever of ":" or "_" follows the number.
"""
from tests.library.layouts.tree import Pages


def pages(manga, chapter, count=2):
    return Pages(tuple(f"{manga}_c{chapter}_{n:03d}.jpg" for n in range(1, count + 1)))


# the folders above the manga: LIBRARY is pointed at each (test_layouts.py)
SOURCES = ("mangadex",)

LAYOUT = {
    "mangadex/Moon Garden/v01 c001: Seeds": pages("Moon Garden", "001"),
    "mangadex/Moon Garden/v01 c002": pages("Moon Garden", "002"),
    "mangadex/Moon Garden/v01 c002.5: Interlude": pages("Moon Garden", "002.5"),
    "mangadex/Moon Garden/c003: Roots": pages("Moon Garden", "003"),
    # downloaded on Windows: path-restrict "auto" turned ":" into "_"
    "mangadex/Star Ferry/v02 c010_ Departure": pages("Star Ferry", "010"),
    "mangadex/Star Ferry/c011": pages("Star Ferry", "011"),
}

EXPECTED = {
    "Moon Garden": [
        ("1", "1", "Seeds", None),
        ("1", "2", None, None),
        ("1", "2.5", "Interlude", None),
        (None, "3", "Roots", None),
    ],
    "Star Ferry": [
        ("2", "10", "Departure", None),
        (None, "11", None, None),
    ],
}
