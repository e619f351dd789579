"""The reading order in a real browser (docs/library.md, "Order"): an ongoing series of volume CBZs
and loose chapters starts at Vol. 1 and reads from the end of Vol. 9 on into Ch. 74."""
from urllib.parse import quote

import pytest

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
    # The manga page now continues at Ch. 74 as well, once Vol. 9's last chapter is finished.
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

