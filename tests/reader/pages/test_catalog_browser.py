"""The curators' screens, the manga page's relations and groups, and the discovery row in a real
browser, at desktop and phone size, on the demo library (one server per module: names are unique)."""
import itertools
import re

import pytest
from playwright.sync_api import expect

from tests.conftest import PASSWORD
from tests.support.pages import fresh_reader, sign_in

pytestmark = pytest.mark.browser
_runs = itertools.count(1)


@pytest.fixture(params=["desktop", "phone"])
def context(request):
    return request.getfixturevalue(request.param)


@pytest.fixture
def admin_client(demo_site):
    return demo_site.client().login("admin", PASSWORD)


def rev(client):
    return client.get("/api/admin/catalog")[2]["rev"]


def test_a_curator_adds_a_relation_and_reorders_a_group(demo_site, context):
    run = next(_runs)
    page = sign_in(context, demo_site, "admin", path="/settings/admin/catalog/")
    form = page.locator("#add-relation")
    form.locator("input[name=a]").fill("Iron Harbor")
    form.locator("select[name=type]").select_option("spin-off")
    form.locator("input[name=b]").fill(f"Harbor Lights {run}")
    form.locator("button").click()
    expect(page.locator(".messages")).to_contain_text(f"Added: Iron Harbor spin-off Harbor Lights {run}.")
    row = page.locator(".catalog-relations tr", has_text=f"Harbor Lights {run}")
    expect(row.locator(".pill.missing")).to_have_text("missing")

    group = page.locator("#new-group")
    group.locator("input[name=name]").fill(f"Shelf {run}")
    group.locator("textarea[name=members]").fill("Moon Garden\nLong Scroll\nClockwork Fox")
    group.locator("button").click()
    expect(page).to_have_url(re.compile(r"/settings/admin/catalog/groups/g[0-9a-f]+/$"))
    members = page.locator(".catalog-members li .member-name")
    expect(members).to_have_text(["Moon Garden", "Long Scroll", "Clockwork Fox"])
    page.get_by_role("button", name="Move Clockwork Fox up").click()
    expect(members).to_have_text(["Moon Garden", "Clockwork Fox", "Long Scroll"])
    page.get_by_role("button", name="Move Moon Garden down").click()
    expect(members).to_have_text(["Clockwork Fox", "Moon Garden", "Long Scroll"])
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_curator_accepts_and_rejects_proposals_seeing_their_evidence(demo_site, admin_client, context):
    run = next(_runs)
    batch = {"proposals": [
        {"kind": "relation", "a": "Clockwork Fox", "type": "same-universe", "b": f"Fox Tales {run}",
         "evidence": [{"url": "https://example.org/fox", "quote": "the same city"}]},
        {"kind": "relation", "a": "Clockwork Fox", "type": "alternate", "b": f"Fox Tales {run}",
         "evidence": [{"url": "javascript:alert(1)", "quote": "no"}, {"quote": "a rumour"}]},
    ]}
    status, _, body = admin_client.post("/api/admin/catalog/proposals", batch)
    assert status == 400 and body["errors"][0]["field"] == "evidence[0].url"  # refused whole
    batch["proposals"][1]["evidence"] = [{"quote": "a rumour"}]
    stored = admin_client.post("/api/admin/catalog/proposals", batch)[2]["stored"]
    page = sign_in(context, demo_site, "admin", path=f"/settings/admin/catalog/proposals/?id={stored[0]}")
    card = page.locator(".proposal")
    expect(card.locator(".proposal-text")).to_have_text(f"Clockwork Fox same-universe Fox Tales {run}")
    expect(card.locator(".evidence .url")).to_have_text("https://example.org/fox")
    expect(card.locator(".evidence a")).to_have_attribute("href", "https://example.org/fox")
    card.get_by_role("button", name="Accept").click()
    expect(page.locator(".messages")).to_contain_text("Proposal accepted")
    page.goto(demo_site.url + f"/settings/admin/catalog/proposals/?id={stored[1]}")
    page.locator(".proposal input[name=reason]").fill("only a rumour")
    page.locator(".proposal").get_by_role("button", name="Reject").click()
    expect(page.locator(".decided")).to_contain_text("only a rumour")
    page.goto(demo_site.url + "/manga/Clockwork%20Fox/")
    expect(page.locator(".catalog .relation", has_text=f"Fox Tales {run}")).to_contain_text("missing")


def test_the_manga_page_shows_relations_and_groups_with_links(demo_site, admin_client, context):
    admin_client.post("/api/admin/catalog/relations",
                      {"rev": rev(admin_client), "a": "Moon Garden", "type": "sequel", "b": "Long Scroll"})
    admin_client.post("/api/admin/catalog/groups", {"rev": rev(admin_client), "name": "Night Shelf",
                                                     "members": ["Moon Garden", "Iron Harbor", "Lost Volume"]})
    page = sign_in(context, demo_site, fresh_reader(demo_site), path="/manga/Moon%20Garden/")
    section = page.locator("section.catalog")
    expect(section.locator(".relation", has_text="Long Scroll")).to_contain_text("Sequel:")
    group = section.locator(".group", has_text="Night Shelf").first
    expect(group.locator("li", has_text="Lost Volume")).to_contain_text("missing")
    expect(section.locator(".curator-links")).to_have_count(0)  # readers do not curate
    group.get_by_role("link", name="Iron Harbor").click()
    expect(page.locator("h1")).to_have_text("Iron Harbor")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_the_discovery_row_suggests_explains_and_dismisses(demo_site, admin_client, context):
    admin_client.post("/api/admin/catalog/relations",
                      {"rev": rev(admin_client), "a": "Moon Garden", "type": "sequel", "b": "Long Scroll"})
    name = fresh_reader(demo_site)
    client = demo_site.client().login(name, PASSWORD)
    client.post("/api/settings", {"discovery": True})
    client.post("/api/follow", {"m": "Moon Garden", "on": True})
    page = sign_in(context, demo_site, name)
    row = page.locator(".discover-row")
    tile = row.locator(".discover-tile", has_text="Long Scroll")
    expect(tile).to_contain_text("Sequel to Moon Garden, which you follow")
    tile.get_by_role("button", name="Dismiss Long Scroll").click()
    expect(page.locator(".messages")).to_contain_text("Long Scroll was dismissed")
    expect(row.locator(".discover-tile", has_text="Long Scroll")).to_have_count(0)
    page.get_by_role("link", name="See all").click()
    page.get_by_role("button", name="Bring back Long Scroll").click()
    expect(page.locator(".discover-item", has_text="Long Scroll")).to_contain_text("Sequel to Moon Garden")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_an_admin_edits_metadata_and_chooses_a_cover_from_the_manga_page(demo_site, context):
    run = next(_runs)
    page = sign_in(context, demo_site, "admin", path="/manga/Iron%20Harbor/")
    page.get_by_role("link", name="Edit metadata and cover").click()
    form = page.locator("#metadata")
    form.locator("input[name=title]").fill(f"Iron Harbor, edition {run}")
    form.locator("textarea[name=altTitles]").fill(f"Port of Iron {run}")
    form.locator("select[name=direction]").select_option("ltr")
    form.locator(".cover-option input[type=radio]").nth(2).check()
    form.get_by_role("button", name="Save metadata").click()
    expect(page.locator(".messages")).to_contain_text("Metadata saved.")
    expect(form.locator(".cover-option input[type=radio]").nth(2)).to_be_checked()
    page.get_by_role("link", name="Back to the manga").click()
    expect(page.locator("h1")).to_have_text(f"Iron Harbor, edition {run}")
    expect(page.locator(".alt")).to_contain_text(f"Port of Iron {run}")
    page.goto(demo_site.url + f"/?q=port+of+iron+{run}")
    expect(page.locator("#grid .tile .title")).to_have_text([f"Iron Harbor, edition {run}"])
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
