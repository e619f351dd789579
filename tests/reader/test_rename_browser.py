"""A rename in a real browser (docs/library.md, "Renames"): a user reads to page 5, the admin
renames the manga's folder, and the user's Continue opens page 5 of the renamed manga."""
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from tests.conftest import PASSWORD, make_page

from .conftest import start_server, stop_server

pytestmark = pytest.mark.browser


@pytest.fixture
def srv(tmp_path_factory):
    library = tmp_path_factory.mktemp("renamed") / "library"
    manga = library / "Star Drift"
    for n in range(1, 9):
        make_page(manga / "c0001 Launch" / f"{n:03d}.png", size=(300, 450), color=(30 * n, 60, 120))
    (manga / "manga.json").write_text('{"direction": "ltr"}')
    server = start_server(tmp_path_factory, library, ("Star Drift", "0/1"))
    yield server
    stop_server(server)


def test_continue_opens_the_same_page_after_the_folder_is_renamed(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page").open("Star Drift", 0, 1)
    for _ in range(4):
        reader.page.keyboard.press("ArrowRight")
    reader.wait("mcReader.page === 4")
    reader.saved("Star Drift", "0/1", lambda p: p["p"] == 4)
    srv.library.joinpath("Star Drift").rename(srv.library / "Star Drift (2024)")
    admin = srv.client().login("admin", PASSWORD)
    status, _, report = admin.post("/api/admin/rescan", {"full": True})
    assert status == 200 and report["renamed"][0].startswith("renamed Star Drift → Star Drift (2024)")
    page = reader.page
    page.goto(f"{srv.url}/manga/{quote('Star Drift (2024)')}/")
    expect(page.locator("#continue")).to_have_text("Resume: Ch. 1: Launch · p. 5/8")
    page.locator("#continue").click()
    reader.wait("window.mcReader && mcReader.page === 4", timeout=10)
