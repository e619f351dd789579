"""Importing from a running Kavita through its REST API (imports/kavita_api.py), with one user's API
key: their progress, ratings, want-to-read, collections and reading lists, from a local server that
answers as Kavita's DTOs say; dry run, import, again; a wrong key, answers that are not Kavita's or
too large, a redirect to another host, and `manage.py import kavita --url`."""
import json

import pytest

from imports import kavita_api
from mangacircus.errors import Invalid, TooLarge
from tests.support.pages import wait_for_library

from .kavita_rest import API_KEY, KavitaRest, answers
from .support import db_json, lines
from .test_import_command import manage


@pytest.fixture
def kavita():
    k = KavitaRest()
    yield k
    k.stop()


def post(admin, kavita, apply=False, key=API_KEY, url=None):
    # The Import API takes a running Kavita as {url, apiKey}.
    return admin.post("/api/admin/import", {"source": "kavita", "url": url or kavita.url, "apiKey": key,
                                            "apply": apply})


def refused(url, key=API_KEY):
    with pytest.raises((Invalid, TooLarge)) as e:
        kavita_api.read(url, key)
    assert key not in e.value.message
    return e.value.message


def served(**kw):
    """The message of reading a KavitaRest(**kw), and the requests it was sent."""
    k = KavitaRest(**kw)
    try:
        return refused(k.url), k.requests
    finally:
        k.stop()


def test_the_source_holds_what_the_keys_user_has_there(kavita):
    source = kavita_api.read(kavita.url, API_KEY)
    assert (source.kind, source.file) == ("kavita", kavita.url)
    assert list(source.users.values()) == [{"key": "me", "label": "alice", "name": "alice", "admin": True}]
    progress = {p["path"]: (p["page"], p["pages"], p["done"], p["number"]) for p in source.progress}
    assert progress == {"Moon Garden/Moon Garden v01 c001.cbz": (2, 3, True, "1"),
                        "Moon Garden/c0002 Roots.cbz": (1, 4, False, "2"),
                        "Moon Garden/Specials/Moon Garden SP01.cbz": (1, 5, False, ""),  # a special: no number
                        "Long Scroll/Long Scroll 003.cbz": (0, 2, False, "3"),
                        "Star Sea/Star Sea 01.cbz": (4, 10, False, "1")}  # v02, pagesRead 0, is not one
    moon_1 = next(p for p in source.progress if p["number"] == "1" and p["series"] == "Moon Garden")
    assert moon_1["t"] == 1796040000123  # lastReadingProgressUtc, 2026-11-30T12:00:00.123 UTC
    assert source.skipped == [
        {"kind": "progress", "what": "Moon Garden / passwd.cbz", "reason": "its path has a '..' in it"},
        {"kind": "progress", "what": "Moon Garden / Moon Garden 010.cbz",
         "reason": "it is not inside its library's folders"}]
    assert [(r["series"]["name"], r["stars"]) for r in source.ratings] == [("Moon Garden", 5), ("Star Sea", 3)]
    assert [w["series"]["name"] for w in source.wants] == ["Moon Garden", "Star Sea"]
    assert [(c["owner"], c["name"], [s["name"] for s in c["series"]], c["shared"], c["summary"])
            for c in source.collections] == [
        ("me", "Favourites", ["Long Scroll", "Moon Garden", "Star Sea"], True, "The best ones."),
        ("me", "Later", ["Moon Garden"], False, ""),
        (None, "Staff picks", ["Long Scroll"], True, "")]  # bob's, promoted: the whole server's here
    assert [(r["owner"], r["name"], r["shared"], [(b["path"], b["number"]) for b in r["books"]])
            for r in source.readlists] == [
        (None, "Book club", True, [("Star Sea/Star Sea 01.cbz", "1"), ("Moon Garden/c0002 Roots.cbz", "2")]),
        ("me", "Summer reading", False, [("Moon Garden/Moon Garden v01 c001.cbz", "1"),
                                         ("Long Scroll/Long Scroll 003.cbz", "3")])]
    assert source.ignored == []
    volumes = [path for method, path in kavita.requests if path.startswith("/api/Series/volumes")]
    assert sorted(volumes) == [f"/api/Series/volumes?seriesId={i}" for i in (1, 2, 3)]  # each series asked once


def test_every_page_of_a_paged_list_is_read_up_to_a_cap(kavita, monkeypatch):
    whole = kavita_api.read(kavita.url, API_KEY)
    monkeypatch.setattr(kavita_api, "PAGE_SIZE", 1)
    paged = kavita_api.read(kavita.url, API_KEY)
    assert (paged.progress, paged.ratings, paged.wants, paged.collections, paged.readlists) == (
        whole.progress, whole.ratings, whole.wants, whole.collections, whole.readlists)
    asked = [path for _, path in kavita.requests if path.startswith("/api/Series/all-v2")]
    assert asked[-3:] == [f"/api/Series/all-v2?PageNumber={n}&PageSize=1" for n in (1, 2, 3)]
    monkeypatch.setattr(kavita_api, "MAX_PAGES", 2)
    assert refused(kavita.url) == "Kavita's /api/Series/all-v2 has more than 2 pages of 1"


def test_dry_run_then_import_then_again(server, admin, kavita):
    wait_for_library(admin, 2)
    status, _, plan = post(admin, kavita)
    assert status == 200, plan
    assert (plan["source"], plan["file"]) == ("kavita", kavita.url)
    created = lines(plan, "created")
    assert {("user alice", "account alice", "a new account; its one-time password is shown once, after the "
             "import (an admin there: not made an admin here)"),
            ("alice: Moon Garden/Moon Garden v01 c001.cbz", "alice: Moon Garden · Ch. 1", "by file path; finished"),
            ("alice: Moon Garden/c0002 Roots.cbz", "alice: Moon Garden · Ch. 2", "by file path; page 2 of 4"),
            ("alice: Long Scroll/Long Scroll 003.cbz", "alice: Long Scroll · Ch. 3",
             "by series name and number; page 1 of 2"),
            ("rating: Moon Garden by alice", "Moon Garden: 5 of 5", "rated there"),
            ("want to read: Moon Garden by alice", "alice's want to read: Moon Garden", "on the list there"),
            ("collection Favourites", "shared collection Favourites", "2 manga"),
            ("collection Later", "alice's collection Later", "1 manga"),
            ("collection Staff picks", "shared collection Staff picks",
             "1 manga; the admins edit it here, as a collection of the whole server"),
            ("read list Summer reading", "alice's read list Summer reading", "2 chapter(s)"),
            ("read list Book club", "shared read list Book club",
             "1 chapter(s); the admins edit it here, as a list of the whole server")} <= created
    assert {("progress: Moon Garden / passwd.cbz", "", "its path has a '..' in it"),
            ("progress: Moon Garden / Moon Garden 010.cbz", "", "it is not inside its library's folders"),
            ("alice: Star Sea/Star Sea 01.cbz", "", "no file Star Sea/Star Sea 01.cbz here, and no manga named "
             "Star Sea"),
            ("rating: Star Sea", "", "no manga named Star Sea"),
            ("read list Book club: Star Sea / Star Sea 01.cbz", "",
             "no file Star Sea/Star Sea 01.cbz here, and no manga named Star Sea")} <= lines(plan, "not_found")
    assert plan["not_imported"] == [] and API_KEY not in json.dumps(plan)
    assert "alice" not in db_json(server)["users"]
    done = post(admin, kavita, apply=True)[2]
    assert [a["name"] for a in done["accounts"]] == ["alice"]
    assert (done["collections"], done["ratings"], done["wants"]) == (3, 1, 1)
    data = db_json(server)
    assert data["users"]["alice"]["admin"] is False
    alice = data["progress"]["alice"]
    assert (alice["Moon Garden"]["1/1"]["p"], alice["Moon Garden"]["1/1"]["done"]) == (2, True)
    assert (alice["Moon Garden"]["0/2"]["p"], alice["Long Scroll"]["1/3"]["p"]) == (1, 0)
    assert sorted((c["name"], c["owner"], c["shared"], tuple(c["members"])) for c in data["collections"].values()) == [
        ("Favourites", "alice", True, ("Long Scroll", "Moon Garden")), ("Later", "alice", False, ("Moon Garden",)),
        ("Staff picks", None, True, ("Long Scroll",))]
    assert sorted((r["name"], r["items"]) for r in data["readlists"].values()) == [
        ("Book club", [["Moon Garden", "0/2"]]), ("Summer reading", [["Moon Garden", "1/1"], ["Long Scroll", "1/3"]])]
    again = post(admin, kavita, apply=True)[2]
    assert again["backup"] is None and again["plan"]["changes"] == 0 and again["written"] == 0
    assert db_json(server) == data


def test_a_wrong_key_or_a_server_that_is_not_kavita_is_refused_and_changes_nothing(server, admin, kavita):
    wait_for_library(admin, 2)
    before = db_json(server)
    status, _, body = post(admin, kavita, key="0e0e0e0e-wrong-key")
    assert (status, body["error"]) == (400, "Kavita refused the API key (401)")
    other = KavitaRest(raw=(404, "text/html", b"<h1>Not Found</h1>"))  # a server of another kind
    try:
        status, _, body = post(admin, kavita, url=other.url)
    finally:
        other.stop()
    assert (status, body["error"]) == (400, f"Kavita answered /api/Plugin/authenticate with HTTP 404: is {other.url} "
                                            "a Kavita server?")
    status, _, body = post(admin, kavita, url=other.url)  # stopped: nothing listens there now
    assert status == 400 and body["error"].startswith(f"cannot reach Kavita at {other.url}"), body
    assert API_KEY not in body["error"]
    status, _, body = post(admin, kavita, url="ftp://kavita.example")
    assert status == 400 and "is not a Kavita server's address" in body["error"]
    status, _, body = post(admin, kavita, key="")
    assert status == 400 and body["error"].startswith("give the Kavita user's API key")
    assert db_json(server) == before


def test_an_answer_that_is_not_json_too_large_or_not_kavitas_is_refused(monkeypatch):
    message, _ = served(raw=(200, "text/html", b"<!doctype html><title>Router</title>"))
    assert message.startswith("Kavita's answer to /api/Plugin/authenticate is not JSON: is http://127.0.0.1:")
    assert message.endswith("a Kavita server?")
    for other in (b'{"status": "UP"}', b'["alice"]', b'{"username": "alice", "token": "a\\r\\nX-Evil: 1"}'):
        message, _ = served(raw=(200, "application/json", other))
        assert message.startswith("http://127.0.0.1:") and message.endswith(
            " did not answer as Kavita does for /api/Plugin/authenticate")
    data = answers()
    data["collections"] = {"title": "not a list"}
    assert served(data=data)[0] == "Kavita's answer to /api/Collection is not a list of items"
    monkeypatch.setattr(kavita_api, "MAX_BYTES", 1024 ** 2)
    data = answers()
    data["libraries"] = data["libraries"] * 10_000  # about 2 MB
    assert served(data=data)[0] == "Kavita's answer to /api/Library/libraries is larger than 1 MB"


def test_a_redirect_to_another_host_is_refused_and_one_on_the_same_host_followed():
    elsewhere = KavitaRest()
    try:
        target = f"http://localhost:{elsewhere.port}/api/Plugin/authenticate"
        message, asked = served(redirects={f"/api/Plugin/authenticate?apiKey={API_KEY}&pluginName=mangacircus":
                                           target})
    finally:
        elsewhere.stop()
    assert message.endswith("sent /api/Plugin/authenticate on to another host (localhost): refused, only 127.0.0.1 "
                            "is asked")
    assert len(asked) == 1 and elsewhere.requests == []
    k = KavitaRest(redirects={"/api/Library/libraries": "/api/Library/libraries?again=1"})
    try:
        source = kavita_api.read(k.url, API_KEY)
    finally:
        k.stop()
    assert ("GET", "/api/Library/libraries?again=1") in k.requests and len(source.progress) == 5


def test_collapsed_series_relationships_are_named_in_the_plan():
    data = answers()
    data["preferences"]["collapseSeriesRelationships"] = True
    k = KavitaRest(data=data)
    try:
        source = kavita_api.read(k.url, API_KEY)
    finally:
        k.stop()
    [line] = source.ignored
    assert (line["kind"], line["what"]) == ("series", "related series")
    assert "Collapse Series Relationships" in line["reason"]


@pytest.mark.process
def test_the_command_line_with_the_key_from_the_environment(data_dir, library_dir, kavita):
    args = ("kavita", "--url", kavita.url)
    asked = manage(data_dir, library_dir, *args)  # no terminal to ask on, no KAVITA_API_KEY
    assert asked.returncode != 0 and "give the Kavita user's API key in KAVITA_API_KEY" in asked.stderr
    both = manage(data_dir, library_dir, *args, "--db", "kavita.db")
    assert both.returncode != 0 and "not allowed with argument" in both.stderr
    done = manage(data_dir, library_dir, *args, "--apply", env={"KAVITA_API_KEY": API_KEY})
    assert done.returncode == 0, done.stderr
    assert f"Import from kavita ({kavita.url}):" in done.stdout and API_KEY not in done.stdout + done.stderr
    assert json.loads((data_dir / "db.json").read_text())["progress"]["alice"]["Moon Garden"]["1/1"]["done"]
    wrong = manage(data_dir, library_dir, *args, env={"KAVITA_API_KEY": "wrong"})
    assert wrong.returncode != 0 and "Kavita refused the API key (401)" in wrong.stderr
