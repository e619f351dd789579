"""Offline reading on the server (docs/offline.md): the service worker at the root, the offline page,
Settings → Offline, and POST /api/progress with `at`, for positions queued offline and sent later:
the latest activity wins per chapter, done sticks."""
import json
import re

import pytest

from mangacircus.clock import now_ms
from mangacircus.middleware import CSP
from tests.support.forms import post_form

POSITION = {"m": "Moon Garden", "c": "1/1", "v": "c0001 Seeds", "n": 2, "shift": []}


def _config(body):
    return json.loads(re.match(r"self\.MC_WORKER = (\{.*?\});\n", body.decode()).group(1))


def test_it_serves_the_worker_at_the_root_with_its_scope_and_the_usual_csp(guest):
    status, headers, body = guest.get("/sw.js")
    assert status == 200 and headers["Content-Type"].startswith("text/javascript")
    assert headers["Service-Worker-Allowed"] == "/" and headers["Cache-Control"] == "no-cache"
    assert headers["Content-Security-Policy"] == CSP  # script-src 'self' already allows the worker
    config = _config(body)
    assert config["root"] == "/" and config["offline"] == "/offline/" and config["logout"] == "logout/"
    assert config["store"] in config["shell"] and "/static/css/app.css" in config["shell"]
    assert not any(url.endswith("/sw.js") for url in config["shell"])
    assert b'addEventListener("fetch"' in body


def test_it_shows_the_offline_page_without_anyones_data(admin):
    status, _, body = admin.get("/offline/")
    assert status == 200 and b"You are offline" in body
    assert b'data-user=""' in body and b"Sign out" not in body


def test_it_lists_the_offline_section_and_saves_how_many_chapters_keep_next_keeps(admin):
    status, _, body = admin.get("/settings/user/offline/")
    assert status == 200 and b'id="kept-list"' in body and b'value="3"' in body
    assert post_form(admin, "/settings/user/offline/", {"offlineAhead": "5"})[0] == 302
    assert admin.get("/api/me")[2]["settings"]["offlineAhead"] == 5
    post_form(admin, "/settings/user/offline/", {"offlineAhead": "99"})
    assert admin.get("/api/me")[2]["settings"]["offlineAhead"] == 5
    assert admin.post("/api/settings", {"offlineAhead": 0})[2]["error"].startswith("offlineAhead")


def _saved(client, **fields):
    status, _, data = client.post("/api/progress", {**POSITION, "p": 0, "done": False, **fields})
    assert status == 200, data
    return data["progress"]


def test_it_keeps_the_latest_activity_when_an_older_position_arrives_late(admin):
    newer = _saved(admin, p=1)
    late = _saved(admin, p=0, at=newer["t"] - 60_000)
    assert late == newer  # read earlier, on a device that was offline: it changes nothing
    later = _saved(admin, p=0, at=newer["t"] + 1)
    assert later["p"] == 0 and later["t"] == newer["t"] + 1


def test_it_keeps_done_from_an_older_write_and_counts_a_future_time_as_now(admin):
    newer = _saved(admin, p=0)
    finished = _saved(admin, p=1, done=True, at=newer["t"] - 1)
    assert finished == {**newer, "done": True}
    before = now_ms()
    ahead = _saved(admin, p=1, at=now_ms() + 3_600_000)
    assert before <= ahead["t"] <= now_ms() and ahead["done"] is True


def test_it_repeats_a_queued_write_without_changing_anything(admin):
    first = _saved(admin, p=1, at=now_ms() - 1000)
    assert _saved(admin, p=1, at=first["t"]) == first


@pytest.mark.parametrize("at", [-1, 2**53, "soon", 1.5, True])
def test_it_refuses_a_time_that_is_not_one(admin, at):
    status, _, data = admin.post("/api/progress", {**POSITION, "p": 0, "done": False, "at": at})
    assert status == 400 and data["error"].startswith("at must be")

