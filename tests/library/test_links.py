"""Signed page links in the chapter payload (library/links.py), in process; nginx checks them in
test_signed_links.py."""
import time
from urllib.parse import parse_qs, unquote, urlsplit

from library import links
from tests.support.pages import wait_for_library


def pages(client):
    status, _, data = client.get("/api/chapter?m=Moon%20Garden&c=1/1")
    assert status == 200, data
    return [p["u"] for p in data["pages"]]


def test_links_are_plain_unless_signing_is_on(server, admin):
    wait_for_library(admin, 2)
    assert all("?" not in u for u in pages(admin))


def test_signed_links_carry_a_signature_of_the_path_and_session(server, admin, settings):
    wait_for_library(admin, 2)
    settings.IMAGE_LINKS, settings.IMAGE_LINK_SECONDS = "signed", 600
    now = time.time()
    for url in pages(admin):
        parts = urlsplit(url)
        query = {k: v[0] for k, v in parse_qs(parts.query).items()}
        rel = unquote(parts.path.removeprefix("lib/"))
        assert 300 <= int(query["e"]) - now <= 600 + 1
        assert query["s"] == links.signature(rel, admin.cookies["sid"], int(query["e"]))
        assert query["s"] != links.signature(rel, "another session", int(query["e"]))
    assert (server.data / "link-secret.nginx").read_text() == links.NGINX_MAP.format(secret=links.secret())


def test_expiry_moves_on_a_grid_so_urls_stay_the_same_for_a_while(settings):
    settings.IMAGE_LINK_SECONDS = 600
    assert links.expires(900) == links.expires(1199) == 1500
    assert links.expires(1200) == 1800
