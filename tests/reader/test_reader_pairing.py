"""Book pairing in a real browser: covers and wide pages alone, runs paired from their start,
⇄ Shift per run stored in progress.shift (surviving a reload), tags over aspect."""
import pytest

MOON = "Moon Garden"


@pytest.fixture(scope="module")
def srv(demo_server):
    return demo_server


def test_it_pairs_runs_between_covers_and_wide_pages(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="book").open(MOON, 1, 1)
    assert reader.state("mcReader.spreads") == [[0], [1, 2], [3, 4], [5], [6, 7], [8, 9], [10]]
    reader.open(MOON, 1, 3)  # 005 [r90] is stored wide but shown upright, so it pairs
    assert reader.state("mcReader.spreads") == [[0, 1], [2, 3], [4, 5], [6, 7], [8], [9], [10]]


def test_it_lets_tags_override_the_aspect(tiny_server, phone, reader_on):
    reader = reader_on(phone, tiny_server, startMode="book", adapt=False).open("Tiny", 0, 3)
    assert reader.state("mcReader.spreads") == [[0], [1], [2, 3], [4]]


def test_it_shifts_one_run_only_and_keeps_it_after_a_reload(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="book").open(MOON, 1, 1)
    shift = reader.page.locator(".rd-shift")
    assert shift.is_disabled()  # the cover stands alone: nothing to shift
    reader.page.keyboard.press("ArrowLeft")
    assert reader.state("mcReader.page") == 1 and shift.is_enabled()
    reader.page.keyboard.press("m")
    shift.click()
    assert reader.state("mcReader.spreads") == [[0], [1], [2, 3], [4], [5], [6, 7], [8, 9], [10]]
    assert shift.get_attribute("aria-pressed") == "true"
    assert reader.state("mcReader.page") == 1
    entry = reader.saved(MOON, "1/1", lambda e: e["shift"] == [1])
    assert entry["p"] == 1
    reader.open(MOON, 1, 1)
    assert reader.state("mcReader.spreads") == [[0], [1], [2, 3], [4], [5], [6, 7], [8, 9], [10]]
    assert reader.state("mcReader.page") == 1 and reader.state("mcReader.shift") == [1]
    # The second run, after the spread, pairs from its own start and shifts on its own.
    reader.page.keyboard.press("ArrowLeft")
    reader.page.keyboard.press("ArrowLeft")
    reader.page.keyboard.press("ArrowLeft")
    reader.page.keyboard.press("ArrowLeft")
    assert reader.state("mcReader.page") == 6
    reader.page.keyboard.press("m")
    shift.click()
    assert reader.state("mcReader.spreads") == [[0], [1], [2, 3], [4], [5], [6], [7, 8], [9, 10]]
    reader.saved(MOON, "1/1", lambda e: e["shift"] == [1, 6])
    shift.click()
    reader.saved(MOON, "1/1", lambda e: e["shift"] == [1])


def test_it_stores_the_run_start_as_a_full_page_index(srv, phone, reader_on):
    reader = reader_on(phone, srv, startMode="book", adapt=False, skipCovers=True).open("Iron Harbor", 1, 2)
    assert reader.state("mcReader.shown") == [1, 2, 3, 4, 5, 6, 7]  # the cover is hidden
    assert reader.state("mcReader.spreads")[0] == [1, 2]
    reader.page.locator(".rd-shift").click()
    assert reader.state("mcReader.spreads")[:2] == [[1], [2, 3]]
    reader.saved("Iron Harbor", "1/2", lambda e: e["shift"] == [1] and e["p"] == 1 and e["n"] == 8)


def test_it_shows_shift_only_in_book_mode(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page").open(MOON, 1, 1)
    assert reader.page.locator(".rd-shift").is_hidden()
    reader.page.click(".rd-mode[data-mode=book]")
    assert reader.page.locator(".rd-shift").is_visible()
    assert reader.state("mcReader.mode") == "book"
