"""The reader and the header on a 390×844 phone: the 100 % button keeps the bars, the version
picker fits, the header has a Library link, and Book mode adapts to Page on a portrait phone."""
import pytest

MOON = "Moon Garden"


@pytest.fixture(scope="module")
def srv(demo_server):
    return demo_server


def test_it_keeps_the_bars_when_100_percent_is_tapped(srv, phone, reader_on):
    reader = reader_on(phone, srv, startMode="page").open(MOON, 1, 2)
    for _ in range(40):
        reader.page.keyboard.press("+")  # zoomed in to 300 %
    reader.page.evaluate("const s = document.querySelector('.rd-scroller'); s.scrollTop = s.scrollHeight")
    reader.settle()  # scroll events are dispatched before the next frame's callbacks
    reader.page.evaluate("MCR.bars.show()")
    reader.settle()
    assert reader.state("mcReader.zoom") > 2.5 and reader.state("mcReader.bars")
    reader.page.locator(".rd-zoom").tap()
    reader.wait("mcReader.zoom === 1")
    reader.settle()  # the scroll events of the re-layout have arrived: they come before these frames
    reader.settle()
    assert reader.state("mcReader.bars")


def test_it_shows_the_whole_version_picker(srv, phone, reader_on):
    reader = reader_on(phone, srv, startMode="page").open(MOON, 1, 2)
    fits = reader.page.evaluate("""() => { const s = document.querySelector('.rd-versions');
      const r = s.getBoundingClientRect(); const label = s.options[s.selectedIndex].text;
      const probe = document.createElement('span'); probe.style.font = getComputedStyle(s).font;
      probe.textContent = label; document.body.appendChild(probe);
      const needed = probe.getBoundingClientRect().width; probe.remove();
      return {inside: r.left >= 0 && r.right <= innerWidth, wideEnough: r.width >= needed + 16}; }""")
    assert fits == {"inside": True, "wideEnough": True}


def test_it_has_a_library_link_in_the_phone_header(srv, phone):
    phone.add_cookies([{"name": "sid", "value": srv.admin.cookies["sid"], "url": srv.url}])
    page = phone.new_page()
    page.goto(srv.url + "/settings/user/profile/")
    link = page.locator(".topnav a:has-text('Library')")
    assert link.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    header = page.evaluate("[...document.querySelectorAll('.topbar *')]"
                           ".filter(e => e.getBoundingClientRect().right > innerWidth)"
                           ".map(e => e.outerHTML.slice(0, 60) + ' ' + e.getBoundingClientRect().right)")
    assert header == []
    link.tap()
    page.wait_for_url(srv.url + "/")


@pytest.mark.browser
@pytest.mark.parametrize("size, mode", [("phone", "page"), ("desktop", "book")])
def test_it_adapts_book_mode_to_page_mode_on_a_portrait_phone(srv, size, mode, request, reader_on):
    reader = reader_on(request.getfixturevalue(size), srv, startMode="book").open(MOON, 1, 2)
    assert reader.state("mcReader.mode") == mode
    without = reader_on(request.getfixturevalue(size), srv, startMode="book", adapt=False).open(MOON, 1, 2)
    assert without.state("mcReader.mode") == "book"
