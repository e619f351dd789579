"""Kaizoku (read at v1.6.1, commit fc86b7d): a library folder filled by mangal v4.0.6.

Naming rule, from github.com/oae/kaizoku:
- docker/Dockerfile installs mangal v4.0.6; docker/root/etc/services.d/kaizoku/run sets
  formats.use "cbz", downloader.chapter_name_template "[{padded-index}] {chapter}",
  downloader.create_manga_dir true, downloader.create_volume_dir false, metadata.comic_info_xml true,
  metadata.series_json true, metadata.fetch_anilist true, downloader.download_cover true.
- src/server/utils/mangal.ts downloadChapter() runs `mangal inline --source <source> --query <title>
  --manga exact --chapters <index> -d` with the library path as its working directory, one chapter at
  a time; the manga folder is sanitizer(title) (src/utils/index.ts, the same replacements as mangal's
  SanitizeFilename: "Moon Garden" → "Moon_Garden").
- The rest is mangal's (see mangal.py): `[%04d]` of the chapter's 1-based place in the Lua scraper's
  list, the chapter name as the site gives it (metafates/mangal-scrapers scrapers/Mangasee.lua: the
  site's "Chapter 1"), ComicInfo.xml with Number = that place again, cover.jpg and series.json.

Expected: a list that starts at a chapter 0 puts every position one above its chapter, so the
position must never be read as the chapter; ComicInfo's Number (the position) does not override it.
"""
from tests.library.layouts.mangal import cbz, manga_files

LAYOUT = {
    **manga_files("Moon_Garden", "Moon Garden"),
    "Moon_Garden/[0001]_Chapter_0.cbz": cbz("Moon Garden", 1, "Chapter 0"),
    "Moon_Garden/[0002]_Chapter_1.cbz": cbz("Moon Garden", 2, "Chapter 1"),
    "Moon_Garden/[0003]_Chapter_2.cbz": cbz("Moon Garden", 3, "Chapter 2"),
    "Moon_Garden/[0004]_Chapter_2.5.cbz": cbz("Moon Garden", 4, "Chapter 2.5"),
    "Moon_Garden/[0005]_Chapter_3.cbz": cbz("Moon Garden", 5, "Chapter 3"),
    **manga_files("Star_Ferry", "Star Ferry"),
    "Star_Ferry/[0001]_Chapter_1.cbz": cbz("Star Ferry", 1, "Chapter 1"),
    "Star_Ferry/[0002]_Chapter_2.cbz": cbz("Star Ferry", 2, "Chapter 2"),
}

EXPECTED = {
    "Moon Garden": [
        (None, "0", None, None),
        (None, "1", None, None),
        (None, "2", None, None),
        (None, "2.5", None, None),
        (None, "3", None, None),
    ],
    "Star Ferry": [
        (None, "1", None, None),
        (None, "2", None, None),
    ],
}
