"""Settings → Admin → Import in a real browser: the dry run's lists with their reasons, then Import,
which shows the backup and the one-time passwords; the screen passes axe with the plan shown."""
import pytest
from playwright.sync_api import expect

from tests.support import axe
from tests.support.pages import sign_in, wait_for_library

pytestmark = pytest.mark.browser


def test_the_admin_sees_the_dry_run_then_imports(real_server, admin, desktop, komga_db):
    wait_for_library(admin, 2)
    desktop.add_init_script(axe.source())
    page = sign_in(desktop, real_server, "admin", path="/settings/admin/import/")
    page.fill("input[name=path]", str(komga_db))
    page.click("#import-form button.primary")
    plan = page.locator("#import-plan")
    expect(plan.locator("h2")).to_have_text("Dry run: nothing was changed")
    expect(plan.locator(".import-counts")).to_have_text(
        "0 matched, 8 created, 0 already so here, 5 not found, 0 not imported.")
    expect(plan.locator(".import-not_found li").first).to_contain_text("no manga named Star Sea")
    expect(plan.locator(".import-created li", has_text="read list Summer reading")).to_contain_text("2 chapter(s)")
    assert axe.violations(page) == []
    plan.locator("button.primary").click()
    expect(plan.locator("h2")).to_have_text("Imported")
    expect(plan.locator(".import-accounts li")).to_have_count(2)
    expect(plan.locator(".import-accounts li").first).to_contain_text("alice (from alice@example.org): ")
    page.click("#import-form button.primary")
    expect(plan.locator("button.primary")).to_have_text("Nothing to import")
    expect(plan.locator("button.primary")).to_be_disabled()
