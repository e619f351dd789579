"""Archive names (docs/library.md, "Archives"): every row of the documented table, and more."""
import pytest

from library.names import parse_archive

SERIES = ("Moon Garden",)

# name, series names, inside a book folder, book key, chapter key, title, source, span
CASES = [
    ("c001 Seeds [Team].cbz", (), False, None, "1", "Seeds", "Team", False),
    ("Chapter 12.zip", (), False, None, "12", None, None, False),
    ("012.cbz", (), False, None, "12", None, None, False),
    ("Moon Garden 012.cbz", SERIES, False, None, "12", None, None, False),
    ("Moon Garden c012.cbz", SERIES, False, None, "12", None, None, False),
    ("Moon Garden - Chapter 12.cbz", SERIES, False, None, "12", None, None, False),
    ("moon.garden_-_c012.CBZ", SERIES, False, None, "12", None, None, False),
    ("c012.5 Interlude.cbz", (), False, None, "12.5", "Interlude", None, False),
    ("Moon Garden v01.cbz", SERIES, False, "1", None, None, None, False),
    ("Moon_Garden_v03.cbz", SERIES, False, "3", None, None, None, False),
    ("v02 Summer.cbz", (), False, "2", None, None, None, False),
    ("Vol.2.zip", (), False, "2", None, None, None, False),
    ("x01 Side Stories.cbz", (), False, "x1", None, None, None, False),
    ("Vol.02 Ch.005 Frost [Team].cbz", (), False, "2", "5", "Frost", "Team", False),
    ("Moon Garden v01 c001-005.cbz", SERIES, False, "1", "1", None, None, True),
    ("c010-012.cbz", (), False, None, "10", None, None, True),
    ("Other Name (2019) v04 (Digital).cbz", SERIES, False, "4", None, None, None, False),
    ("Other Name v04 c030.cbz", SERIES, False, "4", "30", None, None, False),
    ("Moon Garden v01 c003 Frost.cbz", SERIES, True, None, "3", "Frost", None, False),
    ("c003.cbz", (), True, None, "3", None, None, False),
    ("x01 Omake.cbz", (), True, None, "x1", "Omake", None, False),
    ("Moon Garden v01.cbz", SERIES, True, "1", None, None, None, False),
    ("Chapter 3 - 12 Days.cbz", (), False, None, "3", "12 Days", None, False),
]


@pytest.mark.parametrize("name, series, in_book, book, chapter, title, source, span", CASES)
def test_it_parses_archive_names(name, series, in_book, book, chapter, title, source, span):
    found = parse_archive(name, series, in_book)
    assert found is not None, name
    assert (found.book.key if found.book else None) == book
    if chapter is None:
        assert found.chapter is None
    else:
        assert (found.chapter.key, found.chapter.title, found.chapter.source) == (chapter, title, source)
    assert found.span == span


@pytest.mark.parametrize("name, series", [
    ("Bonus.cbz", ()), ("Moon Garden.cbz", SERIES), ("Side Story [Fan].zip", ()), ("c12a.cbz", ()),
])
def test_it_finds_no_number_where_there_is_none(name, series):
    assert parse_archive(name, series) is None
