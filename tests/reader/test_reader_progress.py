"""Reading progress from a real browser: saved after the position settles and on leaving,
restored on reload and across versions, indices in the full page list, modes and lastMode."""
import time

import pytest

MOON = "Moon Garden"
MANGADEX = "c0002 Roots [MangaDex]"


@pytest.fixture(scope="module")
def srv(demo_server):
    return demo_server


def test_it_saves_after_the_position_settles_and_reopens_there(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page")
    reader.page.clock.install()
    reader.open(MOON, 1, 2, MANGADEX)
    reader.saved(MOON, "1/2", lambda e: e["p"] == 0)  # opening a chapter records it
    # The saves after the opening's (on a busy machine the opening's record may be sent again).
    posted = []
    reader.page.on("request", lambda r: posted.append(r) if r.url.endswith("/api/progress")
                   and (r.post_data_json or {}).get("p") != 0 else None)
    reader.page.clock.pause_at(reader.page.evaluate("Date.now()") + 50)  # from here time moves only when told
    for _ in range(3):
        reader.page.keyboard.press("ArrowLeft")
    reader.page.clock.run_for(600)
    assert reader.state("mcReader.page") == 3 and posted == []  # not yet: 700 ms after the last turn
    reader.page.clock.run_for(200)
    entry = reader.saved(MOON, "1/2", lambda e: e["p"] == 3)
    assert len(posted) == 1
    assert entry == {**entry, "v": MANGADEX, "n": 10, "done": False, "shift": []}
    reader.open(MOON, 1, 2, MANGADEX)
    assert reader.state("mcReader.page") == 3


def test_it_says_the_server_cannot_be_reached_and_saves_when_it_answers_again(srv, desktop, reader_on):
    """The toast said "Reading position not saved: Failed to fetch" and nothing tried again."""
    reader = reader_on(desktop, srv, startMode="page")
    reader.page.clock.install()
    reader.open(MOON, 1, 3)
    reader.saved(MOON, "1/3", lambda e: e["p"] == 0)
    reader.page.clock.pause_at(reader.page.evaluate("Date.now()") + 50)
    reader.page.route("**/api/progress", lambda route: route.abort("internetdisconnected"))
    reader.page.keyboard.press("ArrowLeft")
    reader.page.clock.run_for(800)
    toast = reader.page.locator(".toast.error")
    toast.wait_for()
    assert toast.inner_text() == ("Reading position not saved: the server cannot be reached; "
                                  "trying again in 10 seconds")
    reader.page.unroute("**/api/progress")
    reader.page.clock.run_for(9000)
    assert reader.progress(MOON, "1/3")["p"] == 0  # not before the 10 s
    reader.page.clock.run_for(1100)
    reader.saved(MOON, "1/3", lambda e: e["p"] == 1)


def test_it_saves_when_the_page_is_left_before_the_delay(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page").open(MOON, 1, 3)
    reader.saved(MOON, "1/3", lambda e: e["p"] == 0)
    reader.page.keyboard.press("ArrowLeft")
    reader.page.keyboard.press("ArrowLeft")
    reader.page.goto(srv.url + "/settings/")  # at once: pagehide sends it with keepalive
    reader.saved(MOON, "1/3", lambda e: e["p"] == 2, timeout=1)


def test_it_restores_flow_at_the_saved_page_top(srv, phone, reader_on):
    reader = reader_on(phone, srv, startMode="flow").open(MOON, 1, 1)
    reader.page.evaluate("document.querySelector('.rd-scroller').scrollTop = mcReader.boxes[7].y + 50")
    reader.saved(MOON, "1/1", lambda e: e["p"] == 7)
    reader.open(MOON, 1, 1)
    assert reader.state("mcReader.page") == 7
    assert reader.state("mcReader.scroll.y") == reader.state("mcReader.boxes[7].y")


def test_it_keeps_indices_in_the_full_page_list_when_skipping(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page", skipCovers=True, skipExtras=True)
    reader.open("Iron Harbor", 1, 2)  # 001 [cover] … 008 [extra]
    assert reader.state("mcReader.shown") == [1, 2, 3, 4, 5, 6]
    assert reader.state("mcReader.page") == 1
    reader.page.keyboard.press("ArrowRight")
    reader.page.keyboard.press("ArrowRight")
    entry = reader.saved("Iron Harbor", "1/2", lambda e: e["p"] == 3)
    assert entry["n"] == 8
    reader.open("Iron Harbor", 1, 2)
    assert reader.state("mcReader.page") == 3
    for _ in range(4):
        reader.page.keyboard.press("ArrowRight")
    assert reader.state("mcReader.atEnd")
    reader.saved("Iron Harbor", "1/2", lambda e: e["p"] == 6 and e["done"])


def test_it_maps_the_position_to_another_version(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page").open(MOON, 1, 2, MANGADEX)
    reader.page.evaluate("document.querySelector('.rd-slider').value = 7")
    reader.page.dispatch_event(".rd-slider", "change")
    reader.saved(MOON, "1/2", lambda e: e["p"] == 6)
    reader.page.keyboard.press("m")
    with reader.page.expect_navigation():
        reader.page.select_option(".rd-versions", "c0002 Roots [Official]")
    reader.wait("window.mcReader && mcReader.boxes.length > 0")
    assert "?v=c0002%20Roots%20%5BOfficial%5D" in reader.page.url
    assert reader.state("mcReader.page") == 5  # page 6 of 0…9 is page 5.33 of 0…8
    reader.saved(MOON, "1/2", lambda e: e["v"] == "c0002 Roots [Official]" and e["p"] == 5 and e["n"] == 9)


def test_it_reopens_a_finished_chapter_at_the_start(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="book").open(MOON, 1, 2.5)
    reader.page.keyboard.press("ArrowLeft")
    reader.page.keyboard.press("ArrowLeft")
    assert reader.state("mcReader.done")  # the last spread is on screen
    reader.saved(MOON, "1/2.5", lambda e: e["done"] and e["p"] == 3)
    reader.open(MOON, 1, 2.5)
    assert reader.state("mcReader.page") == 0


@pytest.mark.parametrize("settings, manga, mode", [
    ({"startMode": "book"}, MOON, "book"),
    ({"startMode": "last", "lastMode": "flow"}, MOON, "flow"),
    ({"startMode": "last", "lastMode": "book"}, "Long Scroll", "flow"),  # adapt: a webtoon flows
    ({"startMode": "page", "adapt": False}, "Long Scroll", "page"),
])
def test_it_resolves_the_mode(srv, desktop, reader_on, settings, manga, mode):
    reader = reader_on(desktop, srv, **settings).open(manga, *((0, 1) if manga == "Long Scroll" else (1, 1)))
    assert reader.state("mcReader.mode") == mode
    pressed = reader.page.get_attribute(f".rd-mode[data-mode={mode}]", "aria-pressed")
    assert pressed == "true"


def test_it_writes_last_mode_only_on_a_click(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="last", lastMode="book")
    posted = []
    reader.page.on("request", lambda r: posted.append(r) if r.url.endswith("/api/settings") else None)
    reader.page.clock.install()
    reader.open("Long Scroll", 0, 1)
    assert reader.state("mcReader.mode") == "flow"
    reader.page.clock.run_for(5000)  # past every debounce the reader has
    assert posted == [] and reader.settings()["lastMode"] == "book"  # the automatic switch wrote nothing
    reader.page.click(".rd-mode[data-mode=page]")
    assert reader.state("mcReader.mode") == "page" and reader.state("mcReader.zoomKey") == "page"
    deadline = time.monotonic() + 3
    while reader.settings()["lastMode"] != "page" and time.monotonic() < deadline:
        time.sleep(0.1)
    assert reader.settings()["lastMode"] == "page"
    reader.open(MOON, 1, 1)
    assert reader.state("mcReader.mode") == "page"


def test_it_keeps_the_page_when_switching_modes(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page").open(MOON, 1, 1)
    for _ in range(4):
        reader.page.keyboard.press("ArrowLeft")
    assert reader.state("mcReader.page") == 4
    reader.page.keyboard.press("m")
    reader.page.click(".rd-mode[data-mode=book]")
    assert reader.state("mcReader.page") == 3  # the spread [3, 4]
    reader.page.click(".rd-mode[data-mode=flow]")
    assert reader.state("mcReader.page") == 3
    assert reader.state("mcReader.scroll.y") == reader.state("mcReader.boxes[3].y")
