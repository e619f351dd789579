"""Signed page links behind nginx running deploy/nginx.conf (library/links.py, docs/proxy.md).

A real `serve` with IMAGE_LINKS=signed and the hand-off, and a real nginx with the shipped site
file, its paths substituted (bench/nginx_deploy.py)."""
import time
from urllib.parse import quote

import pytest

from bench.nginx_deploy import DeployedNginx
from bench.server import Client, Server
from library.links import signature, thumb_signature
from tests.conftest import PASSWORD
from tests.library.cbz import make_cbz, pages
from tests.support.pages import wait_for_library

pytestmark = pytest.mark.process

PAGE = "Moon Garden/b01 Spring/c0001 Seeds/001.png"
OTHER_PAGE = "Moon Garden/b01 Spring/c0001 Seeds/002.png"
ENV = {"IMAGE_LINKS": "signed", "IMAGE_LINK_SECONDS": "600", "SENDFILE_HEADER": "x-accel-redirect",
       "SENDFILE_PREFIX": "/protected-library/"}


@pytest.fixture
def site(data_dir, library_dir):
    server = Server(data_dir, library_dir, env=ENV).start()
    nginx = DeployedNginx(library_dir, data_dir, server.port).start()
    yield server, nginx, library_dir
    nginx.stop()
    server.stop()


def via(nginx, client):
    """The same signed-in browser, talking to nginx instead."""
    proxied = Client("127.0.0.1", nginx.port)
    proxied.cookies = dict(client.cookies)
    return proxied


def first_page_url(client):
    status, _, data = client.get("/api/chapter?m=Moon%20Garden&c=1/1")
    assert status == 200, data
    return "/" + data["pages"][0]["u"]


def users(server):
    admin = server.client().signup("admin", PASSWORD)
    # The first scan runs in the background: until it has found every manga folder, pages are 404.
    wait_for_library(admin, sum(1 for entry in server.library.iterdir() if entry.is_dir()))
    status, _, data = admin.post("/api/admin/user", {"name": "reader", "password": PASSWORD})
    assert status == 200, data
    return admin, server.client().login("reader", PASSWORD)


def secret(data_dir):
    return (data_dir / "link-secret").read_text()


def test_the_reader_hands_out_signed_links_that_nginx_serves_alone(site, data_dir):
    server, nginx, library = site
    admin, _ = users(server)
    url = first_page_url(admin)
    assert url.startswith("/lib/" + quote(PAGE)) and "?e=" in url and "&s=" in url, url
    assert 'default "' + secret(data_dir) + '"' in (data_dir / "link-secret.nginx").read_text()
    browser = via(nginx, admin)
    status, headers, body = browser.get(url)
    assert status == 200 and body == (library / PAGE).read_bytes()
    assert headers["Content-Type"] == "image/png"
    assert headers["X-Content-Type-Options"] == "nosniff" and "sandbox" in headers["Content-Security-Policy"]
    assert "private" in headers["Cache-Control"]
    server.stop()  # nginx alone now: a signed link needs no answer from the reader
    assert browser.get(url)[0] == 200
    assert browser.get("/lib/" + quote(PAGE))[0] == 502  # an unsigned one goes to the reader


def test_a_tampered_link_is_refused(site):
    server, nginx, _ = site
    admin, _ = users(server)
    url = first_page_url(admin)
    browser = via(nginx, admin)
    head, sig = url.rsplit("&s=", 1)
    forged = head + "&s=" + ("A" if sig[0] != "A" else "B") + sig[1:]
    assert browser.get(forged)[0] == 403
    assert browser.get(url.replace(quote(PAGE), quote(OTHER_PAGE)))[0] == 403  # the path is signed
    later = int(head.split("?e=")[1]) + 3600
    assert browser.get(f"{head.split('?e=')[0]}?e={later}&s={sig}")[0] == 403  # so is the expiry


def test_another_users_link_is_refused(site):
    server, nginx, _ = site
    admin, reader = users(server)
    url = first_page_url(admin)
    assert via(nginx, reader).get(url)[0] == 403  # signed for admin's session, not reader's
    assert Client("127.0.0.1", nginx.port).get(url)[0] == 403  # no session at all


def test_an_expired_link_goes_back_to_the_session_check(site, data_dir):
    server, nginx, library = site
    admin, _ = users(server)
    sid = admin.cookies["sid"]
    past = int(time.time()) - 1
    expired = f"/lib/{quote(PAGE)}?e={past}&s={signature(PAGE, sid, past, secret(data_dir))}"
    browser = via(nginx, admin)
    status, _, body = browser.get(expired)  # the reader checks the session and hands the file over
    assert status == 200 and body == (library / PAGE).read_bytes()
    assert admin.post("/api/logout")[0] == 200
    stale = Client("127.0.0.1", nginx.port)
    stale.cookies["sid"] = sid  # the ended session's cookie, kept by someone else
    assert stale.get(expired)[0] == 401


def test_logout_stops_new_links_at_once_and_old_ones_at_their_expiry(site):
    server, nginx, _ = site
    admin, _ = users(server)
    url = first_page_url(admin)
    sid = admin.cookies["sid"]
    assert admin.post("/api/logout")[0] == 200
    assert admin.get("/api/chapter?m=Moon%20Garden&c=1/1")[0] == 401  # no new links
    assert via(nginx, admin).get(url)[0] == 403  # the browser dropped its sid: its links are dead
    stale = Client("127.0.0.1", nginx.port)
    stale.cookies["sid"] = sid
    # The documented window: the link and the ended session's cookie together work until e= passes.
    assert stale.get(url)[0] == 200
    assert int(url.split("?e=")[1].split("&")[0]) - time.time() <= 600


def test_without_a_proxy_the_same_links_check_the_session(site):
    server, _, _ = site
    admin, reader = users(server)
    url = first_page_url(admin)
    status, headers, _ = reader.get(url)  # the reader's own /lib/ route ignores the signature
    assert status == 200 and headers["X-Accel-Redirect"] == "/protected-library/" + quote(PAGE)
    assert server.client().get(url)[0] == 401


def test_a_page_inside_a_cbz_keeps_a_plain_link_that_the_reader_answers(data_dir, library_dir):
    members = pages(2)
    make_cbz(library_dir / "Star Ferry" / "Star Ferry c001.cbz", members)
    server = Server(data_dir, library_dir, env=ENV).start()
    nginx = DeployedNginx(library_dir, data_dir, server.port).start()
    try:
        admin, _ = users(server)
        status, _, manga = admin.get("/api/manga?m=Star%20Ferry")
        assert status == 200, manga
        cid = manga["books"][0]["chapters"][0]["id"]
        status, _, data = admin.get(f"/api/chapter?m=Star%20Ferry&c={quote(cid)}")
        assert status == 200, data
        urls = [p["u"] for p in data["pages"]]
        assert urls and all("?" not in u for u in urls), urls  # nginx cannot open a member from disk
        status, _, body = via(nginx, admin).get("/" + urls[0])
        assert status == 200 and body == members[min(members)]
        assert "?e=" in first_page_url(admin)  # a folder's pages are still signed
    finally:
        nginx.stop()
        server.stop()


def cover_url(client, name="Moon Garden"):
    wait_for_library(client, 2)
    status, _, data = client.get("/api/library")
    assert status == 200, data
    return "/" + next(m["cover"] for m in data["manga"] if m["name"] == name)


def test_covers_come_from_nginx_for_browsers_holding_the_link_cookies(site, data_dir):
    server, nginx, _ = site
    admin, reader = users(server)
    reader.get("/api/auth")  # the answer after signing in brings the pair
    url = cover_url(admin)
    assert {"mclink_e", "mclink_s"} <= set(admin.cookies) and {"mclink_e", "mclink_s"} <= set(reader.cookies)
    browser = via(nginx, admin)
    status, headers, body = browser.get(url)
    assert status == 200 and headers["Content-Type"] == "image/webp" and body[8:12] == b"WEBP"
    assert "Set-Cookie" not in headers  # never kept in nginx's cache or passed on from it
    server.stop()  # nginx alone now: it keeps what the reader made
    assert browser.get(url)[:3:2] == (200, body)
    assert via(nginx, reader).get(url)[0] == 200  # the same URL for every user without restrictions
    sid = admin.cookies["sid"]
    past = int(time.time()) - 1
    for cookies in ({"sid": sid},  # no pair: the reader decides (it is gone: 502)
                    {**admin.cookies, "mclink_s": "A" + admin.cookies["mclink_s"][1:]
                     if admin.cookies["mclink_s"][0] != "A" else "B" + admin.cookies["mclink_s"][1:]},
                    {**reader.cookies, "sid": sid},  # another session's pair
                    {"sid": sid, "mclink_e": str(past), "mclink_s": thumb_signature(sid, past, secret(data_dir))}):
        other = Client("127.0.0.1", nginx.port)
        other.cookies = cookies
        assert other.get(url)[0] == 502, cookies


def test_a_restricted_user_loses_the_link_cookies_and_the_reader_checks_their_covers(site):
    server, nginx, _ = site
    admin, reader = users(server)
    url = cover_url(admin)
    assert via(nginx, admin).get(url)[0] == 200  # in nginx's cache now
    reader.get("/api/auth")
    kept = dict(reader.cookies)
    only = {"name": "reader", "only": ["Long Scroll"], "excludeTags": []}
    status, _, data = admin.post("/api/admin/user/access", only)
    assert status == 200, data
    browser = via(nginx, reader)
    assert browser.get("/api/auth")[0] == 200
    assert "mclink_s" not in browser.cookies and "mclink_e" not in browser.cookies
    assert browser.get(url)[0] == 404  # the reader answers: a hidden manga is a missing one
    assert browser.get(cover_url(admin, "Long Scroll"))[0] == 200
    # The documented window: the old pair, copied before the restriction, opens cached covers at
    # nginx until its expiry.
    copied = Client("127.0.0.1", nginx.port)
    copied.cookies = kept
    assert copied.get(url)[0] == 200
    assert int(kept["mclink_e"]) - time.time() <= 600


def test_page_thumbnails_come_from_nginx_with_the_pages_signed_link(site, data_dir):
    server, nginx, _ = site
    admin, reader = users(server)
    url = first_page_url(admin)
    thumb = url.replace("/lib/", "/lib-thumb/", 1)  # as the page overview asks for it (read-overview.js)
    browser = via(nginx, admin)
    status, headers, body = browser.get(thumb)
    assert status == 200 and headers["Content-Type"] == "image/webp" and body[8:12] == b"WEBP"
    assert "Set-Cookie" not in headers
    head, sig = thumb.rsplit("&s=", 1)
    forged = head + "&s=" + ("A" if sig[0] != "A" else "B") + sig[1:]
    assert browser.get(forged)[0] == 403
    assert browser.get(thumb.replace(quote(PAGE), quote(OTHER_PAGE)))[0] == 403  # the path is signed
    assert via(nginx, reader).get(thumb)[0] == 403  # signed for admin's session
    reader_thumb = first_page_url(reader).replace("/lib/", "/lib-thumb/", 1)
    server.stop()  # nginx alone now: it keeps what the reader made, for every user's links
    assert browser.get(thumb)[:3:2] == (200, body)
    assert via(nginx, reader).get(reader_thumb)[:3:2] == (200, body)
    assert browser.get("/lib-thumb/" + quote(PAGE))[0] == 502  # unsigned: the reader decides (it is gone)
    sid, past = admin.cookies["sid"], int(time.time()) - 1
    expired = f"/lib-thumb/{quote(PAGE)}?e={past}&s={signature(PAGE, sid, past, secret(data_dir))}"
    assert browser.get(expired)[0] == 502  # expired: the reader decides


@pytest.mark.browser
def test_the_reader_shows_signed_pages_through_nginx(site, desktop):
    server, nginx, _ = site
    admin, _ = users(server)
    desktop.add_cookies([{"name": "sid", "value": admin.cookies["sid"], "url": nginx.url}])
    page = desktop.new_page()
    page.goto(f"{nginx.url}/read/Moon%20Garden/1/1/")
    # polled with evaluate(): wait_for_function evaluates a string with eval, which the page's CSP
    # forbids once the first check is false (a loaded machine)
    deadline = time.monotonic() + 15
    while not page.evaluate("performance.getEntriesByName('mc-first-page').length > 0"):
        assert time.monotonic() < deadline, "the first page never showed"
        time.sleep(0.05)
    images = page.evaluate("""() => performance.getEntriesByType('resource')
        .filter(r => r.name.indexOf('/lib/') >= 0).map(r => [r.name, r.responseStatus])""")
    assert images and all("?e=" in url and "&s=" in url and status == 200 for url, status in images), images
    shown = page.evaluate("""() => [...document.querySelectorAll('#reader img')]
        .filter(i => i.complete && i.naturalWidth > 0).map(i => i.src)""")
    assert any("&s=" in src for src in shown), shown
