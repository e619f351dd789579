"""The reading order in a real browser (docs/library.md, "Order"): an ongoing series of volume CBZs
and loose chapters starts at Vol. 1 and reads from the end of Vol. 9 on into Ch. 74; a Western comic
whose ComicInfo says Manga=No reads left to right, a manga saying YesAndRightToLeft right to left."""
from urllib.parse import quote

import pytest

from tests.library.cbz import comic_info, make_cbz, pages

from .conftest import start_server, stop_server
from .test_reading_order import SKY, SKY_ORDER, TIDE, TIDE_ORDER, ongoing_tree

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    server = start_server(tmp_path_factory, ongoing_tree(tmp_path_factory.mktemp("ongoing") / "library"),
                          (SKY, "0/74"))
    yield server
    stop_server(server)


def _chapter_id(page):
    return page.evaluate("JSON.parse(document.getElementById('chapter-data').textContent).chapter.id")


def _manga_page(reader, manga):
    reader.page.goto(f"{reader.server.url}/manga/{quote(manga, safe='')}/")
    return [li.get_attribute("data-c") for li in reader.page.locator(".chapter-list > li.chapter").all()]


def test_it_lists_and_starts_an_ongoing_series_at_its_first_volume(srv, desktop, reader_on):
    reader = reader_on(desktop, srv)
    assert _manga_page(reader, SKY) == SKY_ORDER
    headings = reader.page.locator("section.book h3").all_inner_texts()
    assert headings[0] == "Book 1" and headings[8] == "Book 9" and headings[-1].startswith("Extras 1")
    start = reader.page.locator("#continue")
    assert start.inner_text().startswith("Start reading")
    with reader.page.expect_navigation():
        start.click()
    reader.wait("window.mcReader && mcReader.boxes.length > 0")
    assert _chapter_id(reader.page) == "1/1"
    assert reader.page.url.endswith(f"/read/{quote(SKY, safe='')}/1/1/")


def test_it_reads_on_from_the_last_chapter_of_vol_9_into_ch_74(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="flow").open(SKY, 9, 73)
    assert reader.page.get_attribute(".rd-next", "href") == f"/read/{quote(SKY, safe='')}/0/74/"
    reader.page.evaluate("document.querySelector('.rd-scroller').scrollTop = 1e9")
    card = reader.page.locator(".rd-end")
    card.wait_for()
    assert card.locator(".rd-end-next").inner_text() == "Next: Ch. 74"
    with reader.page.expect_navigation():
        card.locator(".rd-end-next").click()
    reader.wait("window.mcReader && mcReader.boxes.length > 0")
    assert _chapter_id(reader.page) == "0/74"
    assert reader.page.get_attribute(".rd-prev", "href") == f"/read/{quote(SKY, safe='')}/9/73/"
    # The manga page now continues at Ch. 74 as well, once Vol. 9's last chapter is finished. The
    # reader's record of the opening comes first (on a busy machine it could land after /api/read and
    # make Ch. 74, in the version opened, the latest activity).
    reader.saved(SKY, "0/74", lambda entry: entry["p"] == 0)
    client = reader.client
    assert client.post("/api/read", {"m": SKY, "c": "9/73"})[0] == 200
    _manga_page(reader, SKY)
    assert reader.page.locator("#continue").get_attribute("href").endswith(f"/read/{quote(SKY, safe='')}/0/74/")


def test_it_shows_loose_chapters_on_both_sides_of_a_volume(srv, desktop, reader_on):
    reader = reader_on(desktop, srv)
    assert _manga_page(reader, TIDE) == TIDE_ORDER
    assert reader.page.locator("section.book h3").all_inner_texts() == ["Book 2"]
    picker = reader_on(desktop, srv).open(TIDE, 0, 3)
    options = picker.page.eval_on_selector_all(".rd-chapters option", "os => os.map((o) => o.value)")
    assert [v for v in options if v.startswith("read/")] == [f"read/{TIDE}/{cid}/" for cid in TIDE_ORDER]
    assert picker.page.get_attribute(".rd-next", "href") == f"/read/{TIDE}/2/10/"



# Direction from ComicInfo.xml's Manga field, in the reader (docs/library.md, "ComicInfo.xml") -------

COMIC, MANGA = "Harbour Lights", "Lantern Street"


def direction_tree(root):
    """A Western comic whose issues say Manga=No, its bonus issue (first in the folder listing) saying
    nothing, and a manga saying YesAndRightToLeft."""
    for n in (1, 2):
        make_cbz(root / COMIC / f"{COMIC} {n:03d} (2021).cbz", {**pages(3), "ComicInfo.xml": comic_info(
            Series=COMIC, Number=str(n), Manga="No", Writer="R. Vale")})
    make_cbz(root / COMIC / f"{COMIC} - Annual Bonus.cbz", {**pages(2), "ComicInfo.xml": comic_info(Series=COMIC)})
    make_cbz(root / MANGA / f"{MANGA} c001.cbz", {**pages(3), "ComicInfo.xml": comic_info(
        Series=MANGA, Number="1", Manga="YesAndRightToLeft")})
    return root


@pytest.fixture(scope="module")
def western(tmp_path_factory):
    server = start_server(tmp_path_factory, direction_tree(tmp_path_factory.mktemp("western") / "library"),
                          (MANGA, "0/1"))
    yield server
    stop_server(server)


@pytest.mark.parametrize("manga, forward, direction, shown", [
    (COMIC, "ArrowRight", "ltr", "Left to right"),
    (MANGA, "ArrowLeft", "rtl", "Right to left"),
])
def test_it_reads_a_comic_left_to_right_and_a_manga_right_to_left(western, desktop, reader_on, manga, forward,
                                                                   direction, shown):
    reader = reader_on(desktop, western, startMode="page")
    reader.page.goto(f"{western.url}/manga/{quote(manga, safe='')}/")
    facts = reader.page.locator("dd.direction").inner_text()
    assert facts.startswith(shown) and "ComicInfo.xml" in facts, facts
    reader.open(manga, 0, 1)
    assert reader.page.evaluate("JSON.parse(document.getElementById('chapter-data').textContent).direction") \
        == direction
    assert reader.state("mcReader.page") == 0
    reader.page.keyboard.press(forward)  # the arrow that points the way the pages run turns forward
    reader.wait("mcReader.page === 1")
    reader.page.keyboard.press("ArrowLeft" if forward == "ArrowRight" else "ArrowRight")
    reader.wait("mcReader.page === 0")
