"""Houdoku (read at v2.16.0, commit a0c6934): its downloads directory.

Naming rule, from github.com/xgi/houdoku:
- apps/desktop/src/main/util/filesystem.ts getChapterDownloadPath(): `<downloadsDir>/<series
  title>/Chapter <chapterNumber> - <chapter id>`, the series title through sanitizeFilename(), which
  turns each of / \\ ? % * : | " < > into "-"; the chapter id is the extension's (a MangaDex
  chapter UUID here), so that the folder is found again by the id it contains.
- apps/desktop/src/renderer/services/downloader.ts: pages are the 1-based page number padded to the
  digit count of the page count, with the extension of the image URL (`1.jpg`, or `01.jpg` … `12.jpg`).
- No volume and no scanlator in the name; no ComicInfo.xml.

Expected: chapter from "Chapter <n>"; the trailing id is neither a title nor a source.
"""
from tests.library.layouts.tree import Pages, numbered

LAYOUT = {
    "Moon Garden/Chapter 1 - 8f3c2a1e-4b5d-4e6f-9a0b-1c2d3e4f5a61": Pages(numbered(3, width=1)),
    "Moon Garden/Chapter 2 - 8f3c2a1e-4b5d-4e6f-9a0b-1c2d3e4f5a62": Pages(numbered(12, width=2)),
    "Moon Garden/Chapter 2.5 - 8f3c2a1e-4b5d-4e6f-9a0b-1c2d3e4f5a63": Pages(numbered(3, width=1)),
    "Moon Garden/Chapter 10 - 8f3c2a1e-4b5d-4e6f-9a0b-1c2d3e4f5a64": Pages(numbered(3, width=1)),
    # "Star Ferry: Night Crossing" through sanitizeFilename()
    "Star Ferry- Night Crossing/Chapter 1 - 0b1c2d3e-5f6a-4b7c-8d9e-0f1a2b3c4d51": Pages(numbered(2, width=1)),
}

EXPECTED = {
    "Moon Garden": [
        (None, "1", None, None),
        (None, "2", None, None),
        (None, "2.5", None, None),
        (None, "10", None, None),
    ],
    "Star Ferry- Night Crossing": [
        (None, "1", None, None),
    ],
}
