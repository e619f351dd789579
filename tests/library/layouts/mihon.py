"""Mihon v0.19.2 and later (read at v0.20.4, commit a2c24ff): the download folder.

Naming rule, from github.com/mihonapp/mihon:
- app/.../data/download/DownloadProvider.kt: `<downloads>/<source dir>/<manga dir>/<chapter dir>`.
  getSourceDirName() is `source.toString()`, which HttpSource.kt defines as `"$name (${lang.uppercase()})"`
  (`MangaDex (EN)`); getMangaDirName() is the manga title. getChapterDirName() is
  `<scanlator>_<chapter name>` (no prefix when the scanlator is blank, "Chapter" for a blank name),
  then `_` + the first 6 hex digits of md5(chapter url): the suffix came in with #2305 (v0.19.2) so
  that two chapters with the same name and scanlator get two folders.
- core/common/.../DiskUtil.kt buildValidFilename(): characters FAT refuses become `_`.
- Downloader.kt: pages are `%0{n}d` of the page number, n = max(3, digits of the page count)
  (`001.jpg`); a `ComicInfo.xml` is written in every chapter (getComicInfo() in
  domain/manga/model/Manga.kt: Title = the chapter name, Series = the manga title, Number = the
  chapter number, Translator = the scanlator, Web = the chapter URL), then a `.nomedia`; with the
  "Save as CBZ" option the folder is zipped (stored, ZipWriter.kt) to `<chapter dir>.cbz`.
- Chapter names come from the extension. The MangaDex one (keiyoushi/extensions-source,
  src/all/mangadex/.../MangaDexHelper.kt createChapter()) joins "Vol.<v>", "Ch.<c>", "-", title
  with spaces: "Vol.1 Ch.3 - Arrival in Tokyo"; scanlator = the group names joined by " & ".

Expected: the scanlator prefix is the version's source, the md5 suffix is neither title nor source,
ComicInfo's Title (the whole chapter name, numbers included) is not shown as the title verbatim,
and `MangaDex (EN)/` is a grouping folder, not a manga.
"""
from tests.library.layouts.tree import Cbz, Pages, comic_info, md5_prefix, numbered

XMLNS = ' xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
SITES = {"Asura Scans": "https://asuracomic.net"}
TY = ('<ty:PublishingStatusTachiyomi xmlns:ty="http://www.w3.org/2001/XMLSchema">Ongoing'
      '</ty:PublishingStatusTachiyomi>')


def chapter_info(series, name, number, scanlator, url, source):
    return comic_info([("Title", name), ("Series", series), ("Number", number),
                       ("Web", SITES.get(source, "https://mangadex.org") + url), ("Translator", scanlator),
                       ("Genre", "Drama")],
                      attrs=XMLNS,
                      extra=TY + f'<mh:SourceMihon xmlns:mh="http://www.w3.org/2001/XMLSchema">{source}</mh:SourceMihon>')


def chapter(series, name, number, scanlator, url, source="MangaDex", pages=2, cbz=False):
    """(chapter dir or archive name, node) as Downloader.kt writes them."""
    dirname = f"{scanlator}_{name}" if scanlator else name
    dirname += "_" + md5_prefix(url)
    info = chapter_info(series, name, number, scanlator, url, source)
    if cbz:
        # archiveChapter() zips the pages and ComicInfo.xml; the .nomedia goes to the folder it then deletes
        return f"{dirname}.cbz", Cbz(numbered(pages), {"ComicInfo.xml": info}, deflate=False)
    return dirname, Pages(numbered(pages), {"ComicInfo.xml": info, ".nomedia": b""})


def manga(folder, series, chapters, source="MangaDex"):
    """{path: node} of one manga folder; each chapter is (name, number, scanlator, url[, cbz])."""
    return {f"{folder}/{name}": node for name, node in (chapter(series, *c[:4], source=source, cbz=c[4:] == (True,))
                                                        for c in chapters)}


# the folders above the manga: LIBRARY is pointed at each (test_layouts.py)
SOURCES = ("MangaDex (EN)", "Asura Scans (EN)")

LAYOUT = {
    **manga("MangaDex (EN)/Moon Garden", "Moon Garden", [
        ("Vol.1 Ch.1 - Arrival in Tokyo", "1", "Mangastream", "/chapter/5f0a1c7e-0d4e-4b43-9d0e-1f6a2b3c4d01"),
        ("Vol.1 Ch.2", "2", "Mangastream", "/chapter/5f0a1c7e-0d4e-4b43-9d0e-1f6a2b3c4d02"),
        ("Vol.1 Ch.2", "2", "Asura Scans", "/chapter/5f0a1c7e-0d4e-4b43-9d0e-1f6a2b3c4d03"),
        ("Ch.3.5 - Omake", "3.5", "Lunar Scans & Moon Team", "/chapter/5f0a1c7e-0d4e-4b43-9d0e-1f6a2b3c4d04"),
        # saved while "Save as CBZ" was on
        ("Ch.4 - Roots", "4", "Mangastream", "/chapter/5f0a1c7e-0d4e-4b43-9d0e-1f6a2b3c4d05", True),
    ]),
    # Asura Scans' own extension (keiyoushi/extensions-source, src/en/asurascans/.../AsuraScans.kt): the site's
    # chapter name ("Chapter 13"), no scanlator, so no prefix
    **manga("Asura Scans (EN)/Star Ferry", "Star Ferry", [
        ("Chapter 13", "13", None, "/comics/star-ferry/chapter/13"),
        ("Chapter 14", "14", None, "/comics/star-ferry/chapter/14"),
    ], source="Asura Scans"),
}

EXPECTED = {
    "Moon Garden": [
        ("1", "1", "Arrival in Tokyo", "Mangastream"),
        ("1", "2", None, "Mangastream"),
        ("1", "2", None, "Asura Scans"),
        (None, "3.5", "Omake", "Lunar Scans & Moon Team"),
        (None, "4", "Roots", "Mangastream"),
    ],
    "Star Ferry": [
        (None, "13", None, None),
        (None, "14", None, None),
    ],
}
