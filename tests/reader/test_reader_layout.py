"""Reader geometry in a real browser: each mode's boxes against the layout rules of docs/reader.md,
at desktop and phone sizes, with rotation and pages of unknown size."""
import pytest

MOON = "Moon Garden"


@pytest.fixture(scope="module")
def srv(demo_server):
    return demo_server


def near(a, b, tolerance=1):
    return abs(a - b) <= tolerance


def check_box(box, w, h, x=None, y=None):
    assert near(box["w"], w) and near(box["h"], h), (box, w, h)
    if x is not None:
        assert near(box["x"], x), (box, x)
    if y is not None:
        assert near(box["y"], y), (box, y)


def dom_matches_boxes(reader):
    """The placed elements sit where mcReader says (canvas coordinates = client + scroll)."""
    rects = reader.page.evaluate("""Array.from(document.querySelectorAll('.rd-canvas > .rd-page')).map((el) => {
        const r = el.getBoundingClientRect(); const s = document.querySelector('.rd-scroller');
        return {i: +el.dataset.i, x: r.left + s.scrollLeft, y: r.top + s.scrollTop, w: r.width, h: r.height}; })""")
    boxes = {b["i"]: b for b in reader.state("mcReader.boxes")}
    assert rects and {r["i"] for r in rects} == set(boxes)
    for r in rects:
        b = boxes[r["i"]]
        assert all(near(r[k], b[k]) for k in "xywh"), (r, b)


def test_it_fits_a_page_and_centres_it_in_page_mode(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page").open(MOON, 1, 1)
    s = reader.state()
    assert s["mode"] == "page" and s["viewport"] == {"w": 1280, "h": 800}
    [box] = s["boxes"]
    scale = min(1280 / 900, 800 / 1350)
    check_box(box, 900 * scale, 1350 * scale, (1280 - 900 * scale) / 2, 0)
    dom_matches_boxes(reader)


def test_it_grows_the_canvas_when_a_page_is_zoomed_in(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page", zoom={"page": 2}).open(MOON, 1, 1)
    s = reader.state()
    vw, vh = s["viewport"]["w"], s["viewport"]["h"]
    assert s["zoom"] == 2 and vw == reader.page.evaluate("document.querySelector('.rd-scroller').clientWidth")
    [box] = s["boxes"]
    scale = min(vw / 900, vh / 1350) * 2
    check_box(box, 900 * scale, 1350 * scale, (vw - 900 * scale) / 2, 0)
    assert s["canvas"] == {"w": max(vw, box["w"]), "h": max(vh, box["h"])}
    assert reader.page.evaluate("document.querySelector('.rd-scroller').scrollHeight") == box["h"]


def test_it_fits_a_page_on_a_phone(srv, phone, reader_on):
    reader = reader_on(phone, srv, startMode="page").open(MOON, 1, 1)
    [box] = reader.state("mcReader.boxes")
    check_box(box, 390, 585, 0, (844 - 585) / 2)
    dom_matches_boxes(reader)


def test_it_stacks_pages_at_one_width_with_8px_gaps_in_flow(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="flow").open(MOON, 1, 1)
    s = reader.state()
    vw, vh = s["viewport"]["w"], s["viewport"]["h"]
    assert vw == reader.page.evaluate("document.querySelector('.rd-scroller').clientWidth")
    W = min(vw, vh * 900 / 1350)
    boxes = s["boxes"]
    assert len(boxes) == 11
    for box in boxes[:5] + boxes[6:]:
        check_box(box, W, W * 1350 / 900, (s["canvas"]["w"] - W) / 2)
    # The spread keeps the single page height, capped at max(vw, W).
    wide = boxes[5]
    height = W * 1350 / 900
    width = min(height * 1800 / 1350, max(vw, W))
    check_box(wide, width, width * 1350 / 1800)
    for a, b in zip(boxes, boxes[1:]):
        assert near(b["y"] - (a["y"] + a["h"]), 8)
    dom_matches_boxes(reader)


def test_it_caps_a_wide_page_at_the_screen_width_on_a_phone(srv, phone, reader_on):
    reader = reader_on(phone, srv, startMode="flow", flowPageGap=False).open(MOON, 1, 1)
    boxes = reader.state("mcReader.boxes")
    check_box(boxes[0], 390, 585, 0, 0)
    check_box(boxes[5], 390, 390 * 1350 / 1800, 0)  # 585 × 4/3 would be wider than the phone
    for a, b in zip(boxes, boxes[1:]):
        assert b["y"] == a["y"] + a["h"]  # flowPageGap off: no separator


def test_it_zooms_flow_pages_by_the_flow_zoom(srv, phone, reader_on):
    reader = reader_on(phone, srv, startMode="flow", zoom={"flow": 1.5, "page": 3}).open(MOON, 1, 1)
    s = reader.state()
    assert s["zoomKey"] == "flow" and s["zoom"] == 1.5
    check_box(s["boxes"][1], 390 * 1.5, 585 * 1.5)
    assert s["canvas"]["w"] == s["boxes"][5]["w"] == s["boxes"][1]["w"]


def test_it_joins_webtoon_slices_without_gaps(srv, desktop, phone, reader_on):
    reader = reader_on(desktop, srv, startMode="page", zoom={"strip": 0.5}).open("Long Scroll", 0, 1)
    s = reader.state()
    assert s["mode"] == "flow" and s["zoomKey"] == "strip"  # adapt: a webtoon opens in Flow
    vw = s["viewport"]["w"]
    W = min(vw, 800) * 0.5
    for box in s["boxes"]:
        check_box(box, W, W * 3, (s["canvas"]["w"] - W) / 2)
    for a, b in zip(s["boxes"], s["boxes"][1:]):
        assert b["y"] == a["y"] + a["h"]
    phone_reader = reader_on(phone, srv).open("Long Scroll", 0, 1)
    boxes = phone_reader.state("mcReader.boxes")
    assert [b["h"] for b in boxes] == [1170] * 5 and [b["y"] for b in boxes] == [0, 1170, 2340, 3510, 4680]
    dom_matches_boxes(phone_reader)


def test_it_gives_a_spread_one_height_right_to_left(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="book").open(MOON, 1, 1)
    assert reader.state("mcReader.spreads") == [[0], [1, 2], [3, 4], [5], [6, 7], [8, 9], [10]]
    reader.page.keyboard.press("ArrowLeft")  # rtl: left is next
    s = reader.state()
    assert s["page"] == 1
    right, left = sorted(s["boxes"], key=lambda b: -b["x"])
    assert right["i"] == 1 and left["i"] == 2  # the first page of the spread on the right
    H = min(800, 1280 / (2 * 900 / 1350))
    check_box(left, H * 900 / 1350, H, (1280 - 2 * H * 900 / 1350) / 2, 0)
    check_box(right, H * 900 / 1350, H)
    assert near(left["x"] + left["w"], right["x"])  # the spine: no gap, no overlap
    dom_matches_boxes(reader)


def test_it_lays_a_spread_out_left_to_right_for_ltr(srv, phone, reader_on):
    reader = reader_on(phone, srv, startMode="book", adapt=False).open("Iron Harbor", 1, 1)
    assert reader.state("mcReader.spreads")[:3] == [[0], [1, 2], [3]]  # cover, pair, the wide 004-005
    reader.page.keyboard.press("ArrowRight")
    left, right = sorted(reader.state("mcReader.boxes"), key=lambda b: b["x"])
    assert left["i"] == 1 and right["i"] == 2
    H = min(844, 390 / (2 * 900 / 1350))
    check_box(left, H * 900 / 1350, H, 0, (844 - H) / 2)


def test_it_turns_a_rotated_page_with_swapped_sizes(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page").open(MOON, 1, 3)
    reader.page.evaluate("document.querySelector('.rd-slider').value = 5")
    reader.page.dispatch_event(".rd-slider", "change")
    reader.wait("mcReader.page === 4")
    [box] = reader.state("mcReader.boxes")
    check_box(box, 533.3, 800)  # stored 1350×900, shown 900×1350
    img = reader.page.evaluate("""(() => { const img = document.querySelector('.rd-page img');
        const r = img.getBoundingClientRect();
        return {w: img.offsetWidth, h: img.offsetHeight, rw: r.width, rh: r.height, x: r.left,
                t: img.style.transform}; })()""")
    assert near(img["w"], 800) and near(img["h"], 533.3)  # sized swapped …
    assert img["t"] == "rotate(90deg)" and near(img["rw"], box["w"]) and near(img["rh"], box["h"])  # … and turned
    assert near(img["x"], box["x"])


def test_it_lays_out_an_unknown_size_first_at_1000x1414_then_again_when_it_loads(tiny_server, desktop, reader_on):
    reader = reader_on(desktop, tiny_server, startMode="flow").open("Tiny", 0, 1)
    boxes = reader.state("mcReader.boxes")
    W = boxes[0]["w"]
    check_box(boxes[5], W, W * 1414 / 1000)  # 006.jpg: the header reader could not size it
    check_box(boxes[4], W, W * 450 / 300)  # 005 [r90]: stored 450×300
    reader.page.evaluate("document.querySelector('.rd-scroller').scrollTop = mcReader.boxes[5].y")
    reader.wait("Math.abs(mcReader.boxes[5].h - mcReader.boxes[5].w * 480 / 360) <= 1")
    top = reader.state("mcReader.scroll.y")
    assert near(top, reader.state("mcReader.boxes[5].y"), 2)  # re-laid out around the reading position


def test_it_shows_a_message_for_a_page_that_fails(tiny_server, phone, reader_on):
    reader = reader_on(phone, tiny_server, startMode="page").open("Tiny", 0, 1)
    reader.page.evaluate("document.querySelector('.rd-slider').value = 7")
    reader.page.dispatch_event(".rd-slider", "change")
    reader.page.wait_for_selector(".rd-page.rd-failed .rd-fail")
    assert "Page 7 could not be loaded." in reader.page.inner_text(".rd-fail")
    assert reader.page.is_visible(".rd-fail button")
