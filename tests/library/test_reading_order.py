"""library/model.py's reading order (docs/library.md, "Order"): where the chapters without a book go."""
import pytest

from library.model import Book, Chapter, Manga, Version


def _book(key, chapters):
    return Book(key, [Chapter(key, c, [Version(f"c{c}", dir=None, files=["1.png"], sizes=[(1, 1)], stamp=1)])
                      for c in chapters])


def _manga(books):
    return Manga("M", [_book(k, cs) for k, cs in books.items()], title="M", sort_title="M", meta={},
                 direction="rtl", cover=None, added=0, updated=0, stamp=0)


def _ongoing():
    books = {str(v): [str(c) for c in range(8 * v - 7, 8 * v + 1)] for v in range(1, 9)}
    books["9"] = [str(c) for c in range(65, 74)]
    books["0"] = ["74", "75"]
    return books


# (why, {book: [chapter keys]}, the reading order as runs "book: chapters")
CASES = [
    ("an ongoing series: the volumes, then the loose chapters", _ongoing(),
     [f"{v}: {' '.join(str(c) for c in range(8 * v - 7, 8 * v + 1))}" for v in range(1, 9)]
     + ["9: " + " ".join(str(c) for c in range(65, 74)), "0: 74 75"]),
    ("loose chapters on both sides of a volume split into two runs",
     {"0": ["1", "2", "3", "21", "22"], "2": ["10", "20"]}, ["0: 1 2 3", "2: 10 20", "0: 21 22"]),
    ("a loose chapter inside a volume's range follows that volume",
     {"0": ["5"], "1": ["1", "8"], "2": ["9", "16"]}, ["1: 1 8", "0: 5", "2: 9 16"]),
    ("a tie with a volume's first chapter: after that volume",
     {"0": ["9"], "1": ["1", "8"], "2": ["9", "16"]}, ["1: 1 8", "2: 9 16", "0: 9"]),
    ("whole-volume archives (chapter 1 each): a prologue first, the rest after",
     {"0": ["0", "20"], "1": ["1"], "2": ["1"]}, ["0: 0", "1: 1", "2: 1", "0: 20"]),
    ("whole-volume archives and a loose chapter 1: after the volumes",
     {"0": ["1", "2"], "1": ["1"], "2": ["1"]}, ["1: 1", "2: 1", "0: 1 2"]),
    ("numbering that restarts in each volume: the loose chapters after them",
     {"0": ["11", "12"], "1": ["1", "5"], "2": ["1", "5"]}, ["1: 1 5", "2: 1 5", "0: 11 12"]),
    ("a prologue before numbered volumes",
     {"0": ["0", "0.5"], "1": ["1", "2"]}, ["0: 0 0.5", "1: 1 2"]),
    ("extras books stay last, after trailing loose chapters",
     {"x1": ["1"], "0": ["9", "10"], "1": ["1", "8"]}, ["1: 1 8", "0: 9 10", "x1: 1"]),
    ("a loose extra chapter goes with the last numbered loose chapter",
     {"0": ["1", "x1"], "2": ["5", "6"]}, ["0: 1 x1", "2: 5 6"]),
    ("only loose extras: after the volumes",
     {"0": ["x1"], "1": ["1"]}, ["1: 1", "0: x1"]),
    ("a volume's own extra chapters stay in it; a volume with only extras is never a boundary",
     {"0": ["3"], "1": ["1", "2", "x1"], "1.5": ["x1"], "2": ["4"]}, ["1: 1 2 x1", "1.5: x1", "0: 3", "2: 4"]),
    ("decimal chapters compare by number (3.10 is after 3.9)",
     {"0": ["3.9", "3.10"], "1": ["3.5"], "2": ["3.10", "4"]}, ["1: 3.5", "0: 3.9", "2: 3.10 4", "0: 3.10"]),
    ("no loose chapters: books by key", {"2": ["3"], "1": ["1"], "x1": ["1"]}, ["1: 1", "2: 3", "x1: 1"]),
    ("only loose chapters and extras", {"x1": ["1"], "0": ["1", "2"]}, ["0: 1 2", "x1: 1"]),
]


@pytest.mark.parametrize(("books", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_it_places_chapters_without_a_book_by_number(books, expected):
    manga = _manga(books)
    assert [f"{b.key}: {' '.join(c.key for c in chapters)}" for b, chapters in manga.runs()] == expected
    assert [c.id for c in manga.chapters()] == [f"{r.split(':')[0]}/{k}" for r in expected for k in r.split()[1:]]


def test_it_keeps_every_chapter_once_with_its_id():
    manga = _manga({"0": ["1", "2", "3", "21", "22", "x1"], "2": ["10", "20"], "x1": ["1"]})
    ids = [c.id for c in manga.chapters()]
    assert sorted(ids) == sorted(c.id for b in manga.books for c in b.chapters) and len(set(ids)) == len(ids)
    assert all(manga.chapter(cid).id == cid for cid in ids)
    assert [b.key for b in manga.books] == ["0", "2", "x1"]  # the books themselves stay in key order
