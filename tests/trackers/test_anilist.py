"""AniList: the OAuth authorization code round trip, an update after a finished chapter, the
binding from the metadata match, the import of the list."""
import os
import stat
from urllib.parse import parse_qs, urlsplit

import orjson

from metadata import matches
from tests.support.forms import post_form
from trackers import store

from .conftest import authorize, finish


def test_it_connects_through_the_authorization_code_flow(app, user, fake):
    to_site, (status, headers, _) = authorize(user, "anilist")
    query = parse_qs(urlsplit(to_site).query)
    assert to_site.startswith(f"{fake.base}/anilist/oauth/authorize?")
    assert query["client_id"] == ["4242"] and query["response_type"] == ["code"]
    assert query["redirect_uri"] == [f"http://127.0.0.1:{app.port}/settings/user/apps/trackers/anilist/callback/"]
    assert status == 302 and headers["Location"].endswith("/settings/user/apps/#trackers")
    status, _, data = user.get("/api/trackers")
    connection = next(t for t in data["trackers"] if t["key"] == "anilist")["connection"]
    assert connection["state"] == "connected" and connection["accountName"] == "anilistreader"
    assert "token" not in connection  # never shown, not even to its owner
    path = app.data / "trackers.json"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    kept = orjson.loads(path.read_bytes())["users"]["admin"]["connections"]["anilist"]
    assert kept["token"] in fake.tokens and kept["accountId"] == "5001"


def test_a_callback_with_another_state_connects_nothing(app, user, fake):
    status, _, _ = user.get("/settings/user/apps/trackers/anilist/callback/?code=stolen&state=forged")
    assert status == 302
    assert store.connection("admin", "anilist") is None
    status, _, html = user.get("/settings/user/apps/")
    assert b"not one started here" in html


def test_finishing_a_chapter_sends_its_progress(app, user, fake, sender, clock):
    authorize(user, "anilist")
    finish(user, "Lantern Fields", "1/1", "c0001 One")
    assert sender.run_due() == 1
    site, entry, variables = fake.updates[-1]
    assert (site, entry) == ("anilist", "77001")  # manga.json's AniList link
    assert variables["progress"] == 1 and variables["progressVolumes"] == 1 and variables["status"] == "CURRENT"
    assert set(variables["startedAt"]) == {"year", "month", "day"} and "completedAt" not in variables
    finish(user, "Lantern Fields", "1/2", "c0002 Two")
    finish(user, "Lantern Fields", "2/3", "c0003 Three")
    sender.run_due()
    _, _, variables = fake.updates[-1]
    assert variables["progress"] == 3 and variables["progressVolumes"] == 2 and variables["status"] == "COMPLETED"
    assert variables["completedAt"] == variables["startedAt"]  # all read today
    status, _, html = user.get("/settings/user/apps/")
    assert b"3 chapters read, completed" in html


def test_the_binding_comes_from_the_metadata_match(app, user, fake, sender):
    with matches.STATE.edit() as data:
        data["manga"]["Monster"] = {"state": "matched", "provider": "anilist", "id": "30001", "how": "admin"}
    authorize(user, "anilist")
    finish(user, "Monster", "0/1", "c0001 Part")
    sender.run_due()
    assert fake.updates[-1][1] == "30001"
    # The user's own choice wins over the match.
    status, _, data = user.post("/api/trackers/binding", {"tracker": "anilist", "m": "Monster",
                                                          "id": "https://anilist.co/manga/30002/monster"})
    assert status == 200 and data["id"] == "30002"
    finish(user, "Monster", "0/2", "c0002 Part")
    sender.run_due()
    assert fake.updates[-1][1] == "30002" and fake.updates[-1][2]["progress"] == 2


def test_the_list_is_imported_once(app, user, fake, sender):
    fake.lists["anilist"] = [("77001", 2, "CURRENT"), ("99999", 40, "CURRENT")]
    authorize(user, "anilist")
    status, _, _ = post_form(user, "/settings/user/apps/", {"tracker": "anilist", "action": "import"},
                             "/settings/user/apps/trackers/")
    assert status == 302
    status, _, data = user.get("/api/chapter?m=Lantern%20Fields&c=1/2")
    assert data["progress"]["done"] is True
    status, _, data = user.get("/api/chapter?m=Lantern%20Fields&c=2/3")
    assert not (data["progress"] or {}).get("done")
    assert sender.run_due() >= 1 and fake.updates == []  # what came from the list is not sent back to it
    post_form(user, "/settings/user/apps/", {"tracker": "anilist", "action": "import"}, "/settings/user/apps/trackers/")
    status, _, html = user.get("/settings/user/apps/")
    assert b"imported already" in html and b"List imported" in html


def test_disconnecting_deletes_the_token(app, user, fake):
    authorize(user, "anilist")
    status, _, _ = post_form(user, "/settings/user/apps/", {"tracker": "anilist", "action": "disconnect"},
                             "/settings/user/apps/trackers/")
    assert status == 302
    assert b"anilist-token" not in (app.data / "trackers.json").read_bytes()
