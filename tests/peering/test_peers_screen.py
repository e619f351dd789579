"""Settings → Admin → Peers in a real browser against two real servers: add a peer (its secret shown
once), test the connection, share, browse the peer's catalog and queue a transfer, disable, delete."""
import pytest

from tests.peering.support import A_TO_B, B_TO_A, Pair
from tests.support import axe

pytestmark = pytest.mark.browser


@pytest.fixture
def pair(tmp_path):
    p = Pair(tmp_path).start()
    yield p
    p.stop()


@pytest.fixture
def page(pair, desktop):
    desktop.add_cookies([{"name": "sid", "value": pair.admin_b.cookies["sid"], "url": pair.beta.url}])
    desktop.add_init_script(script=axe.source())
    tab = desktop.new_page()
    errors = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.on("dialog", lambda dialog: dialog.accept())
    yield tab
    assert errors == []


def test_it_is_for_admins_only_and_says_how_to_allow_a_lan_peer(pair):
    assert pair.beta.client().get("/settings/admin/peers/")[0] == 302
    status, _, body = pair.admin_b.get("/settings/admin/peers/")
    assert status == 200 and b"PEER_ALLOW=192.168.1.20" in body


def test_an_admin_adds_tests_shares_browses_copies_disables_and_deletes_a_peer(pair, page):
    page.goto(pair.beta.url + "/settings/admin/peers/")
    page.wait_for_selector("text=No peers yet.")
    page.fill("input[name=name]", "gamma")
    page.fill("input[name=url]", "https://gamma.invalid")
    page.fill("input[name=present]", "gamma-present-secret-0123456789ab")
    page.click("button:has-text('Add peer')")
    page.wait_for_selector("#peer-secret:not([hidden]) pre")
    shown = page.inner_text("#peer-secret pre").strip()
    assert len(shown) >= 24 and shown not in (pair.data_b / "peers.json").read_text()
    gamma = page.locator("article.peer", has_text="gamma")
    gamma.locator("button:has-text('Test connection')").click()
    page.wait_for_selector("article.peer p.error")
    assert "cannot be resolved (DNS)" in gamma.locator("p.error").inner_text()
    gamma.locator("button:has-text('Delete')").click()
    page.wait_for_selector("text=No peers yet.")

    # alpha, a real peer: it accepts what beta presents, and shares Moon Garden with beta
    code, out = pair.on_a("peer", "add", "beta", pair.beta.url, "--present-secret-file",
                          pair.secret_file("a2b", A_TO_B), "--accept-secret-file", pair.secret_file("b2a", B_TO_A))
    assert code == 0, out
    pair.on_a("peer", "share", "beta", "Moon Garden")
    page.fill("input[name=name]", "alpha")
    page.fill("input[name=url]", pair.alpha.url)
    page.fill("input[name=present]", B_TO_A)
    page.fill("input[name=accept]", A_TO_B)
    page.click("button:has-text('Add peer')")
    alpha = page.locator("article.peer", has_text="alpha")
    alpha.locator("button:has-text('Test connection')").click()
    page.wait_for_selector("article.peer p.ok")
    assert alpha.locator("p.ok").inner_text() == "connected: alpha shares 1 manga with this server"
    alpha.locator("select").select_option("all")
    alpha.locator("button:has-text('Save sharing')").click()
    page.wait_for_selector(".toast:has-text('Sharing saved')")
    alpha.locator("button:has-text('Browse catalog')").click()
    page.wait_for_selector("#peer-catalog summary")
    assert page.inner_text("#peer-catalog summary") == "Moon Garden · missing here"
    page.click("#peer-catalog summary")
    assert axe.violations(page) == []  # the list, the form, the one-time secret and the open catalog
    page.click("#peer-catalog summary")
    page.click("#peer-catalog summary")
    page.locator("#peer-catalog label", has_text="The whole manga").locator("input").uncheck()
    page.locator("#peer-catalog label", has_text="Extras x1").locator("input").check()
    scraper = pair.start_scraper()
    scraper.call("POST", "/pause", {})
    page.click("button:has-text('Copy the selected versions')")
    page.wait_for_selector(".toast:has-text('Transfer queued')")
    jobs = scraper.call("GET", "/jobs")[1]["jobs"]
    assert [(j["kind"], j["source"], j["series"], j["scope"]["chapters"]) for j in jobs] == [
        ("chapters", "peer", "alpha/Moon Garden", 1)]
    alpha = page.locator("article.peer", has_text="alpha")
    alpha.locator("input[placeholder^='New secret to present']").fill("short")
    alpha.locator("button:text-is('Save')").click()
    page.wait_for_selector(".toast.error:has-text('24 to 200 visible characters')")
    alpha.locator("button:has-text('Disable')").click()
    page.wait_for_selector("article.peer h3:has-text('(disabled)')")
    assert pair.admin_b.get("/api/admin/peers")[2]["peers"][0]["enabled"] is False
