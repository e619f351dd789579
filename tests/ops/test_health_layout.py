"""Settings → Admin → Incidents & health on a phone: the services table becomes one card per
service, and each value keeps its column's name (the header row is hidden there)."""
import pytest

LABELS = """() => [...document.querySelectorAll('table.list tbody tr')].map((tr) =>
  [...tr.children].map((cell) => {
    const before = getComputedStyle(cell, '::before').content;
    const r = cell.getBoundingClientRect();
    return [before === 'none' ? '' : before.replace(/^"|"$/g, '') + cell.textContent.trim(),
            r.left >= 0 && r.right <= innerWidth];
  }))"""


@pytest.mark.browser
def test_its_service_cards_keep_their_labels_on_a_phone(server, admin, phone):
    phone.add_cookies([{"name": "sid", "value": admin.cookies["sid"], "url": server.url}])
    page = phone.new_page()
    page.goto(server.url + "/settings/admin/health/")
    reader = page.evaluate(LABELS)[0]
    texts = [text for text, _ in reader]
    assert texts[0] == "" and page.locator("table.list tbody th").first.inner_text() == "Reader"
    assert texts[1].startswith("State: running") and texts[2].startswith("Up for: ")
    assert texts[3] == "Restarts: not supervised"
    assert all(inside for _, inside in reader)
