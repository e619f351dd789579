"""Anchored zoom (Ctrl+wheel, touchpad pinch, gesture events, two-finger pinch, keys), its limits
and persistence, browser zoom suppressed only over the pages, and resizes that keep the position."""
import time

import pytest

MOON = "Moon Garden"

UNDER = """([x, y]) => { const el = document.elementFromPoint(x, y).closest('.rd-page');
    const r = el.getBoundingClientRect();
    return {i: +el.dataset.i, fx: (x - r.left) / r.width, fy: (y - r.top) / r.height}; }"""
WHERE = """([i, fx, fy]) => { const r = document.querySelector(`.rd-page[data-i="${i}"]`).getBoundingClientRect();
    return [r.left + fx * r.width, r.top + fy * r.height]; }"""


@pytest.fixture(scope="module")
def srv(demo_server):
    return demo_server


def pinned(reader, x, y, action):
    """Run `action`; return how far the page point that was under (x, y) moved."""
    point = reader.page.evaluate(UNDER, [x, y])
    action()
    reader.settle()
    nx, ny = reader.page.evaluate(WHERE, [point["i"], point["fx"], point["fy"]])
    return abs(nx - x), abs(ny - y)


def ctrl_wheel(reader, x, y, delta, times=1):
    page = reader.page
    page.mouse.move(x, y)
    page.keyboard.down("Control")
    for _ in range(times):
        page.mouse.wheel(0, delta)
    page.keyboard.up("Control")


def test_it_keeps_the_point_under_the_cursor_through_ctrl_wheel_zoom(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page", zoom={"page": 2.5}).open(MOON, 1, 1)
    reader.page.evaluate("document.querySelector('.rd-scroller').scrollTo(200, 500)")
    # Zooming out near an edge may run out of room to scroll; these points keep room.
    for delta, x, y in ((-100, 900, 300), (-100, 300, 650), (100, 640, 400)):
        before = reader.state("mcReader.zoom")
        dx, dy = pinned(reader, x, y, lambda x=x, y=y, delta=delta: ctrl_wheel(reader, x, y, delta, 2))
        assert reader.state("mcReader.zoom") != before
        assert dx <= 2 and dy <= 2, (delta, x, y, dx, dy)


def test_it_pins_flow_zoom_at_the_cursor_on_a_phone(srv, phone, reader_on):
    reader = reader_on(phone, srv, startMode="flow").open(MOON, 1, 1)
    reader.page.evaluate("document.querySelector('.rd-scroller').scrollTop = 1000")
    reader.settle()
    # The phone reports wheel deltas in its own pixels: -240 arrives as -120.
    dx, dy = pinned(reader, 100, 400, lambda: ctrl_wheel(reader, 100, 400, -240, 3))
    z = reader.state("mcReader.zoom")
    assert z > 1.8 and dx <= 2 and dy <= 2
    boxes = reader.state("mcReader.boxes")
    assert abs(boxes[1]["w"] - 390 * z) <= 1


def test_it_snaps_to_100_percent_and_stays_within_20_to_600(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page").open(MOON, 1, 2)
    ctrl_wheel(reader, 640, 400, 4)  # a tiny pinch step: 99.2 % snaps back to 100 %
    assert reader.state("mcReader.zoom") == 1
    ctrl_wheel(reader, 640, 400, -100)
    ctrl_wheel(reader, 640, 400, 100)  # crossing 100 % stops there
    assert reader.state("mcReader.zoom") == 1
    ctrl_wheel(reader, 640, 400, -300, 12)
    assert reader.state("mcReader.zoom") == 6
    ctrl_wheel(reader, 640, 400, 300, 20)
    assert reader.state("mcReader.zoom") == 0.2


def test_it_zooms_by_keys_in_5_point_steps(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="book").open(MOON, 1, 1)
    seen = []
    for key in ("+", "+", "-", "-", "-", "0"):
        reader.page.keyboard.press(key)
        seen.append(reader.state("mcReader.zoom"))
    assert seen == [1.05, 1.1, 1.05, 1, 0.95, 1]
    assert reader.page.inner_text(".rd-zoom") == "100 %"


def test_it_saves_zoom_per_mode_800ms_after_the_last_change(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page", zoom={"book": 1.3})
    reader.page.clock.install()
    reader.open(MOON, 1, 1)
    posted = []
    reader.page.on("request", lambda r: posted.append(r) if r.url.endswith("/api/settings") else None)
    reader.page.clock.pause_at(reader.page.evaluate("Date.now()") + 50)  # from here time moves only when told
    reader.page.keyboard.press("+")
    reader.page.keyboard.press("+")
    reader.page.clock.run_for(700)
    assert posted == [] and reader.settings()["zoom"]["page"] == 1  # not yet: the user may still be zooming
    reader.page.clock.run_for(200)
    deadline = time.monotonic() + 3
    while reader.settings()["zoom"]["page"] != 1.1 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert reader.settings()["zoom"] == {"flow": 1, "page": 1.1, "book": 1.3, "strip": 1}
    reader.open(MOON, 1, 2)
    assert reader.state("mcReader.zoom") == 1.1


def test_it_suppresses_browser_zoom_only_over_the_pages(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page").open(MOON, 1, 1)
    wheel = """([x, y]) => { const target = document.elementFromPoint(x, y);
        const e = new WheelEvent('wheel',
          {deltaY: -50, ctrlKey: true, clientX: x, clientY: y, bubbles: true, cancelable: true});
        return {kept: target.dispatchEvent(e), zoom: mcReader.zoom}; }"""
    assert reader.page.evaluate(wheel, [100, 400]) == {"kept": True, "zoom": 1}  # beside the page
    over = reader.page.evaluate(wheel, [640, 400])
    assert over["kept"] is False and over["zoom"] > 1


def test_it_zooms_with_safari_gesture_events(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page", zoom={"page": 2}).open(MOON, 1, 1)
    gesture = """([type, scale, x, y]) => { const target = document.elementFromPoint(x, y);
        const e = new Event(type, {bubbles: true, cancelable: true});
        Object.assign(e, {scale, clientX: x, clientY: y});
        return target.dispatchEvent(e); }"""

    def pinch():
        assert reader.page.evaluate(gesture, ["gesturestart", 1, 500, 300]) is False
        for scale in (1.1, 1.3, 1.5):
            reader.page.evaluate(gesture, ["gesturechange", scale, 500, 300])
        reader.page.evaluate(gesture, ["gestureend", 1.5, 500, 300])

    dx, dy = pinned(reader, 500, 300, pinch)
    assert reader.state("mcReader.zoom") == 3 and dx <= 2 and dy <= 2


def touch(cdp, kind, points):
    touch_points = [{"x": x, "y": y, "id": n} for n, (x, y) in enumerate(points)]
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": touch_points})


def test_it_zooms_with_a_two_finger_pinch_at_the_midpoint(srv, phone, reader_on):
    reader = reader_on(phone, srv, startMode="page").open(MOON, 1, 2)
    cdp = reader.context.new_cdp_session(reader.page)

    def pinch():
        touch(cdp, "touchStart", [(150, 400), (250, 400)])
        for spread in (60, 75, 90, 100):
            touch(cdp, "touchMove", [(200 - spread, 400), (200 + spread, 400)])
        touch(cdp, "touchEnd", [])

    dx, dy = pinned(reader, 200, 400, pinch)
    assert abs(reader.state("mcReader.zoom") - 2) < 0.01 and dx <= 2 and dy <= 2
    assert reader.page.evaluate("visualViewport.scale") == 1  # the browser did not zoom as well
    assert reader.state("mcReader.page") == 0  # and a pinch is no swipe


@pytest.mark.parametrize("mode", ["flow", "page"])
def test_it_keeps_the_reading_position_through_a_resize(srv, desktop, reader_on, mode):
    reader = reader_on(desktop, srv, startMode=mode, zoom={"page": 2.5}).open(MOON, 1, 3)
    if mode == "flow":
        reader.page.evaluate(
            "document.querySelector('.rd-scroller').scrollTop = mcReader.boxes[4].y + 0.3 * mcReader.boxes[4].h")
        x, y = 640, 0
    else:
        reader.page.evaluate("document.querySelector('.rd-scroller').scrollTo(300, 700)")
        x, y = 640, 400
    reader.settle()
    point = reader.page.evaluate(UNDER, [x, y + 1])
    reader.page.set_viewport_size({"width": 900, "height": 600})
    reader.settle()
    nx, ny = reader.page.evaluate(WHERE, [point["i"], point["fx"], point["fy"]])
    ax, ay = (450, 1) if mode == "flow" else (450, 301)
    assert abs(ny - ay) <= 2 and (mode == "flow" or abs(nx - ax) <= 2), (nx, ny)


def test_it_keeps_the_webtoon_position_when_a_phone_turns(srv, phone, reader_on):
    reader = reader_on(phone, srv).open("Long Scroll", 0, 1)
    reader.page.evaluate("document.querySelector('.rd-scroller').scrollTop = 2000")
    reader.settle()
    point = reader.page.evaluate(UNDER, [195, 1])
    for size in ({"width": 844, "height": 390}, {"width": 390, "height": 844}):
        reader.page.set_viewport_size(size)
        reader.settle()
        _, ny = reader.page.evaluate(WHERE, [point["i"], point["fx"], point["fy"]])
        assert abs(ny - 1) <= 2, (size, ny)
