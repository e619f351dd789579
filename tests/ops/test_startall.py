"""`manage.py startall`: both services up with no configuration, SIGTERM, a second startall,
one service failing while the other serves, and nginx in front when installed."""
import json
import os
import signal
import socket
import time
from urllib.parse import unquote

import pytest

from bench.server import Client
from ops import nginx
from tests.ops.startall_proc import StartAll
from tests.support.pages import wait_for_library

pytestmark = pytest.mark.process


@pytest.fixture
def startall(tmp_path, library_dir):
    started = []

    def make(env=None):
        sa = StartAll(tmp_path / "data", library_dir, env)
        started.append(sa)
        return sa

    yield make
    for sa in started:
        if sa.proc and sa.proc.poll() is None:
            sa.kill_all()


def test_it_runs_both_services_without_configuration_refuses_a_second_and_restarts_a_killed_reader(startall):
    """One startall through its life, as each of these steps would otherwise start one of its own
    (three Django processes each time): both services up with a generated token, a second startall
    on the same data refused, the reader started again after a kill -9, then SIGTERM stopping both."""
    sa = startall().start()
    sa.wait_for(sa.reader_answers, "reader")
    sa.wait_for(lambda: "runscraper is now running" in sa.output(), "scraper")
    token = (sa.data / "scraper.token").read_text()
    assert len(token) > 40 and oct((sa.data / "scraper.token").stat().st_mode)[-3:] == "600"
    # The reader reaches the scraper with the generated token: its admin proxy answers.
    admin = sa.client().signup("admin", "correct horse battery")
    status, _, body = admin.get("/api/admin/scraper/status")
    assert status == 200 and body["state"] in ("idle", "running"), body

    second = startall().start()
    assert second.proc.wait(30) != 0
    assert "another MangaCircus startall already runs" in second.output()
    assert sa.reader_answers()

    os.killpg(sa.state()["services"]["reader"]["pid"], signal.SIGKILL)
    sa.wait_for(lambda: sa.state()["services"]["reader"]["restarts"] == 1, "a reader restart")
    sa.wait_for(sa.reader_answers, "the reader again")

    pids = [s["pid"] for s in sa.state()["services"].values()]
    assert sa.terminate() == 0
    out = sa.output()
    assert "SIGTERM, finishing..." in out and "runscraper stopped" in out
    assert "startall stopped (reader exit 0, scraper exit 0)" in out
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_it_keeps_the_reader_serving_while_the_scraper_keeps_failing(startall):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        sa = startall({"SCRAPER_URL": f"http://127.0.0.1:{port}"}).start()
        sa.wait_for(lambda: (sa.state() or {}).get("services", {}).get("scraper", {}).get("restarts", 0) >= 2,
                    "two scraper restarts")
        assert "cannot listen on SCRAPER_URL" in sa.output()
        assert sa.reader_answers()
        state = sa.state()["services"]
        assert state["reader"]["restarts"] == 0 and state["reader"]["state"] == "running"
        # An admin starts the waiting scraper at once from the health screen's API.
        admin = sa.client().signup("admin", "correct horse battery")
        assert admin.get("/api/admin/health")[2]["services"]["supervised"] is True
        before = sa.state()["services"]["scraper"]["restarts"]
        answers = []
        while not answers or answers[-1] == 409:  # 409 while it is running its short life
            if answers:
                time.sleep(0.05)  # its life is a Django start-up (about a second): no need to ask 100 times
            answers.append(admin.post("/api/admin/services/restart", {"service": "scraper"})[0])
        assert answers[-1] == 200
        sa.wait_for(lambda: sa.state()["services"]["scraper"]["restarts"] > before, "the admin's restart", timeout=5)
        assert "an admin asked to restart scraper" in sa.output()
        assert sa.terminate() == 0


def test_it_brings_up_the_demo_library_with_the_downloader(tmp_path, demo_library):
    """`./scripts/demo`, as the README has it: startall on the built-in demo library, nginx in front."""
    sa = StartAll(tmp_path / "demo-data", demo_library, {"NGINX": "auto"}).start(command=["scripts/demo"])
    try:
        sa.wait_for(sa.reader_answers, "reader", timeout=120)  # the first run of scripts/demo may install
        sa.wait_for(lambda: "runscraper is now running" in sa.output(), "scraper")
        assert "startall: nginx on http://127.0.0.1:" in sa.output()
        admin = sa.client().signup("admin", "correct horse battery")
        sa.wait_for(lambda: len(admin.get("/api/library")[2]["manga"]) == 6, "the demo's six manga")
        assert admin.get("/api/admin/scraper/status")[0] == 200
        assert admin.get("/api/auth")[1]["Server"].startswith("nginx")
        assert sa.terminate() == 0
    finally:
        if sa.proc.poll() is None:
            sa.kill_all()


def test_it_fronts_the_reader_with_nginx_when_installed(startall, library_dir):
    """NGINX=auto: nginx on --bind serves page images from disk, the reader behind it on READER_PORT."""
    assert nginx.binary(), "nginx is not installed (.ci/run installs it)"
    sa = startall({"NGINX": "auto"}).start()
    sa.wait_for(sa.reader_answers, "the reader through nginx")
    admin = sa.client().signup("admin", "correct horse battery")
    wait_for_library(admin, sum(1 for entry in library_dir.iterdir() if entry.is_dir()))
    status, headers, data = admin.get("/api/chapter?m=Moon%20Garden&c=1/1")
    assert status == 200 and headers["Server"].startswith("nginx"), (status, headers)
    url = "/" + data["pages"][0]["u"]
    assert url.startswith("/lib/") and "&s=" in url, url  # signed links, which nginx checks itself
    status, headers, body = admin.get(url)
    assert status == 200 and body == (library_dir / unquote(url[5:].split("?")[0])).read_bytes()
    assert "nosniff" in headers["X-Content-Type-Options"]
    # The reader itself listens on loopback only, at READER_PORT.
    reader = Client("127.0.0.1", int(sa.env["READER_PORT"]))
    assert reader.get("/api/auth")[0] == 200
    state = sa.state()["services"]
    assert set(state) == {"reader", "nginx", "scraper"}
    health = admin.get("/api/admin/health")[2]["services"]
    assert health["nginx"]["state"] == "running" and health["nginx"]["pid"] == state["nginx"]["pid"], health
    assert "Nginx" in admin.get("/settings/admin/health/")[2].decode()
    pids = [s["pid"] for s in state.values()]
    assert sa.terminate() == 0
    assert "startall: nginx on http://127.0.0.1:" in sa.output()
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", sa.port), timeout=1).close()  # nginx's workers gone too


def test_nginx_serves_the_pages_of_each_library(startall, library_dir):
    """LIBRARIES with nginx in front: signed links and the reader's hand-off find each library's folder."""
    webtoons = library_dir.parent / "webtoons"
    webtoons.mkdir()
    (library_dir / "Long Scroll").rename(webtoons / "Long Scroll")
    sa = startall({"NGINX": "auto", "LIBRARY": "", "LIBRARIES": f"Manga={library_dir};Webtoons={webtoons}"}).start()
    sa.wait_for(sa.reader_answers, "the reader through nginx")
    admin = sa.client().signup("admin", "correct horse battery")
    wait_for_library(admin, 2)
    for name, chapter, folder in (("Moon Garden", "1/1", library_dir), ("Long Scroll", "0/1", webtoons)):
        url = "/" + admin.get(f"/api/chapter?m={name.replace(' ', '%20')}&c={chapter}")[2]["pages"][0]["u"]
        assert "&s=" in url, url
        expected = (folder / unquote(url[5:].split("?")[0])).read_bytes()
        for link in (url, url.split("?")[0]):  # signed: nginx alone; unsigned: the reader, then the hand-off
            status, headers, body = admin.get(link)
            assert status == 200 and body == expected and headers["Server"].startswith("nginx"), (link, status)
    site = (sa.data / "nginx" / "site.conf").read_text()
    assert "location /protected-library-1-webtoons/" in site and f"alias {webtoons.resolve()}/;" in site
    assert sa.terminate() == 0


@pytest.mark.parametrize("trusted, believed", [("10.9.9.0/24", False), ("127.0.0.1", True)])
def test_nginx_passes_the_sign_in_header_only_from_the_trusted_proxies(startall, trusted, believed):
    """The reader believes its own nginx: nginx must drop a Remote-User that did not come from one
    of the user's TRUSTED_PROXIES, or anyone reaching it could sign in as anyone."""
    sa = startall({"NGINX": "auto", "REMOTE_USER_HEADER": "Remote-User", "TRUSTED_PROXIES": trusted}).start()
    sa.wait_for(sa.reader_answers, "the reader through nginx")
    sa.client().signup("admin", "correct horse battery")
    status, headers, body = sa.client().send("GET", "/api/me", headers={"Remote-User": "admin"})
    assert headers["Server"].startswith("nginx")
    data = json.loads(body)
    if believed:
        assert status == 200 and data["name"] == "admin", (status, data)
    else:
        assert status == 401, (status, data)
    assert "geo $mangacircus_from_proxy" in (sa.data / "nginx" / "site.conf").read_text()
    assert sa.terminate() == 0
