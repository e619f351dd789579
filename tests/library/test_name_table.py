"""The name table of docs/library-names.md is the test: every row reads as the table says, and every
row from Kavita's parser tests agrees with Kavita or carries a note saying why not."""
import pytest

from tests.library.nametable import kavita_reading, reading, rows

ROWS = rows()


def test_the_table_is_large_and_sourced():
    assert len(ROWS) >= 300
    assert all(row.origin for row in ROWS), [row.name for row in ROWS if not row.origin]
    assert len({(row.name, row.folder) for row in ROWS}) == len(ROWS), "a row is in the table twice"


@pytest.mark.parametrize("row", ROWS, ids=[f"{i}:{row.name[:40]}" for i, row in enumerate(ROWS)])
def test_each_name_reads_as_the_table_says(row):
    assert reading(row.name, row.folder) == (row.book, row.chapter, row.title, row.source)


KAVITA_ROWS = [row for row in ROWS if row.kavita]


@pytest.mark.parametrize("row", KAVITA_ROWS, ids=[row.name[:40] for row in KAVITA_ROWS])
def test_kavita_rows_agree_with_kavita_or_say_why(row):
    volume, chapter = (part.strip() for part in row.kavita.split("/"))
    ours = kavita_reading(row.book, row.chapter)
    agrees = all(theirs in ("?", mine) for theirs, mine in zip((volume, chapter), ours))
    assert agrees or row.note, f"{row.name}: Kavita reads {row.kavita}, the table {ours}, and no note says why"
    assert not (agrees and row.note), f"{row.name}: agrees with Kavita, yet has a note"

