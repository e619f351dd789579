"""MyAnimeList: OAuth with PKCE (plain), an update of my_list_status, a token refreshed when it
ends, a refused refresh, the import of the list."""
from urllib.parse import parse_qs, urlsplit

from tests.support.forms import post_form
from trackers import store

from .conftest import authorize, finish


def test_it_connects_with_pkce_plain(app, user, fake):
    to_site, (status, _, _) = authorize(user, "myanimelist")
    query = parse_qs(urlsplit(to_site).query)
    assert to_site.startswith(f"{fake.base}/mal/oauth/authorize?")
    assert query["code_challenge_method"] == ["plain"] and 43 <= len(query["code_challenge"][0]) <= 128
    assert query["client_id"] == ["mal-client"] and query["state"]
    token_request = next(body for method, path, _, body in fake.log if path == "/mal/oauth/token")
    form = parse_qs(token_request.decode())
    assert form["code_verifier"] == query["code_challenge"] and form["grant_type"] == ["authorization_code"]
    connection = store.connection("admin", "myanimelist")
    assert connection["state"] == "connected" and connection["accountName"] == "malreader"
    assert connection["refresh"] in fake.refresh_tokens


def test_finishing_a_chapter_patches_my_list_status(app, user, fake, sender):
    authorize(user, "myanimelist")
    finish(user, "Lantern Fields", "1/1", "c0001 One")
    sender.run_due()
    site, entry, form = fake.updates[-1]
    assert (site, entry) == ("myanimelist", "88001")
    assert form["status"] == "reading" and form["num_chapters_read"] == "1" and form["num_volumes_read"] == "1"
    assert len(form["start_date"]) == 10 and "finish_date" not in form
    finish(user, "Lantern Fields", "1/2", "c0002 Two")
    finish(user, "Lantern Fields", "2/3", "c0003 Three")
    sender.run_due()
    form = fake.updates[-1][2]
    assert form["status"] == "completed" and form["num_chapters_read"] == "3"
    assert form["finish_date"] == form["start_date"]


def test_an_ended_token_is_refreshed_first(app, user, fake, sender, clock):
    authorize(user, "myanimelist")
    old = store.connection("admin", "myanimelist")
    clock.t = old["expires"]  # a month later
    finish(user, "Lantern Fields", "1/1", "c0001 One")
    sender.run_due()
    new = store.connection("admin", "myanimelist")
    assert fake.updates and new["token"] != old["token"] and new["refresh"] != old["refresh"]
    assert fake.log[-1][2]["Authorization"] == f"Bearer {new['token']}"


def test_a_refused_refresh_asks_for_a_reconnect(app, user, fake, sender):
    authorize(user, "myanimelist")
    fake.revoked.add(store.connection("admin", "myanimelist")["token"])
    fake.refresh_tokens.clear()  # the user revoked the app at MyAnimeList
    finish(user, "Lantern Fields", "1/1", "c0001 One")
    sender.run_due()
    assert sender.results[-1][1] == "revoked" and store.connection("admin", "myanimelist")["state"] == "reconnect"
    _, _, html = user.get("/settings/user/apps/")
    assert b"MyAnimeList needs reconnecting" in html


def test_the_list_is_imported(app, user, fake):
    fake.lists["myanimelist"] = [("88001", 1, "reading")]
    authorize(user, "myanimelist")
    post_form(user, "/settings/user/apps/", {"tracker": "myanimelist", "action": "import"},
              "/settings/user/apps/trackers/")
    _, _, data = user.get("/api/chapter?m=Lantern%20Fields&c=1/1")
    assert data["progress"]["done"] is True
    _, _, data = user.get("/api/chapter?m=Lantern%20Fields&c=1/2")
    assert data["progress"] is None
