"""Read lists in the browser: chapters of two manga put in a list from their pages, followed through
the reader's end card; a ComicRack .cbl imported with its missing entry reported; axe-core on the
pages (docs/using.md, "Read lists")."""
import pytest
from playwright.sync_api import expect

from tests.support import axe
from tests.support.pages import fresh_reader, sign_in

pytestmark = pytest.mark.browser
MOON, IRON = "Moon Garden", "Iron Harbor"


def add_from_manga_page(page, site, manga, chapter_label, new_name=None):
    page.goto(f"{site.url}/manga/{manga.replace(' ', '%20')}/")
    page.select_option("#readlist-what", label=chapter_label)
    if new_name:
        page.select_option("#add-readlist", label="New read list…")
        page.fill("#new-readlist-name", new_name)
    page.click("#add-to-readlist")
    expect(page.locator(".toast").last).to_contain_text("Added to Event")


def to_the_end(page):
    """Page mode: turn pages until the end card shows."""
    card = page.locator(".rd-end")
    for _ in range(40):
        if card.count() and card.is_visible():
            return card
        page.keyboard.press("PageDown")
    raise AssertionError("no end card after 40 page turns")


def test_a_read_list_across_two_manga_is_followed_through_the_end_card(demo_site, desktop):
    name = fresh_reader(demo_site)
    assert demo_site.client().login(name).post("/api/settings", {"startMode": "page"})[0] == 200
    page = sign_in(desktop, demo_site, name)
    add_from_manga_page(page, demo_site, MOON, "Ch. 2.5 · Interlude", new_name="Event")
    add_from_manga_page(page, demo_site, IRON, "Ch. 1 · Dockside")
    page.goto(demo_site.url + "/readlists/")
    expect(page.locator("#readlists li")).to_contain_text("0 of 2 read")
    page.get_by_role("link", name="Event").click()
    expect(page.locator("#items li .title")).to_have_text([f"{MOON} · Ch. 2.5", f"{IRON} · Ch. 1"])
    page.click("#readlist-next")  # Start: the first chapter not read
    page.wait_for_url("**/read/Moon%20Garden/1/2.5/?list=*")
    card = to_the_end(page)
    expect(card.locator(".rd-end-list")).to_have_text("Event · 1 of 2")
    expect(card.locator(".rd-end-next")).to_have_text(f"Next in list: {IRON} · Ch. 1 · Dockside")
    card.locator(".rd-end-next").click()
    page.wait_for_url("**/read/Iron%20Harbor/**?list=*")
    card = to_the_end(page)
    expect(card.locator(".rd-end-list")).to_have_text("Event · 2 of 2")
    expect(card).to_contain_text("This is the end of the read list.")


CBL = """<?xml version="1.0"?>
<ReadingList><Name>Harbour nights</Name><Books>
  <Book Series="Iron Harbor" Number="2" Volume="" Year="2020"/>
  <Book Series="Sea of Stars" Number="1" Volume="2006" Year="2006"/>
  <Book Series="Moon Garden" Number="3" Volume="1" Year="2021"/>
</Books></ReadingList>"""


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_cbl_import_reports_its_missing_entry_then_makes_the_list(demo_site, request, size, tmp_path):
    page = sign_in(request.getfixturevalue(size), demo_site, fresh_reader(demo_site), path="/readlists/")
    cbl = tmp_path / "harbour.cbl"
    cbl.write_text(CBL)
    page.set_input_files("#cbl-file", str(cbl))
    page.click("#readlist-import button")
    plan = page.locator("#cbl-plan")
    expect(plan.locator(".cbl-counts")).to_have_text("3 in the file: 2 found here, 1 not found.")
    expect(plan.locator(".cbl-missing li")).to_have_text(["Sea of Stars (2006) #1 → no manga named Sea of Stars"])
    plan.get_by_role("button", name="Import 2 chapter(s)").click()
    page.wait_for_url("**/readlists/r*/")
    expect(page.locator("h1")).to_contain_text("Harbour nights")
    expect(page.locator("#items li .title")).to_have_text([f"{IRON} · Ch. 2", f"{MOON} · Ch. 3"])
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_read_list_pages_pass_axe(demo_site, desktop):
    desktop.add_init_script(axe.source())
    name = fresh_reader(demo_site)
    page = sign_in(desktop, demo_site, name, path="/readlists/")
    client = demo_site.client().login(name)
    made = client.post("/api/readlists", {"name": "Axe", "items": [{"m": MOON, "c": "1/1"}]})[2]
    found = [("/readlists/", *v) for v in axe.violations(page)]
    page.goto(demo_site.url + "/" + made["url"])
    found += [(made["url"], *v) for v in axe.violations(page)]
    page.goto(demo_site.url + "/manga/Moon%20Garden/")
    found += [("manga", *v) for v in axe.violations(page)]
    assert found == []
