"""Free Manga Downloader: FMD (0.9.x, 2013-2015) and FMD2 (read at 2.0.34.5-741-g300dcfa9).

Naming rule, from github.com/dazedcat19/FMD2:
- Folders: `<SaveTo>/<manga>/<chapter>/<page>`. SaveTo defaults to `downloads/` (FMDOptions.pas
  DEFAULT_PATH); the manga folder is `%MANGA%` (GenerateMangaFolder on by default, frmMain.pas);
  pages are `%.3d` of the 1-based page index (uDownloadsManager.pas TTaskThread.GetFileName);
  "Compress" defaults to 0, a folder of images.
- The chapter folder is the ChapterCustomRename template (uBaseUnit.pas CustomRename()):
  %NUMBERING% is `Format('%.4d', [index])`, the chapter's 1-based position in the site's list
  (frmMain.pas), and %CHAPTER% the chapter name. The default was '%NUMBERING% - %CHAPTER%' in FMD
  (uBaseUnit.pas DEFAULT_CUSTOM_RENAME, still so in 2015, commit 149bcc69) and is '%CHAPTER%' in
  FMD2 (FMDOptions.pas DEFAULT_CHAPTER_CUSTOMRENAME); settings carried over keep the old one.
- Before that, the chapter name goes through VolumeChapterPadZero() (uMisc.pas): with the default
  options ConvertDigitVolume (length 2) and ConvertDigitChapter (length 3), the first number after
  "Vol" becomes 2 digits and the next number 3 ("Vol. 1 Ch. 2" → "Vol. 01 Ch. 002"); then
  RemoveSymbols() drops \\ / : * ? " < > | tab and ;.
- Chapter names come from the site module. lua/modules/MangaDex.lua: "Vol. <v> " + "Ch. <c>" +
  " - <title>" (+ " [<groups>]" when the "show scanlation group" option is on; off by default).

Expected: the leading %NUMBERING% is a list position, never the chapter (so "0004 - … Ch. 003" is
chapter 3, and "0003 - Vol. 01 Ch. 002.5" chapter 2.5).
"""
from tests.library.layouts.tree import Pages, numbered

LAYOUT = {
    # FMD's '%NUMBERING% - %CHAPTER%': list positions 1..4, chapter numbers 1, 2, 2.5, 3
    "Moon Garden/0001 - Vol. 01 Ch. 001 - Seeds": Pages(numbered(3)),
    "Moon Garden/0002 - Vol. 01 Ch. 002": Pages(numbered(3)),
    "Moon Garden/0003 - Vol. 01 Ch. 002.5 - Interlude": Pages(numbered(3)),
    "Moon Garden/0004 - Vol. 02 Ch. 003 - Roots": Pages(numbered(3)),
    # FMD2's '%CHAPTER%', with MangaDex's "show scanlation group" option on
    "Star Ferry/Ch. 010 - Departure [Crew]": Pages(numbered(2)),
    "Star Ferry/Ch. 011 [Crew]": Pages(numbered(2)),
}

EXPECTED = {
    "Moon Garden": [
        ("1", "1", "Seeds", None),
        ("1", "2", None, None),
        ("1", "2.5", "Interlude", None),
        ("2", "3", "Roots", None),
    ],
    "Star Ferry": [
        (None, "10", "Departure", "Crew"),
        (None, "11", None, "Crew"),
    ],
}
