"""Table-driven tests of library/names.py: every accepted form of docs/library.md ("Names", "Pages")."""
import pytest

from library.names import (
    BookName,
    ChapterName,
    is_ignored,
    is_page,
    is_valid_text,
    key_order,
    natural_key,
    next_free_key,
    number_key,
    parse_book,
    parse_chapter,
    parse_page,
    parse_volume_chapter,
)


@pytest.mark.parametrize("digits, key", [
    ("1", "1"), ("01", "1"), ("0012.50", "12.50"), ("0003.10", "3.10"), ("0012.5", "12.5"), ("0000", "0"),
    ("2.0", "2.0"), ("2.", "2"), ("2.05", "2.05"),
    ("0.5", "0.5"), ("100", "100"),
])
def test_it_normalises_numbers(digits, key):
    assert number_key(digits) == key


@pytest.mark.parametrize("name, expected", [
    ("b01", BookName("1", None)),
    ("b01 Spring", BookName("1", "Spring")),
    ("v01", BookName("1", None)),
    ("vol 1", BookName("1", None)),
    ("Vol.1", BookName("1", None)),
    ("VOL_02 - Winter", BookName("2", "Winter")),
    ("volume 1", BookName("1", None)),
    ("Volume 3 The End", BookName("3", "The End")),
    ("book 1", BookName("1", None)),
    ("b02.5 Interlude", BookName("2.5", "Interlude")),
    ("x01", BookName("x1", None)),
    ("x01 Side Stories", BookName("x1", "Side Stories")),
    ("extra 1", BookName("x1", None)),
    ("Extra 2 More", BookName("x2", "More")),
    ("extras", BookName("x1", "extras")),
    ("Specials", BookName("x1", "Specials")),
    ("omake", BookName("x1", "omake")),
    ("b1a", None),
    ("Bonus", None),
    ("Book of Dust", None),
    ("Extraordinary", None),
    ("xmas", None),
    ("c0001 Seeds", None),
    ("vampire 2", None),
])
def test_it_parses_book_names(name, expected):
    assert parse_book(name) == expected


@pytest.mark.parametrize("name, in_book, expected", [
    ("c0001 Seeds", False, ChapterName("1", "Seeds", None)),
    ("c0002 Roots [MangaDex]", False, ChapterName("2", "Roots", "MangaDex")),
    ("c0002 Roots [Official]", True, ChapterName("2", "Roots", "Official")),
    ("c0002.5 Interlude", False, ChapterName("2.5", "Interlude", None)),
    ("c0012.50", False, ChapterName("12.50", None, None)),
    ("ch 2", False, ChapterName("2", None, None)),
    ("ch.2", False, ChapterName("2", None, None)),
    ("Ch.2 - The Gate", False, ChapterName("2", "The Gate", None)),
    ("chapter 2", False, ChapterName("2", None, None)),
    ("Chapter 5: Frost", False, ChapterName("5", "Frost", None)),
    ("#2", False, ChapterName("2", None, None)),
    ("# 7 Seven", False, ChapterName("7", "Seven", None)),
    ("0002", False, ChapterName("2", None, None)),
    ("0000 Prologue", False, ChapterName("0", "Prologue", None)),
    ("c2.Title", False, ChapterName("2", "Title", None)),
    ("c_3_Under_Score", False, ChapterName("3", "Under Score", None)),
    ("c0004 [Official]", False, ChapterName("4", None, "Official")),
    ("c0004 Part [2] [Group A]", False, ChapterName("4", "Part [2]", "Group A")),
    ("c0004 [Group] Title", False, ChapterName("4", "Title", "Group")),
    ("c0001[MangaDex]", False, ChapterName("1", None, "MangaDex")),
    ("x01 Omake", True, ChapterName("x1", "Omake", None)),
    ("x01 Omake", False, None),
    ("c12a", False, None),
    ("Bonus", False, None),
    ("b01 Spring", False, None),
    ("", False, None),
])
def test_it_parses_chapter_names(name, in_book, expected):
    assert parse_chapter(name, in_book=in_book) == expected


@pytest.mark.parametrize("name, expected", [
    ("Vol.02 Ch.005 Frost [Group]", (BookName("2", None), ChapterName("5", "Frost", "Group"))),
    ("v1 c3", (BookName("1", None), ChapterName("3", None, None))),
    ("Vol 1 Spring", None),
    ("c0001", None),
])
def test_it_parses_volume_and_chapter_in_one_name(name, expected):
    assert parse_volume_chapter(name) == expected


def test_it_sorts_keys_numerically_with_extras_last():
    keys = ["x2", "10", "2.5", "x1", "0", "2", "1"]
    assert sorted(keys, key=key_order) == ["0", "1", "2", "2.5", "10", "x1", "x2"]


def test_order_reads_sub_chapter_runs_and_quarter_chapters():
    run = ["3.11", "3.1", "3.10", "3.9", "3.2", "4", "3"]
    assert sorted(run, key=key_order) == ["3", "3.1", "3.2", "3.9", "3.10", "3.11", "4"]
    quarters = ["12.75", "12.5", "13", "12.25", "12"]
    assert sorted(quarters, key=key_order) == ["12", "12.25", "12.5", "12.75", "13"]
    assert sorted(["2.05", "2.5", "2", "2.0"], key=key_order) == ["2", "2.0", "2.05", "2.5"]


def test_it_sorts_names_naturally_with_plain_ties():
    names = ["10.jpg", "2.jpg", "1.jpg", "B.jpg", "a.jpg", "002.jpg"]
    assert sorted(names, key=natural_key) == ["1.jpg", "002.jpg", "2.jpg", "10.jpg", "a.jpg", "B.jpg"]


@pytest.mark.parametrize("used, after, key", [
    (set(), None, "1"), ({"1", "2"}, "2", "3"), ({"1", "2", "3"}, "1", "4"), ({"3"}, "2.5", "4"),
    ({"1"}, "x1", "2"),
])
def test_it_finds_the_next_free_key(used, after, key):
    assert next_free_key(used, after) == key


@pytest.mark.parametrize("name, tags, rotation", [
    ("001.jpg", (), 0),
    ("001 [cover].jpg", ("cover",), 0),
    ("001 [Cover] [extra].png", ("cover", "extra"), 0),
    ("002-003 [wide].jpg", ("wide",), 0),
    ("004 [single].jpg", ("single",), 0),
    ("005 [r90].jpg", ("r90",), 90),
    ("006 [R180].webp", ("r180",), 180),
    ("007 [r270] [odd tag].avif", ("r270", "odd tag"), 270),
    ("008 [].jpg", (), 0),
    ("009 [r45].jpg", ("r45",), 0),
])
def test_it_reads_page_tags_and_rotation(name, tags, rotation):
    page = parse_page(name)
    assert page.tags == tags and page.rotation == rotation


@pytest.mark.parametrize("name, page", [
    ("001.jpg", True), ("001.JPG", True), ("a.jpeg", True), ("a.png", True), ("a.webp", True),
    ("a.gif", True), ("a.avif", True), ("a.svg", False), ("manga.json", False), ("a.jpg.txt", False),
    (".jpg", False), (".hidden.jpg", False), ("a.jpg.", False), ("a.jpg ", False), ("noext", False),
])
def test_it_recognises_pages_by_extension(name, page):
    assert is_page(name) is page


@pytest.mark.parametrize("name, ignored", [
    (".staging", True), (".DS_Store", True), ("@eaDir", True), ("__MACOSX", True), ("Thumbs.db", True),
    ("desktop.ini", True), ("Desktop.INI", True), ("c0001", False), ("Moon Garden", False),
])
def test_it_ignores_hidden_and_system_names(name, ignored):
    assert is_ignored(name) is ignored


def test_it_flags_names_that_are_not_utf8():
    assert is_valid_text("Moon Garden ‮ x")
    assert not is_valid_text(b"bad \xff name".decode("utf-8", "surrogateescape"))
