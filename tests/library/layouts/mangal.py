"""mangal (read at v4.0.6, commit 66e6baa): its downloader.path.

Naming rule, from github.com/metafates/mangal:
- config/default.go: downloader.chapter_name_template "[{padded-index}] {chapter}",
  downloader.create_manga_dir true, downloader.create_volume_dir false, formats.use "pdf" (users who
  want a reader to read the files set cbz, zip or plain), metadata.comic_info_xml true,
  metadata.series_json true, downloader.download_cover true.
- source/chapter.go formattedName(): {padded-index} is `%04d` of the chapter's Index, its position in
  the source's list, not its number; Filename() is util.SanitizeFilename(name) + "." + format (no
  extension for plain, a folder of images). source/manga.go Dirname() is SanitizeFilename(manga name).
- util/util.go SanitizeFilename(): every one of \\ / < > : ; " ' | ? ! * { } # % & ^ + , ~ and
  whitespace becomes "_", runs of "_" become one, leading and trailing _ - . go.
- source/page.go Filename(): PadZero(index + extension, 10) ("000001.jpg"); converter/cbz/cbz.go
  stores the pages, then ComicInfo.xml (source/chapter.go ComicInfo(): Title = chapter name, Series =
  manga name, Number = the Index again, Manga = YesAndRightToLeft); the cover is `cover.jpg` and
  series.json sits in the manga folder (downloader/download.go).
- Chapter names and indexes come from the source. provider/mangadex/chapters.go: "Chapter <n>" or
  "Chapter <n> - <title>", Index = its place in the API listing from 0, one entry per upload (two
  groups' chapter 2 are two entries); the volume goes only to create_volume_dir, which Chapter.path()
  then drops. Lua scrapers number their tables from 1 (provider/custom/chapters.go, the table key).

Expected: `[0003]` is a position (chapter 2.5 here), underscores are separators, ComicInfo's Number
(also the position) does not override the name, series.json and cover.jpg are no chapters. The
manga is "Star Ferry" though its folder is `Star_Ferry` (series.json's name; Kavita reads `_` in a
series name as a space).
"""
import json

from tests.library.layouts.tree import Cbz, Pages, comic_info, image


def info(manga, chapter, index):
    return comic_info([("Title", chapter), ("Series", manga), ("Number", index or None),
                       ("Web", "https://mangadex.org/chapter/4e7a0c2b-9d1f-4c3e-8b5a-6f0e1d2c3b4a"),
                       ("Genre", "Drama,Fantasy"), ("Summary", f"{manga}, as AniList tells it."),
                       ("Notes", "Downloaded with Mangal. https://github.com/metafates/mangal"),
                       ("Manga", "YesAndRightToLeft")],
                      header="", attrs=' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
                                       ' xmlns:xsd="http://www.w3.org/2001/XMLSchema"')


def pages(count, start):
    return tuple(f"{n}.jpg".rjust(10, "0") for n in range(start, start + count))


def series_json(name):
    return json.dumps({"metadata": {
        "type": "comicSeries", "name": name, "description_formatted": "", "description_text": "",
        "status": "Continuing", "year": 2019, "ComicImage": "", "publisher": "", "comicId": 0,
        "booktype": "Print", "total_issues": 0, "publication_run": ""}}).encode()


def manga_files(folder, name):
    return {f"{folder}/cover.jpg": image("cover.jpg"), f"{folder}/series.json": series_json(name)}


def cbz(manga, index, chapter):
    return Cbz(pages(2, 0), {"ComicInfo.xml": info(manga, chapter, index)}, deflate=False)


LAYOUT = {
    # the built-in MangaDex source, --format cbz: indexes from 0
    **manga_files("Moon_Garden", "Moon Garden"),
    "Moon_Garden/[0000]_Chapter_1_-_Seeds.cbz": cbz("Moon Garden", 0, "Chapter 1 - Seeds"),
    "Moon_Garden/[0001]_Chapter_2.cbz": cbz("Moon Garden", 1, "Chapter 2"),
    "Moon_Garden/[0002]_Chapter_2.cbz": cbz("Moon Garden", 2, "Chapter 2"),
    "Moon_Garden/[0003]_Chapter_2.5_-_Interlude.cbz": cbz("Moon Garden", 3, "Chapter 2.5 - Interlude"),
    # a Lua scraper (Mangasee: the site's "Chapter 10"), --format plain: indexes from 1, pages from 1,
    # and no ComicInfo.xml (converter/plain/plain.go writes the pages only)
    **manga_files("Star_Ferry", "Star Ferry"),
    "Star_Ferry/[0001]_Chapter_10": Pages(pages(2, 1)),
    "Star_Ferry/[0002]_Chapter_11": Pages(pages(2, 1)),
}

EXPECTED = {
    "Moon Garden": [
        (None, "1", "Seeds", None),
        (None, "2", None, None),
        (None, "2", None, None),
        (None, "2.5", "Interlude", None),
    ],
    "Star Ferry": [
        (None, "10", None, None),
        (None, "11", None, None),
    ],
}
