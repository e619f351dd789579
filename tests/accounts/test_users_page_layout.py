"""Settings → Admin → Users fits the screen: long names are cut with their full text in a title,
the table scrolls inside itself, dates stay on one line, and nothing overflows the viewport."""
import pytest

from tests.conftest import PASSWORD

LONG = "a" * 16 + "verylongname" + "b" * 4  # 32 characters, the longest a name may be

FITS = """() => {
  const width = document.documentElement.clientWidth;
  const side = document.querySelector('.ops-side').getBoundingClientRect();
  const date = document.createRange();
  date.selectNodeContents(document.querySelector('.user-created'));
  return {page: document.documentElement.scrollWidth <= width, side: side.right <= width && side.left >= 0,
          dateOneLine: date.getClientRects().length === 1,
          nameCut: [...document.querySelectorAll('.user-name')].every(n => n.getBoundingClientRect().right <= width)};
}"""


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [(1280, 800), (1024, 768), (390, 844)])
def test_it_fits_the_viewport_with_a_32_character_name(server, admin, browser, viewport):
    assert admin.post("/api/admin/user", {"name": LONG, "password": PASSWORD})[0] == 200
    width, height = viewport
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=width < 500,
                                  has_touch=width < 500)
    try:
        context.add_cookies([{"name": "sid", "value": admin.cookies["sid"], "url": server.url}])
        page = context.new_page()
        page.goto(server.url + "/settings/admin/users/")
        assert page.evaluate(FITS) == {"page": True, "side": True, "dateOneLine": True, "nameCut": True}
        assert page.locator(f".user-name[title='{LONG}']").count() == 1
        assert page.locator(".user-created").first.inner_text().count("-") == 2
    finally:
        context.close()


TABLE_FITS = """() => {
  const column = document.querySelector('.ops-main').getBoundingClientRect();
  const table = document.querySelector('table.list').getBoundingClientRect();
  const out = [...document.querySelectorAll('table.list button, table.list a.button, table.list input')]
    .filter(e => { const r = e.getBoundingClientRect();
                   return r.right > column.right + 0.5 || r.right > document.documentElement.clientWidth; })
    .map(e => e.textContent.trim() || e.getAttribute('aria-label'));
  return {table: Math.round(table.width), column: Math.round(column.width), outside: out};
}"""


@pytest.mark.browser
@pytest.mark.parametrize("width", [1280, 1440, 1920])
def test_its_table_fits_its_column_with_every_action_in_view(server, admin, browser, width):
    """With a second account the table was 790 px in a 648 px column at 1280, 1440 and 1920 px,
    Set password and Access… off to the right with no sign that it scrolled."""
    assert admin.post("/api/admin/user", {"name": "second-reader-account", "password": PASSWORD})[0] == 200
    context = browser.new_context(viewport={"width": width, "height": 800})
    try:
        context.add_cookies([{"name": "sid", "value": admin.cookies["sid"], "url": server.url}])
        page = context.new_page()
        page.goto(server.url + "/settings/admin/users/")
        fits = page.evaluate(TABLE_FITS)
        assert fits["table"] <= fits["column"] and fits["outside"] == [], fits
        assert page.get_by_role("link", name="Access…").count() == 1
    finally:
        context.close()


@pytest.mark.browser
def test_it_shows_every_settings_tab_on_a_phone_the_admin_ones_too(server, admin, phone):
    phone.add_cookies([{"name": "sid", "value": admin.cookies["sid"], "url": server.url}])
    page = phone.new_page()
    page.goto(server.url + "/settings/user/profile/")
    tabs = page.evaluate("""[...document.querySelectorAll('.settings-nav a')].map(a => {
      const r = a.getBoundingClientRect();
      const whole = r.width + 1 >= a.scrollWidth;
      return {label: a.textContent.trim(), inside: r.left >= 0 && r.right <= innerWidth && whole}; })""")
    assert {"label": "Users", "inside": True} in tabs and {"label": "Notifications", "inside": True} in tabs
    assert all(tab["inside"] for tab in tabs), tabs
