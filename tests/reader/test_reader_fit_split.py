"""Page mode's fit (screen, width, height, original size; the Fit button and W, remembered) and
double pages split into halves (off, on a phone held upright, always; rtl: the right half first),
in a real browser at desktop and phone sizes (docs/reader.md, "Fit and split double pages")."""
import os
import time

import pytest

from tests.conftest import make_page
from tests.reader.conftest import new_user, start_server, stop_server, unsized_jpeg

pytestmark = pytest.mark.browser
MOON = "Moon Garden"  # right to left; chapter 1/1's page 5 is the spread 006-007, 1800×1350
SPREAD = 5
SHOTS = os.environ.get("DOCS_SCREENSHOTS")  # a folder: docs/img/reader-split-phone.png is taken from this test

IMAGE = """(() => { const img = document.querySelector('.rd-page img');
    return {w: img.offsetWidth, h: img.offsetHeight, left: img.offsetLeft}; })()"""


@pytest.fixture(scope="module")
def srv(demo_server):
    return demo_server


def near(a, b, tolerance=1):
    return abs(a - b) <= tolerance


def go_to(reader, index):
    # In one step: a page that loads in between re-sets the slider to the page on screen.
    reader.page.evaluate(f"""(() => {{ const s = document.querySelector('.rd-slider');
        s.value = {index + 1}; s.dispatchEvent(new Event('change')); }})()""")
    reader.wait(f"mcReader.page === {index}")


def saved_fit(reader, fit, timeout=4):
    deadline = time.monotonic() + timeout
    while reader.settings()["pageFit"] != fit:
        assert time.monotonic() < deadline, reader.settings()
        time.sleep(0.05)


def test_it_fits_a_page_to_the_screen_its_width_its_height_or_its_own_size(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page").open(MOON, 1, 1)
    go_to(reader, 1)  # 900×1350
    fit = reader.page.locator(".rd-fit")
    reader.page.keyboard.press("m")
    seen = []
    for _ in range(4):
        [box] = reader.state("mcReader.boxes")
        seen.append((reader.state("mcReader.fit"), fit.get_attribute("aria-label"), round(box["w"]), round(box["h"])))
        reader.page.keyboard.press("w")
    assert seen[0] == ("screen", "Fit: Screen", 533, 800)
    width = 1280 - reader.state("mcReader.viewport")["w"]  # the vertical scrollbar, if it takes room
    assert seen[1][:2] == ("width", "Fit: Width") and near(seen[1][2], 1280 - width)
    assert near(seen[1][3], (1280 - width) * 1.5)  # taller than the screen: scrolled, not turned
    assert seen[2] == ("height", "Fit: Height", 533, 800)
    assert seen[3] == ("original", "Fit: Original size (1:1)", 900, 1350)
    assert reader.state("mcReader.fit") == "screen"  # round again
    reader.page.keyboard.press("w")
    reader.wait("mcReader.fit === 'width'")
    assert " ".join(fit.inner_text().split()) == "↔ Width"
    reader.page.keyboard.press("ArrowDown")  # a page taller than the screen scrolls with the arrows
    assert reader.state("mcReader.page") == 1
    saved_fit(reader, "width")  # remembered for the account …
    reader.open(MOON, 1, 2)  # … so the next chapter opens so
    assert reader.state("mcReader.fit") == "width"
    [box] = reader.state("mcReader.boxes")
    assert box["w"] > 1200


def test_the_fit_button_belongs_to_page_mode(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="book", pageFit="height").open(MOON, 1, 1)
    fit = reader.page.locator(".rd-fit")
    assert fit.is_hidden()
    reader.page.keyboard.press("w")
    assert reader.state("mcReader.fit") == "height"  # W does nothing where no fit applies
    reader.page.click(".rd-mode[data-mode=page]")
    assert fit.is_visible() and fit.get_attribute("aria-label") == "Fit: Height"


def test_it_fits_the_height_on_a_phone_and_pans_sideways(srv, phone, reader_on):
    reader = reader_on(phone, srv, startMode="page", pageFit="height").open(MOON, 1, 1)
    go_to(reader, 1)
    [box] = reader.state("mcReader.boxes")
    assert near(box["h"], 844) and near(box["w"], 562.7)
    assert reader.state("mcReader.canvas")["w"] > 390
    assert reader.page.evaluate("document.querySelector('.rd-scroller').classList.contains('rd-pan-x')")


def test_it_splits_a_spread_on_a_phone_right_half_first_for_rtl(srv, phone, reader_on):
    reader = reader_on(phone, srv, startMode="page", split="phone").open(MOON, 1, 1)
    shown = reader.state("mcReader.shown")
    assert shown.count(SPREAD) == 2 and len(shown) == 12
    go_to(reader, SPREAD)
    [box] = reader.state("mcReader.boxes")
    assert box["i"] == SPREAD and box["half"] == "right"
    assert near(box["w"], 390) and near(box["h"], 585)  # a half is 900×1350, fitted to the phone
    img = reader.page.evaluate(IMAGE)
    assert near(img["w"], 780) and near(img["h"], 585) and near(img["left"], -390)  # its left half is outside
    assert reader.page.locator(".rd-count").text_content().startswith(str(shown.index(SPREAD) + 1))
    if SHOTS:
        reader.page.locator(".rd-page img").evaluate("img => img.decode()")
        reader.page.evaluate("MCR.bars.show()")
        reader.wait("document.getAnimations().every((a) => a.playState === 'finished')")  # bars slid in, hint gone
        reader.page.screenshot(path=os.path.join(SHOTS, "reader-split-phone.png"))
    reader.page.keyboard.press("ArrowLeft")  # rtl: left is next, the other half of the same page
    [box] = reader.state("mcReader.boxes")
    assert box["i"] == SPREAD and box["half"] == "left" and near(reader.page.evaluate(IMAGE)["left"], 0)
    entry = reader.saved(MOON, "1/1", lambda e: e["p"] == SPREAD)
    assert entry["n"] == 11  # progress counts whole pages
    reader.page.keyboard.press("ArrowLeft")
    assert reader.state("mcReader.page") == SPREAD + 1 and reader.state("mcReader.boxes")[0]["half"] is None


def test_it_splits_left_half_first_for_ltr(srv, phone, reader_on):
    reader = reader_on(phone, srv, startMode="page", split="phone").open("Iron Harbor", 1, 1)
    assert reader.state("mcReader.halves")[3:5] == ["left", "right"]  # the spread 004-005


def test_it_stacks_the_halves_in_flow(srv, phone, reader_on):
    reader = reader_on(phone, srv, startMode="flow", split="always").open(MOON, 1, 1)
    halves = [b for b in reader.state("mcReader.boxes") if b["i"] == SPREAD]
    assert [b["half"] for b in halves] == ["right", "left"]
    assert near(halves[0]["w"], halves[1]["w"]) and near(halves[1]["y"], halves[0]["y"] + halves[0]["h"] + 8)


def test_it_splits_only_where_the_setting_says(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page", split="phone").open(MOON, 1, 1)
    assert reader.state("mcReader.shown").count(SPREAD) == 1  # no phone
    reader = reader_on(desktop, srv, startMode="page", split="always").open(MOON, 1, 1)
    assert reader.state("mcReader.shown").count(SPREAD) == 2
    go_to(reader, SPREAD)
    reader.page.keyboard.press("m")
    reader.page.click(".rd-mode[data-mode=book]")  # Book shows the spread whole, on the same page
    assert reader.state("mcReader.shown").count(SPREAD) == 1
    assert [SPREAD] in reader.state("mcReader.spreads") and reader.state("mcReader.page") == SPREAD
    reader.page.click(".rd-mode[data-mode=page]")
    assert reader.state("mcReader.page") == SPREAD and reader.state("mcReader.boxes")[0]["half"] == "right"
    reader = reader_on(desktop, srv, startMode="page").open(MOON, 1, 1)
    assert reader.state("mcReader.shown").count(SPREAD) == 1  # off by default


def test_it_saves_the_fit_and_the_split_in_settings_reading(srv, phone):
    client = new_user(srv)
    phone.add_cookies([{"name": "sid", "value": client.cookies["sid"], "url": srv.url}])
    page = phone.new_page()
    page.goto(srv.url + "/settings/user/reading/")
    page.select_option("select[name=pageFit]", "original")
    page.select_option("select[name=split]", "phone")
    page.click("text=Save")
    assert page.locator(".messages").inner_text() == "Reading preferences saved."
    settings = client.get("/api/me")[2]["settings"]
    assert settings["pageFit"] == "original" and settings["split"] == "phone"


@pytest.fixture(scope="module")
def wide_server(tmp_path_factory):
    """A left-to-right chapter whose double page 002 has a size the server cannot read (900×450)."""
    manga = tmp_path_factory.mktemp("wide") / "library" / "Wide"
    chapter = manga / "c0001 One"
    make_page(chapter / "001.png", size=(300, 450))
    unsized_jpeg(chapter / "002.jpg", (900, 450))
    make_page(chapter / "003.png", size=(300, 450))
    (manga / "manga.json").write_text('{"direction": "ltr"}')
    srv = start_server(tmp_path_factory, manga.parent, ("Wide", "0/1"))
    yield srv
    stop_server(srv)


@pytest.mark.parametrize("mode", ["page", "flow"])
def test_it_splits_a_double_page_once_its_size_is_learned(wide_server, phone, reader_on, mode):
    reader = reader_on(phone, wide_server, startMode=mode, split="phone")
    pages = reader.client.get("/api/chapter?m=Wide&c=0/1")[2]["pages"]
    assert not pages[1].get("w") and pages[0]["w"] == 300  # the server could not measure 002
    reader.open("Wide", 0, 1)
    if mode == "page":
        go_to(reader, 1)
    reader.wait("mcReader.shown.length === 4")
    assert reader.state("mcReader.halves") == [None, "left", "right", None]
    if mode == "page":
        [box] = reader.state("mcReader.boxes")
        assert box["half"] == "left" and near(box["w"], 390) and near(box["h"], 390)  # a half is 450×450
        assert near(reader.page.evaluate(IMAGE)["w"], 780)
