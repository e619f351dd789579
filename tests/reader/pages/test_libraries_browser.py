"""Several libraries in a real browser: the library page's Libraries facet, and a user an admin
limits to one library in Settings → Users → Access, who then sees nothing of the other."""
import pytest
from playwright.sync_api import expect

from bench.server import Server
from tests.conftest import PASSWORD, make_page, tiny_tree
from tests.support.pages import sign_in, wait_for_library

pytestmark = pytest.mark.browser


@pytest.fixture
def two_libraries(tmp_path):
    manga = tiny_tree(tmp_path / "manga")
    for n in (1, 2):
        make_page(tmp_path / "comics" / "Star Patrol" / "c0001 Launch" / f"{n:03d}.png", color=(10, 20, 200))
    env = {"LIBRARY": "", "LIBRARIES": f"Manga={manga};Comics={tmp_path / 'comics'}"}
    srv = Server(tmp_path / "data", env=env).start()
    admin = srv.client().signup("admin", PASSWORD)
    wait_for_library(admin, 3)
    assert admin.post("/api/admin/user", {"name": "kid", "password": PASSWORD})[0] == 200
    yield srv
    srv.stop()


def test_a_user_limited_to_one_library_sees_only_its_manga(two_libraries, desktop):
    srv = two_libraries
    admin = sign_in(desktop, srv, "admin", PASSWORD)
    facet = admin.locator("#facets .chip", has_text="Comics")
    expect(facet).to_contain_text("1")
    facet.click()
    expect(admin.locator("#grid .tile")).to_have_count(1)
    expect(admin.locator("#grid .tile")).to_contain_text("Star Patrol")
    admin.goto(srv.url + "/settings/admin/users/kid/access/")
    admin.get_by_label("Manga", exact=True).uncheck()
    admin.get_by_role("button", name="Save").click()
    expect(admin.locator(".messages")).to_contain_text("now sees only what the restrictions allow")
    expect(admin.get_by_label("Manga", exact=True)).not_to_be_checked()
    expect(admin.get_by_label("Comics", exact=True)).to_be_checked()
    admin.close()

    kid = sign_in(desktop, srv, "kid", PASSWORD)
    expect(kid.locator("#grid .tile")).to_have_count(1)
    expect(kid.locator("#grid .tile")).to_contain_text("Star Patrol")
    expect(kid.locator("#facets .chip", has_text="Manga")).to_have_count(0)
    assert kid.goto(srv.url + "/manga/Moon%20Garden/").status == 404
    expect(kid.locator("body")).to_contain_text("no manga named Moon Garden")
    kid.goto(srv.url + "/?q=moon")
    expect(kid.locator("#grid-empty")).to_be_visible()
