"""library/model.py: the packed pages, the read API, and the memory budget of the index."""
import tracemalloc

from library.index import Index
from library.model import Book, Chapter, Manga, Page, Version

BUDGET = 60  # bytes per page, the whole index included


def version(name="c0001 Start [Group]", files=("001.jpg", "002 [r90] [cover].png"), sizes=((800, 1200), (None, None)),
            **kw):
    return Version(name, dir="Manga/b01", files=list(files), sizes=list(sizes), stamp=1, **kw)


def test_it_unpacks_pages_with_tags_rotation_and_unknown_sizes():
    v = version(source="Group", title="Start", direction="ltr")
    assert v.page_count == 2 and v.path == "Manga/b01/c0001 Start [Group]"
    assert v.pages() == [
        Page("001.jpg", 800, 1200, (), 0),
        Page("002 [r90] [cover].png", None, None, ("r90", "cover"), 90),
    ]
    assert v.meta == {} and v.direction == "ltr"


def test_it_keeps_sizes_beyond_two_bytes():
    v = version(files=["huge.png", "small.png"], sizes=[(100_000, 100_000), (1, 2)])
    assert v.sizes() == [(100_000, 100_000), (1, 2)]


def test_it_keeps_an_empty_version_consistent():
    v = version(files=[], sizes=[])
    assert v.pages() == [] and v.files() == [] and v.page_count == 0


def test_it_walks_chapters_in_reading_order():
    def ch(book, key):
        return Chapter(book, key, [version(name=f"c{key}")])

    books = [Book("x1", [ch("x1", "1")]), Book("2", [ch("2", "10"), ch("2", "9")]), Book("0", [ch("0", "1")])]
    manga = Manga("M", books, title="M", sort_title="M", meta={}, direction="rtl", cover=None,
                  added=0, updated=0, stamp=0)
    assert [c.id for c in manga.chapters()] == ["0/1", "2/9", "2/10", "x1/1"]
    assert manga.chapter("2/10").key == "10" and manga.chapter("2/11") is None
    assert manga.book("x1").extra and not manga.book("2").extra


def build_library(manga=40, chapters=100, pages=25):
    """manga × chapters × pages, named and sized the way a scan would name and size them."""
    index = {}
    for m in range(manga):
        name = f"Manga Title Number {m}"
        folder = f"b01 Book Title {m}"
        parent = f"{name}/{folder}"
        chs = []
        for c in range(chapters):
            files = [f"{p:03d}.jpg" for p in range(1, pages + 1)]
            v = Version(f"c{c:04d} Chapter Title {c} [Group]", dir=parent, files=files,
                        sizes=[(960, 1400 + p) for p in range(pages)],
                        stamp=(123456 << 64) | 1_790_000_000_000_000_000 + c,
                        source="Group", title=f"Chapter Title {c}", direction="rtl")
            chs.append(Chapter("1", str(c), [v]))
        book = Book("1", chs, title=f"Book Title {m}", folder=folder, stamp=1 << 70)
        index[name] = Manga(name, [book], title=name, sort_title=name, meta={"authors": ["Someone"]}, direction="rtl",
                            cover=f"{parent}/c0000 Chapter Title 0 [Group]/001.jpg", added=1, updated=2, stamp=1 << 70)
    return Index(index)


def test_it_keeps_the_index_within_sixty_bytes_a_page():
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    index = build_library()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    retained = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    pages = index.counts()["pages"]
    assert pages == 100_000
    per_page = retained / pages
    print(f"index: {retained} bytes for {pages} pages = {per_page:.1f} bytes a page")
    assert per_page <= BUDGET
