"""Reader input in a real browser: tap zones (rtl-aware), flow steps, keys, swipes, drag-pan and
the end card."""
import time

import pytest

MOON = "Moon Garden"


@pytest.fixture(scope="module")
def srv(demo_server):
    return demo_server


def page_index(reader):
    return reader.state("mcReader.page")


def test_it_turns_pages_by_the_outer_zones_right_to_left(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page").open(MOON, 1, 2)
    [box] = reader.state("mcReader.boxes")  # x 374 … 907: zones end at 35 % and start at 65 %
    left, right = box["x"] + 0.3 * box["w"], box["x"] + 0.7 * box["w"]
    reader.page.mouse.click(left, 400)
    assert page_index(reader) == 1  # rtl: the left side is next
    assert not reader.state("mcReader.bars")  # the first turn hides the bars
    reader.page.mouse.click(left, 400)
    reader.page.mouse.click(right, 400)
    assert page_index(reader) == 1
    reader.page.mouse.click(box["x"] + 0.5 * box["w"], 400)  # the middle band: bars
    assert reader.state("mcReader.bars") and page_index(reader) == 1
    reader.page.mouse.click(box["x"] + 0.5 * box["w"], 400)
    assert not reader.state("mcReader.bars") and page_index(reader) == 1


@pytest.mark.browser
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_it_turns_pages_from_the_margins_beside_the_page_up_to_the_viewport_edges(srv, size, request, reader_on):
    context = request.getfixturevalue(size)
    reader = reader_on(context, srv, startMode="page").open(MOON, 1, 2)
    [box] = reader.state("mcReader.boxes")
    width = reader.state("mcReader.viewport.w")
    click = reader.page.mouse.click if size == "desktop" else reader.page.touchscreen.tap
    if box["x"] > 4:  # a margin beside the page (the phone fits the page's width: none there)
        click(2, 400)  # the far left edge, beside the page: next (rtl)
        assert page_index(reader) == 1 and not reader.state("mcReader.bars")
        click(width - 2, 400)  # the far right edge: back
        assert page_index(reader) == 0
    else:
        click(2, 400)
        assert page_index(reader) == 1
        click(width - 2, 400)
        assert page_index(reader) == 0
    # Below or above the page, the middle band still shows the bars.
    click(box["x"] + 0.5 * box["w"], 8)
    assert reader.state("mcReader.bars") and page_index(reader) == 0


def test_it_uses_the_zones_of_the_visible_spread_left_to_right(srv, phone, reader_on):
    reader = reader_on(phone, srv, startMode="book", adapt=False).open("Iron Harbor", 1, 1)
    reader.page.touchscreen.tap(350, 420)
    assert page_index(reader) == 1  # ltr: right is next
    reader.page.touchscreen.tap(350, 420)
    assert page_index(reader) == 3
    reader.page.touchscreen.tap(40, 420)
    assert page_index(reader) == 1


def test_it_follows_the_direction_with_keys(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page").open(MOON, 1, 2)
    presses = {"ArrowLeft": 1, "ArrowRight": 0, "Space": 1, "PageDown": 2, "PageUp": 1, "Shift+Space": 0,
               "ArrowDown": 1, "ArrowUp": 0}
    for key, expected in presses.items():
        reader.page.keyboard.press(key)
        assert page_index(reader) == expected, key
    ltr = reader_on(desktop, srv, startMode="page").open("Iron Harbor", 1, 1)
    ltr.page.keyboard.press("ArrowRight")
    assert page_index(ltr) == 1
    ltr.page.keyboard.press("ArrowLeft")
    assert page_index(ltr) == 0


def test_it_toggles_the_bars_with_m_and_escape(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page").open(MOON, 1, 2)
    seen = []
    for key in ("m", "m", "Escape", "Escape"):
        reader.page.keyboard.press(key)
        seen.append(reader.state("mcReader.bars"))
    assert seen == [False, True, False, True]


def swipe(cdp, x0, x1, y=420, steps=5):
    """A swipe stamped 16 ms a step, so a busy machine's slow round trips never make it a slow drag."""
    start = time.time()
    for n in range(steps + 1):
        x = x0 + (x1 - x0) * n / steps
        kind = "touchStart" if n == 0 else "touchMove"
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y, "id": 0}],
                                              "timestamp": start + 0.016 * n})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": [],
                                          "timestamp": start + 0.016 * (steps + 1)})


def test_it_turns_pages_by_swiping_unless_zoomed_in(srv, phone, reader_on):
    reader = reader_on(phone, srv, startMode="page").open(MOON, 1, 2)
    cdp = reader.context.new_cdp_session(reader.page)
    swipe(cdp, 100, 300)  # rtl: pulling the page to the right brings the next one
    assert page_index(reader) == 1
    swipe(cdp, 300, 100)
    assert page_index(reader) == 0
    swipe(cdp, 100, 130)  # 30 px is no swipe
    assert page_index(reader) == 0
    ltr = reader_on(phone, srv, startMode="page", zoom={"page": 2}).open("Iron Harbor", 1, 2)
    cdp = ltr.context.new_cdp_session(ltr.page)
    swipe(cdp, 300, 100)
    assert page_index(ltr) == 0  # zoomed in: the swipe pans the page instead
    ltr.page.keyboard.press("0")
    swipe(cdp, 300, 100)
    assert page_index(ltr) == 1  # ltr: pulling to the left brings the next page


def test_it_pans_by_dragging_and_swallows_the_click(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page", zoom={"page": 3}).open(MOON, 1, 2)
    mouse = reader.page.mouse
    assert reader.page.evaluate("getComputedStyle(document.querySelector('.rd-scroller')).cursor") == "grab"
    reader.page.evaluate("document.querySelector('.rd-scroller').scrollTo(100, 500)")
    reader.settle()
    reader.page.keyboard.press("m")  # the scroll hid the bars: show them again
    before = reader.state("mcReader.scroll")
    mouse.move(640, 400)
    mouse.down()
    mouse.move(620, 380)
    mouse.move(560, 320)
    mouse.up()
    after = reader.state("mcReader.scroll")
    assert (before["x"] - after["x"], after["y"] - before["y"]) == (-80, 80)
    assert reader.state("mcReader.bars") and page_index(reader) == 0  # no tap happened
    mouse.move(640, 400)
    mouse.down()
    mouse.move(643, 402)  # under 6 px: still a click
    mouse.up()
    assert not reader.state("mcReader.bars")


def test_it_steps_flow_by_page_tops_at_most_90_percent_of_a_screen(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="flow").open(MOON, 1, 1)
    boxes = reader.state("mcReader.boxes")
    vh = reader.state("mcReader.viewport.h")
    reader.page.mouse.click(640, 700)  # bottom 35 %: the next page top (808) is more than 90 % away
    reader.wait(f"mcReader.scroll.y === {int(0.9 * vh)}")
    reader.page.mouse.click(640, 700)
    reader.wait(f"mcReader.scroll.y === {boxes[1]['y']}")
    assert not reader.state("mcReader.bars")
    reader.page.mouse.click(640, 100)  # top 35 %: towards the previous page top, 90 % at most
    reader.wait(f"mcReader.scroll.y === {boxes[1]['y'] - int(0.9 * vh)}")
    reader.page.mouse.click(640, 100)
    reader.wait("mcReader.scroll.y === 0")
    reader.page.mouse.click(640, 400)  # the middle band: bars
    assert reader.state("mcReader.bars")


def test_it_steps_a_webtoon_by_85_percent_and_goes_on_at_the_very_bottom(srv, phone, reader_on):
    # At the end card itself, so the next chapter is not laid out below it (test_reader_continue.py)
    reader = reader_on(phone, srv, flowContinues=False).open("Long Scroll", 0, 2)
    reader.page.touchscreen.tap(195, 700)
    reader.wait(f"mcReader.scroll.y === {int(0.85 * 844)}")
    reader.page.evaluate("document.querySelector('.rd-scroller').scrollTop = 1e9")
    reader.settle()
    reader.page.touchscreen.tap(195, 830)  # on the end card, in the bottom zone, at the very bottom
    reader.page.wait_for_url("**/read/Long%20Scroll/0/3/")
    reader.wait("window.mcReader && mcReader.page === 0")


def test_it_ends_a_chapter_with_an_end_card_that_leads_on(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page").open(MOON, 1, 2.5)
    for _ in range(4):
        reader.page.keyboard.press("ArrowLeft")
    assert reader.state("mcReader.atEnd")
    card = reader.page.locator(".rd-end")
    assert "End of Ch. 2.5 · Interlude" in card.inner_text()
    assert card.locator(".rd-end-next").inner_text() == "Next: Ch. 3 · Branches"
    reader.page.mouse.click(1000, 400)  # the end card's zones: right is back (rtl)
    assert page_index(reader) == 3
    reader.page.keyboard.press("ArrowLeft")
    with reader.page.expect_navigation():
        reader.page.mouse.click(100, 400)  # left is next: the next chapter
    assert reader.page.url.endswith("/read/Moon%20Garden/1/3/")


def test_it_toggles_full_screen_with_f(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page").open(MOON, 1, 2)
    reader.page.keyboard.press("f")
    reader.wait("document.fullscreenElement === document.documentElement")
    reader.page.keyboard.press("f")
    reader.wait("document.fullscreenElement === null")
