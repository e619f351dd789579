"""Tachiyomi (to 0.15.x) and Mihon before v0.19.2: the download folder without the md5 suffix.

Naming rule: github.com/mihonapp/mihon, DownloadProvider.kt getLegacyChapterDirNames() (read at
v0.20.4, commit a2c24ff), which still finds these folders: `buildValidFilename("<scanlator>_<chapter
name>")`, or the chapter name alone when the scanlator is blank, in `<source> (<LANG>)/<manga>/`.
Pages and ComicInfo.xml as in mihon.py. Chapter names as the extensions give them: MangaDex's
"Vol.1 Ch.3 - Arrival in Tokyo", a site's own "Chapter 13".
"""
from tests.library.layouts.mihon import chapter_info
from tests.library.layouts.tree import Pages, numbered


def chapter(folder, series, name, number, scanlator, url, source="MangaDex"):
    dirname = f"{scanlator}_{name}" if scanlator else name
    return f"{folder}/{dirname}", Pages(numbered(2), {"ComicInfo.xml": chapter_info(series, name, number, scanlator,
                                                                                     url, source), ".nomedia": b""})


# the folders above the manga: LIBRARY is pointed at each (test_layouts.py)
SOURCES = ("MangaDex (EN)", "Asura Scans (EN)")

LAYOUT = dict([
    chapter("MangaDex (EN)/Moon Garden", "Moon Garden", "Vol.1 Ch.3 - Arrival in Tokyo", "3", "Mangastream",
            "/chapter/7c1d2e3f-aaaa-4bbb-8ccc-000000000003"),
    chapter("MangaDex (EN)/Moon Garden", "Moon Garden", "Vol.1 Ch.4", "4", "Mangastream",
            "/chapter/7c1d2e3f-aaaa-4bbb-8ccc-000000000004"),
    chapter("MangaDex (EN)/Moon Garden", "Moon Garden", "Vol.2 Ch.10 - Frost", "10", "Asura Scans",
            "/chapter/7c1d2e3f-aaaa-4bbb-8ccc-000000000010"),
    # Asura Scans' own extension (keiyoushi/extensions-source, src/en/asurascans/.../AsuraScans.kt) takes the
    # chapter name from the site ("Chapter 13") and sets no scanlator: no prefix
    chapter("Asura Scans (EN)/Star Ferry", "Star Ferry", "Chapter 13", "13", None, "/comics/star-ferry/chapter/13",
            source="Asura Scans"),
    chapter("Asura Scans (EN)/Star Ferry", "Star Ferry", "Chapter 13.5", "13.5", None,
            "/comics/star-ferry/chapter/13.5", source="Asura Scans"),
])

EXPECTED = {
    "Moon Garden": [
        ("1", "3", "Arrival in Tokyo", "Mangastream"),
        ("1", "4", None, "Mangastream"),
        ("2", "10", "Frost", "Asura Scans"),
    ],
    "Star Ferry": [
        (None, "13", None, None),
        (None, "13.5", None, None),
    ],
}
