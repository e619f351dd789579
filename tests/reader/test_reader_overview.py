"""The reader's page overview and the chapter picker's "Mark …" entries in a real browser, at
desktop and phone sizes: thumbnails load only while it is open, a page jumps there, the keys work."""
import pytest

MOON = "Moon Garden"

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def srv(demo_server):
    return demo_server


@pytest.fixture(params=["desktop", "phone"])
def context(request):
    return request.getfixturevalue(request.param)


def loaded_thumbs(reader):
    return reader.page.evaluate("""Array.from(document.querySelectorAll('.rd-ov-page img'))
        .filter((i) => i.complete && i.naturalWidth > 0).length""")


def test_it_opens_the_overview_and_jumps_to_a_page(srv, context, reader_on):
    reader = reader_on(context, srv, startMode="page").open(MOON, 1, 1)
    count = reader.page.evaluate("mcReader.shown.length")
    assert reader.page.locator(".rd-ov-page").count() == 0  # nothing is built or fetched before
    reader.page.click(".rd-pages")
    dialog = reader.page.locator("dialog.rd-overview")
    assert dialog.is_visible()
    assert reader.page.locator(".rd-ov-page").count() == count
    assert reader.page.locator('.rd-ov-page[aria-current="page"]').inner_text() == "Page 1"
    reader.wait(f"document.querySelectorAll('.rd-ov-page.rd-ov-loaded').length >= {min(count, 6)}")
    assert loaded_thumbs(reader) >= min(count, 6)
    reader.page.locator(".rd-ov-page", has_text="Page 5").click()
    assert not dialog.is_visible()
    reader.wait("mcReader.page === 4 || mcReader.spreads.some((s) => s.includes(4) && s.includes(mcReader.page))")
    assert reader.state("mcReader.page") in (3, 4)
    assert not reader.page.evaluate("document.documentElement.scrollWidth > window.innerWidth")


def test_the_keyboard_opens_moves_in_and_closes_it_without_turning_pages(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page").open(MOON, 1, 1)
    reader.page.keyboard.press("p")
    assert reader.page.locator("dialog.rd-overview").is_visible()
    assert reader.page.evaluate("document.activeElement.textContent") == "Page 1"
    reader.page.keyboard.press("ArrowLeft")  # the dialog has the keys: no page turn behind it
    reader.page.keyboard.press("Tab")
    assert reader.page.evaluate("document.activeElement.textContent") == "Page 2"
    assert reader.state("mcReader.page") == 0
    reader.page.keyboard.press("Escape")
    assert not reader.page.locator("dialog.rd-overview").is_visible()
    reader.page.keyboard.press("p")
    reader.page.keyboard.press("Tab")
    reader.page.keyboard.press("Tab")
    reader.page.keyboard.press("Enter")
    reader.wait("mcReader.page === 2")


def test_the_chapter_picker_marks_previous_and_all_chapters(srv, context, reader_on):
    reader = reader_on(context, srv, startMode="page").open(MOON, 2, 4)
    picker = reader.page.locator(".rd-chapters")
    picker.select_option("mark:previous")
    ticked = "Array.from(document.querySelectorAll('.rd-chapters option')).filter((o) => o.textContent.startsWith('✓'))"
    reader.wait(f"{ticked}.length === 4 && !document.querySelector('.rd-chapters').disabled")
    assert picker.input_value().startswith("read/Moon%20Garden/2/4/")  # still on this chapter
    data = reader.client.get("/api/manga?m=Moon%20Garden")[2]
    assert [c["id"] for b in data["books"] for c in b["chapters"] if c["read"]] == ["1/1", "1/2", "1/2.5", "1/3"]
    picker.select_option("mark:all-unread")
    reader.wait(f"{ticked}.length === 0")
    assert reader.page.url.endswith("/read/Moon%20Garden/2/4/")
