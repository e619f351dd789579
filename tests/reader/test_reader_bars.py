"""The reader's bars in a real browser: shown on open, hidden on the first turn or after 100 px of
scrolling, never shown by scrolling, the one-time hint, the chapter picker and the end card."""
import time

import pytest

MOON = "Moon Garden"


@pytest.fixture(scope="module")
def srv(demo_server):
    return demo_server


def bars(reader):
    return reader.state("mcReader.bars")


def test_it_hides_the_bars_on_the_first_turn_with_a_hint_once_per_family(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page").open(MOON, 1, 1)
    assert bars(reader) and reader.page.is_visible(".rd-top") and reader.page.is_visible(".rd-bottom")
    reader.page.keyboard.press("ArrowLeft")
    assert not bars(reader) and reader.state("mcReader.hint")
    assert "press M" in reader.page.inner_text(".rd-hint")
    reader.page.wait_for_selector(".rd-top", state="hidden")
    reader.open(MOON, 1, 2)  # the same device: Page and Book had their hint
    reader.page.keyboard.press("ArrowLeft")
    assert not bars(reader) and not reader.state("mcReader.hint")
    reader.page.keyboard.press("m")
    reader.page.click(".rd-mode[data-mode=book]")
    reader.page.keyboard.press("ArrowLeft")
    assert not bars(reader) and not reader.state("mcReader.hint")
    reader.page.keyboard.press("m")
    reader.page.click(".rd-mode[data-mode=flow]")  # Flow has its own hint
    reader.page.evaluate("document.querySelector('.rd-scroller').scrollTop += 300")
    reader.wait("!mcReader.bars")
    assert reader.state("mcReader.hint")


def test_it_hides_after_100px_of_scrolling_and_never_shows_by_scrolling(srv, phone, reader_on):
    reader = reader_on(phone, srv, startMode="flow").open(MOON, 1, 1)
    scroll = "document.querySelector('.rd-scroller').scrollTop = {}"
    reader.page.evaluate(scroll.format(60))
    reader.settle()
    assert bars(reader)
    reader.page.evaluate(scroll.format(170))
    reader.settle()
    assert not bars(reader)
    for top in (0, 900, 50):
        reader.page.evaluate(scroll.format(top))
        reader.settle()
        assert not bars(reader)
    assert "Tap the middle" in reader.page.inner_text(".rd-hint")
    reader.page.touchscreen.tap(195, 420)  # the middle band of the page
    assert bars(reader)


def test_showing_the_bars_stops_a_smooth_scroll(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="flow").open(MOON, 1, 1)
    reader.page.keyboard.press("m")
    reader.page.mouse.click(640, 700)  # a smooth step of 720 px starts …
    reader.page.keyboard.press("m")  # … and showing the bars stops it
    assert bars(reader)
    stopped = reader.state("mcReader.scroll.y")
    time.sleep(0.6)
    assert bars(reader) and reader.state("mcReader.scroll.y") == stopped < 720


def test_it_offers_every_chapter_grouped_by_book_with_read_marks(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page")
    reader.client.post("/api/progress", {"m": MOON, "c": "1/1", "v": "c0001 Seeds", "p": 10, "n": 11, "done": True})
    reader.open(MOON, 1, 2.5)
    groups = reader.page.evaluate("""Array.from(document.querySelectorAll('.rd-chapters optgroup')).map((g) =>
        [g.label, Array.from(g.children).map((o) => o.textContent)])""")
    assert groups == [
        ["Book 1 · Spring",
         ["✓ Ch. 1 · Seeds", "\u2003Ch. 2 · Roots", "\u2003Ch. 2.5 · Interlude", "\u2003Ch. 3 · Branches"]],
        ["Book 2 · Summer", ["\u2003Ch. 4 · Leaves", "\u2003Ch. 5 · Blossoms", "\u2003Extra 1 · Summer Sketches"]],
        ["Extras 1 · Side Stories", ["\u2003Extra 1 · Omake"]],  # as on the manga page, not "Ch. 1"
        ["Mark chapters", ["Mark previous chapters read", "Mark all read", "Mark all unread"]],
    ]
    selected = reader.page.eval_on_selector(".rd-chapters", "s => s.selectedOptions[0].textContent")
    assert selected == "\u2003Ch. 2.5 · Interlude"
    assert reader.page.locator(".rd-versions").count() == 0  # one version: no version picker
    with reader.page.expect_navigation():
        reader.page.select_option(".rd-chapters", "read/Moon%20Garden/2/x1/")
    reader.wait("window.mcReader && mcReader.boxes.length > 0")
    assert reader.page.url.endswith("/read/Moon%20Garden/2/x1/")
    manga = reader.client.get("/manga/Moon%20Garden/")[2].decode()
    assert '/read/Moon%20Garden/x1/1/"><span class="label">Extra 1</span> <span class="ctitle">Omake' in manga
    omake = reader.page.eval_on_selector("optgroup[label^='Extras 1'] option", "o => o.textContent.trim()")
    assert omake == "Extra 1 · Omake"


def test_it_lists_webtoon_chapters_without_a_book_heading(srv, phone, reader_on):
    reader = reader_on(phone, srv).open("Long Scroll", 0, 2)
    groups = reader.page.eval_on_selector_all(".rd-chapters optgroup", "gs => gs.map((g) => g.label)")
    assert groups == ["Mark chapters"]  # no book heading
    options = reader.page.eval_on_selector_all(".rd-chapters > option", "os => os.map((o) => o.textContent.trim())")
    assert options == ["Ch. 1 · Start", "Ch. 2 · Next", "Ch. 3 · Deep Water"]


def test_it_links_the_neighbours_and_the_manga(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page").open(MOON, 1, 2.5)
    assert reader.page.get_attribute(".rd-prev", "href") == "/read/Moon%20Garden/1/2/"
    assert reader.page.get_attribute(".rd-next", "href") == "/read/Moon%20Garden/1/3/"
    assert reader.page.get_attribute(".rd-back", "href") == "/manga/Moon%20Garden/"
    first = reader_on(desktop, srv, startMode="page").open(MOON, 1, 1)
    assert first.page.locator("a.rd-prev").count() == 0 and first.page.locator(".rd-prev.rd-disabled").count() == 1


def test_it_ends_the_last_chapter_without_a_next_link(srv, phone, reader_on):
    reader = reader_on(phone, srv, startMode="flow").open(MOON, "x1", 1)
    reader.page.evaluate("document.querySelector('.rd-scroller').scrollTop = 1e9")
    card = reader.page.locator(".rd-end")
    assert card.is_visible() and "This is the last chapter for now." in card.inner_text()
    assert card.locator(".rd-end-next").count() == 0
    reader.wait("mcReader.done")
