"""A Komga library (docs read at gotson/komga-website, commit d487200).

Layout rule, from komga.org's guides (gotson/komga-website):
- docs/guides/scan-analysis-refresh.md, "What happens during a Scan?": a Series for each subfolder
  of the library, whatever its depth, and a Book for each file, in the Series of its parent folder.
- docs/guides/libraries.md: a library is one root folder; the scanner looks for cbz, zip, cbr, rar,
  pdf and epub files.
- docs/guides/oneshots.md gives the example tree used here (its `_oneshots/` folder left out: it is a
  per-library Komga option): `Space Adventures/Space_Adventures_001.cbz …`, `Super Duck/Super_Duck_001.cbz …`.
- A file's number is ComicInfo.xml's `Number` when imported, else its place in the folder
  (scan-analysis-refresh.md, "Book metadata"); the archives here carry a minimal ComicInfo.xml.

Expected: the series name with underscores for spaces (`Space_Adventures_`) is stripped, leaving
the number; no title.
"""
from tests.library.layouts.tree import Cbz, comic_info, numbered


def book(series, number):
    return Cbz(numbered(2), {"ComicInfo.xml": comic_info([("Series", series), ("Number", number)])})


LAYOUT = {
    "Space Adventures/Space_Adventures_001.cbz": book("Space Adventures", "1"),
    "Space Adventures/Space_Adventures_002.cbz": book("Space Adventures", "2"),
    "Space Adventures/Space_Adventures_003.cbz": book("Space Adventures", "3"),
    "Super Duck/Super_Duck_001.cbz": book("Super Duck", "1"),
    "Super Duck/Super_Duck_002.cbz": book("Super Duck", "2"),
    "Super Duck/Super_Duck_003.cbz": book("Super Duck", "3"),
}

EXPECTED = {
    "Space Adventures": [(None, "1", None, None), (None, "2", None, None), (None, "3", None, None)],
    "Super Duck": [(None, "1", None, None), (None, "2", None, None), (None, "3", None, None)],
}
