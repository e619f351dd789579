"""ComicInfo.xml: the fields kept, and the hardening (no DTD, no entities, a size cap)."""
import pytest

from library import comicinfo
from tests.library.cbz import comic_info


def test_it_reads_the_known_fields_and_page_types():
    info, problem = comicinfo.parse(comic_info(
        Series="Moon", Title="Seeds", Number="12.5", Volume="2", Writer="A; B", Penciller="C", Genre="Drama, Sea",
        Tags="Sea, Boats", Web="https://a.example/x javascript:alert(1) http://b.example", LanguageISO="ja",
        Manga="YesAndRightToLeft", Count="40", Year="2020", Summary="<b>bold</b> & more", Unknown="kept out",
        pages_xml='<Pages><Page Image="0" Type="FrontCover"/><Page Image="2" Type="Deleted"/>'
                  '<Page Image="x" Type="Deleted"/></Pages>'))
    assert problem is None
    assert info["Pages"] == [(0, "FrontCover"), (2, "Deleted")] and "Unknown" not in info
    assert comicinfo.manga_fields(info) == {
        "title": "Moon", "description": "<b>bold</b> & more", "authors": ["A", "B"], "artists": ["C"],
        "language": "ja", "genres": ["Drama", "Sea"], "year": 2020, "count": 40, "direction": "rtl",
        "links": {"Web": "https://a.example/x", "Web 2": "http://b.example"}}
    chapter = comicinfo.chapter_fields(info)
    assert (chapter["title"], chapter["number"], chapter["volume"]) == ("Seeds", "12.5", "2")
    assert chapter["tags"] == ["Sea", "Boats"]  # Genre is the manga's, Tags the chapter's (as Komga reads them)
    assert comicinfo.page_types(info, 3) == ({0: ("cover",)}, {2})
    assert comicinfo.page_types(info, 1) == ({0: ("cover",)}, set())  # indexes past the pages are ignored


def test_it_refuses_entities_doctypes_and_oversized_files():
    laughs = (b'<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">'
              b'<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><ComicInfo><Title>&c;</Title></ComicInfo>')
    external = (b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
                b'<ComicInfo><Title>&e;</Title></ComicInfo>')
    utf16 = ('<?xml version="1.0" encoding="utf-16"?><!DOCTYPE x [<!ENTITY e "x">]>'
             '<ComicInfo><Title>&e;</Title></ComicInfo>').encode("utf-16")
    for raw in (laughs, external, utf16):
        assert comicinfo.parse(raw) == (None, "declares a DOCTYPE or entities, which ComicInfo.xml never needs")
    big = comic_info(Summary="x" * (comicinfo.MAX_BYTES + 1))
    assert comicinfo.parse(big) == (None, "is larger than 1024 KB")
    assert comicinfo.parse(b"<ComicInfo><Title>open")[1].startswith("is not valid XML")
    assert comicinfo.parse(b"<html><Title>x</Title></html>") == (None, "has <html> where <ComicInfo> should be")
    assert comicinfo.parse(comic_info(Number="1a"))[0]["Number"] == "1a"
    assert comicinfo.number("1a") is None and comicinfo.number(" 007 ") == "007"


def test_the_manga_field_gives_the_direction_as_komga_and_kavita_read_it():
    """A Komga or Kavita comic library marks Western comics Manga=No: they read left to right."""
    assert comicinfo.manga_fields({"Series": "S", "Manga": "YesAndRightToLeft"})["direction"] == "rtl"
    assert comicinfo.manga_fields({"Series": "S", "Manga": "No"})["direction"] == "ltr"
    for unsaid in ({"Series": "S", "Manga": "Yes"}, {"Series": "S"}, {"Series": "S", "Manga": "Unknown"}):
        assert "direction" not in comicinfo.manga_fields(unsaid), unsaid


@pytest.mark.parametrize("given, title", [
    ("Vol.1 Ch.3 - Arrival in Tokyo", "Arrival in Tokyo"),  # Mihon's and Suwayomi's Title: the chapter name
    ("Chapter 13", None),
    ("Chapter 1 - Seeds", "Seeds"),
    ("Arrival in Tokyo", "Arrival in Tokyo"),
    ("100 Ways to Fall", "100 Ways to Fall"),  # only starts with a number: a title, not a chapter name
    ("", None),
])
def test_a_title_that_is_a_whole_chapter_name_gives_its_title_part(given, title):
    assert comicinfo.title(given) == title
