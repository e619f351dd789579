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


def _restrict(admin, name, only):
    status, _, data = admin.post("/api/admin/user/access", {"name": name, "only": only, "excludeTags": []})
    assert status == 200, data


def test_the_link_cookies_are_signed_for_the_session_and_kept_only_by_unrestricted_users(
        server, admin, reader_user, settings):
    settings.IMAGE_LINKS, settings.IMAGE_LINK_SECONDS = "signed", 600
    status, headers, _ = admin.get("/api/auth")
    until = int(admin.cookies["mclink_e"])
    assert 300 <= until - time.time() <= 601
    assert admin.cookies["mclink_s"] == links.thumb_signature(admin.cookies["sid"], until)
    assert all("HttpOnly" in c and "SameSite=Lax" in c for c in headers.get_all("Set-Cookie") if "mclink" in c)
    assert "mclink" not in str(admin.get("/api/auth")[1].get_all("Set-Cookie"))  # kept, not sent again
    reader_user.get("/api/auth")
    assert "mclink_s" in reader_user.cookies
    _restrict(admin, "reader", ["Moon Garden"])
    reader_user.get("/api/auth")  # restricted now: the pair goes, and no new one comes
    assert "mclink_s" not in reader_user.cookies and "mclink_e" not in reader_user.cookies
    reader_user.get("/api/auth")
    assert "mclink_s" not in reader_user.cookies
    assert admin.post("/api/logout")[0] == 200
    assert "mclink_s" not in admin.cookies and "mclink_e" not in admin.cookies


def test_no_link_cookies_unless_signing_is_on(server, admin):
    admin.get("/api/auth")
    assert not {"mclink_e", "mclink_s"} & set(admin.cookies)


def test_cover_urls_name_the_thumbnail_file_and_every_form_checks_the_session(server, admin, reader_user):
    wait_for_library(admin, 2)
    status, _, data = admin.get("/api/library")
    cover = next(m["cover"] for m in data["manga"] if m["name"] == "Moon Garden")
    assert cover.startswith("thumb/Moon%20Garden/") and cover.endswith(".webp"), cover
    status, headers, body = admin.send("GET", "/" + cover, headers={"Cookie": "sid=" + admin.cookies["sid"]})
    assert status == 200 and headers["Content-Type"] == "image/webp"
    assert body == admin.send("GET", "/thumb/Moon%20Garden", headers={"Cookie": "sid=" + admin.cookies["sid"]})[2]
    stale = "/thumb/Moon%20Garden/" + "0" * 32 + ".webp"  # an old cover's name: the current cover
    assert reader_user.send("GET", stale, headers={"Cookie": "sid=" + reader_user.cookies["sid"]})[2] == body
    assert server.client().get("/" + cover)[0] == 401
    for bad in ("/thumb/Moon%20Garden/x.webp", "/thumb/Moon%20Garden/" + "0" * 32 + ".png",
                "/thumb/Moon%20Garden/../" + "0" * 32 + ".webp", "/thumb/Nope/" + "0" * 32 + ".webp"):
        assert admin.get(bad)[0] == 404, bad
