"""Under a sub-path (SCRIPT_NAME=/mc): the apps' routes, their cookies' path, the OPDS links and the
addresses on Settings → User → Apps all carry it."""
import feedparser

from tests.conftest import PASSWORD
from tests.support.app import AppServer
from tests.support.pages import wait_for_library

from .apps import basic, set_cookies


def test_everything_stays_under_the_sub_path(data_dir, library_dir):
    server = AppServer(data_dir, library_dir, env={"SCRIPT_NAME": "/mc"}).start()
    try:
        admin = server.client()
        assert admin.post("/mc/api/signup", {"name": "admin", "password": PASSWORD})[0] == 200
        wait_for_library(admin, 2, prefix="/mc")
        app = server.client()
        status, headers, _ = app.get("/mc/komga/api/v2/users/me?remember-me=true",
                                     headers={"Authorization": basic("admin")})
        cookies = set_cookies(headers)
        assert status == 200 and {c["path"] for c in cookies.values()} == {"/mc/komga"}
        assert app.get("/mc/komga/api/v1/series")[2]["totalElements"] == 2
        feed = feedparser.parse(app.get("/mc/opds/")[2])
        assert {link["href"][:8] for e in feed.entries for link in e.links} == {"/mc/opds"}
        v2 = app.get("/mc/opds/v2/")[2]
        assert {link["href"][:11] for link in v2["navigation"] + v2["links"]} == {"/mc/opds/v2"}
        page = admin.get("/mc/settings/user/apps/")[2].decode()
        assert f"{server.url}/mc/komga<" in page and f"{server.url}/mc/opds/<" in page
        assert f"{server.url}/mc/opds/v2/<" in page
        assert 'href="/mc/download/Moon%20Garden/1/2/"' in admin.get("/mc/manga/Moon%20Garden/")[2].decode()
    finally:
        server.stop()
