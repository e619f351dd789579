"""Libraries laid out exactly as downloaders and other readers write them, as test data.

Each module names one tool and exports two tables:

- LAYOUT: {path relative to LIBRARY: Pages(...) | Cbz(...) | bytes}, the tree the tool writes for one
  or two manga, with a comment giving the naming rule's source and version;
- EXPECTED: {manga title: [(book key or None, chapter key, title or None, source or None), ...]}, one
  row per version in reading order: what a reader that gets names right (as Kavita does) shows.

LAYOUT paths start at the tool's own download root, so folders the tool puts above the manga (a
source folder like `MangaDex (EN)/`) are part of the tree; such a module also names them in SOURCES,
the folders LIBRARY is pointed at. test_layouts.py builds each tree with real images and
archives, scans it and reads it back through the index and GET /api/manga.
"""

LAYOUTS = ("mihon", "mihon_legacy", "suwayomi", "fmd", "hakuneko", "gallery_dl", "mangal", "kaizoku", "houdoku",
           "komga")
