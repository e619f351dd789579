"""The settings area: deep links, back/forward, the admin workspace and its user screen."""
import re

import pytest

from bench.server import ROOT
from tests.conftest import PASSWORD


def _signed_in(context, server, client):
    context.add_cookies([{"name": "sid", "value": client.cookies["sid"], "url": server.url}])
    return context.new_page()


def test_it_opens_a_section_by_deep_link_and_keeps_it_through_reload_and_history(server, admin, desktop):
    page = _signed_in(desktop, server, admin)
    page.goto(server.url + "/settings/user/notifications/")
    assert page.locator("h1").inner_text() == "Notifications"
    assert page.locator(".settings-nav a.current").inner_text() == "Notifications"
    page.reload()
    assert page.locator("h1").inner_text() == "Notifications"
    page.click(".settings-nav >> text=Users")
    page.wait_for_url(re.compile(r"/settings/admin/users/$"))
    page.go_back()
    page.wait_for_url(re.compile(r"/settings/user/notifications/$"))
    page.go_forward()
    page.wait_for_url(re.compile(r"/settings/admin/users/$"))
    assert page.locator("h1").inner_text().startswith("Users")


def test_it_has_no_admin_workspace_for_readers(server, reader_user, desktop):
    page = _signed_in(desktop, server, reader_user)
    page.goto(server.url + "/settings/")
    assert page.url.endswith("/settings/user/profile/")
    assert page.locator(".settings-nav").inner_text().count("Users") == 0
    assert reader_user.get("/settings/admin/users/")[0] == 403
    assert reader_user.post("/settings/admin/users/", {})[0] in (403, 415)


def test_it_saves_reading_preferences(server, admin, phone):
    page = _signed_in(phone, server, admin)
    page.goto(server.url + "/settings/user/reading/")
    page.select_option("select[name=startMode]", "book")
    page.check("input[name=skipExtras]")
    page.click("text=Save")
    assert page.locator(".messages").inner_text() == "Reading preferences saved."
    settings = admin.get("/api/me")[2]["settings"]
    assert settings["startMode"] == "book" and settings["skipExtras"] is True


def test_it_creates_promotes_and_deletes_a_user_with_confirmation(server, admin, desktop):
    page = _signed_in(desktop, server, admin)
    page.goto(server.url + "/settings/admin/users/")
    page.fill(".ops-side input[name=name]", "mika")
    page.fill(".ops-side input[name=password]", PASSWORD)
    page.click(".ops-side button.primary")
    assert "Created mika." in page.locator(".messages").inner_text()
    server.client().login("mika")
    row = page.locator("tr", has_text="mika")
    row.locator("text=Make admin").click()
    assert "mika is now an admin." in page.locator(".messages").inner_text()
    page.locator("tr", has_text="mika").locator("text=Delete…").click()
    assert page.locator("h1").inner_text() == "Delete mika?"
    page.click("text=Yes, delete mika")
    assert "Deleted mika" in page.locator(".messages").inner_text()
    assert [u["name"] for u in admin.get("/api/admin")[2]["users"]] == ["admin"]


def test_it_changes_the_password_on_the_profile_page(server, admin, desktop):
    page = _signed_in(desktop, server, admin)
    page.goto(server.url + "/settings/user/profile/")
    page.fill("input[name=old]", PASSWORD)
    page.fill("input[name=new]", "another password")
    page.fill("input[name=new2]", "another password")
    page.click("button.primary")
    assert "Password changed" in page.locator(".messages").inner_text()
    server.client().login("admin", "another password")


def test_it_scans_from_the_library_screen_and_lists_the_report(server, admin, desktop, library_dir):
    (library_dir / "Bad Meta").mkdir()
    (library_dir / "Bad Meta" / "manga.json").write_text("{not json")
    page = _signed_in(desktop, server, admin)
    page.goto(server.url + "/settings/admin/library/")
    assert str(library_dir) in page.locator(".facts").inner_text()
    page.click("text=Full scan")
    assert page.locator(".messages").inner_text() == "Full scan finished."
    newest = page.locator("article.scan").first
    assert newest.locator("h3").inner_text() == "Full scan"
    newest.locator("summary").click()
    assert "Bad Meta" in newest.locator(".warnings").inner_text()


ROW_GAPS = """() => [...document.querySelectorAll('form.narrow-form label.check')].map((label) => {
  const range = document.createRange();
  range.selectNodeContents(label);
  const text = [...range.getClientRects()].filter((r) => r.width > 20);  // the text's lines, not the box
  return {top: Math.min(...text.map((r) => r.top)), bottom: Math.max(...text.map((r) => r.bottom)),
          height: label.getBoundingClientRect().height};
})"""


@pytest.mark.browser
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_its_reading_rows_are_evenly_spaced_and_each_a_tap_high(server, admin, size, request):
    """One-line rows stood 23 px apart and two-line rows touched (0 px), at 1280 px and on a phone."""
    page = _signed_in(request.getfixturevalue(size), server, admin)
    page.goto(server.url + "/settings/user/reading/")
    rows = page.evaluate(ROW_GAPS)
    assert len(rows) >= 5
    gaps = [round(b["top"] - a["bottom"]) for a, b in zip(rows, rows[1:])]
    assert max(gaps) - min(gaps) <= 5 and min(gaps) >= 12, gaps
    assert all(row["height"] >= 44 for row in rows)


def test_its_zoom_line_names_only_the_readers_modes(server, admin):
    """Settings listed a "Strip" zoom, a mode the reader has no button for (it is Flow in a webtoon)."""
    source = (ROOT / "static" / "js" / "read-modes.js").read_text()
    labels = re.findall(r'label: pgettext\("reading mode", "(\w+)"\)', source)
    assert labels == ["Flow", "Page", "Book"]
    html = admin.get("/settings/user/reading/")[2].decode()
    items = re.findall(r'<span class="nowrap">([^<]*) \d+ %</span>', html.split('class="muted zoom-levels"')[1])
    assert items == ["Flow", "Flow in webtoons", "Page", "Book"]
    assert all(item.split()[0] in labels for item in items)
