"""Flow carries on into the next chapter: the next chapter's first pages are laid out below the
end card, and scrolling into them opens that chapter at the same point, with this one saved as read
(docs/reader.md, "Flow into the next chapter"; request #21 in the research notes)."""
import pytest

from tests.reader.conftest import read_url

pytestmark = pytest.mark.browser
MOON = "Moon Garden"  # chapters 1/1, 1/2, … (right to left, pages of manga size)

END = "(() => { const r = mcReader; const last = r.boxes[r.boxes.length - 1]; return last.y + last.h; })()"


@pytest.fixture(scope="module")
def srv(demo_server):
    return demo_server


def scroll_to(reader, y):
    reader.page.evaluate(f"document.querySelector('.rd-scroller').scrollTop = {y}")


def test_scrolling_past_the_end_card_opens_the_next_chapter_where_the_scroll_was(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="flow").open(MOON, 1, 1)
    assert reader.state("mcReader.preview") is None  # nothing fetched before the end comes near
    scroll_to(reader, reader.state(END) - 200)
    reader.wait("mcReader.preview && mcReader.preview.length > 0")
    preview = reader.state("mcReader.preview")
    assert preview[0]["i"] == 0 and preview[0]["y"] > reader.state(END)  # below the end card
    # The next chapter's own reader lays its first page out at the same size.
    first = preview[0]
    shown = reader.page.locator(".rd-next-page img").first
    reader.wait("document.querySelector('.rd-next-page img').complete")
    assert shown.bounding_box()["width"] == pytest.approx(first["w"], abs=1)
    # Wheel on past the end card, as a reader does, until the next chapter has opened.
    reader.page.mouse.move(640, 400)
    target = read_url(srv, MOON, 1, 2)
    for _ in range(60):
        if reader.page.url.startswith(target):
            break
        reader.page.mouse.wheel(0, 300)
        reader.page.wait_for_timeout(30)
    reader.page.wait_for_url(target)  # #flow=… is taken off once used
    reader.wait("window.mcReader && mcReader.boxes.length > 0")
    assert reader.state("mcReader.mode") == "flow"
    assert reader.state("mcReader.page") in (0, 1)  # where the wheel left the top of the screen
    assert reader.saved(MOON, "1/1", lambda e: e["done"])["done"]


def test_it_opens_the_next_chapter_at_the_same_point_of_the_same_page(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="flow").open(MOON, 1, 1)
    scroll_to(reader, reader.state(END))
    reader.wait("mcReader.preview && mcReader.preview.length > 1")
    second = reader.state("mcReader.preview")[1]
    into = round(second["h"] * 0.25)
    with reader.page.expect_navigation():
        scroll_to(reader, second["y"] + into)  # the top of the screen a quarter into page 2
    reader.wait("window.mcReader && mcReader.boxes.length > 0 && mcReader.page === 1")
    box = reader.state("mcReader.boxes")[1]
    assert (box["w"], box["h"]) == (second["w"], second["h"]), (box, second)
    at = reader.state("mcReader.scroll")["y"]
    assert at == pytest.approx(box["y"] + into, abs=2), (box, second, into, reader.page.url)
    assert "#" not in reader.page.url
    assert reader.saved(MOON, "1/2", lambda e: e["p"] == 1)["p"] == 1


def test_it_stops_at_the_end_card_when_turned_off(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="flow", flowContinues=False).open(MOON, 1, 1)
    scroll_to(reader, 10 ** 6)
    reader.settle()
    end = reader.page.evaluate("(() => { const e = document.querySelector('.rd-end');"
                               " return e.offsetTop + e.offsetHeight; })()")
    assert reader.state("mcReader.canvas")["h"] == end  # no room below the end card to scroll into
    assert reader.page.evaluate("document.querySelector('.rd-canvas').offsetHeight") == end
    assert reader.state("mcReader.preview") is None
    assert reader.page.locator(".rd-end-next").is_visible()  # the end card's link still goes on

