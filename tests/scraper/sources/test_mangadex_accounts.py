"""MangaDex accounts (issue 28, item 7), daemon side: the personal client flow against the fake
MangaDex's auth server (bench/fakedex.py, shaped like MangaDex's Keycloak answers), the token
store, the follows list and the read markers; a token that expires and is refreshed, a revoked one."""
import logging
import stat

import orjson
import pytest

from mangacircus.errors import Conflict, Invalid
from scraper import api, mangadex_accounts
from scraper.errors import ScraperError
from scraper.sources import mangadex
from tests.scraper.conftest import drain
from tests.support.clock import FakeClock

USER, PASSWORD = "mdreader", "correct horse battery"


def call(daemon, method, path, body=None, query=None):
    view, groups = api.route(method, path)
    return view(daemon, body=body or {}, query=query or {}, **groups)


@pytest.fixture
def account(dexd, dex):
    """A MangaDex account on the fake, connected for the reader user "alice"."""
    dexd.accounts.clock = FakeClock(10_000.0)
    client_id, secret = dex.add_account(USER, PASSWORD)
    mangadex.SOURCE.configure(dex.url, dex.url)
    answer = call(dexd, "POST", "/account", {"user": "alice", "clientId": client_id, "clientSecret": secret,
                                             "username": USER, "password": PASSWORD})
    yield answer["account"]
    mangadex.SOURCE.configure(dex.url)


def test_connecting_exchanges_the_password_once_and_keeps_only_the_refresh_token(dexd, dex, account, caplog):
    assert account["connected"] and account["state"] == "connected" and account["username"] == USER
    path = dexd.dir / "mangadex-accounts.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    stored = orjson.loads(path.read_bytes())["accounts"]["alice"]
    assert PASSWORD not in path.read_text() and stored["refreshToken"] in dex.refresh
    assert not any(t in path.read_text() for t in dex.access)  # access tokens stay in memory
    assert dex.grants == [("password", USER)]
    status = call(dexd, "GET", "/account", query={"user": ["alice"]})["account"]
    assert "clientSecret" not in status and "refreshToken" not in status and status["connected"]
    assert call(dexd, "GET", "/account", query={"user": ["bob"]})["account"] == {"connected": False, "error": None}


def test_a_wrong_password_or_client_is_refused_and_nothing_is_stored(dexd, dex):
    mangadex.SOURCE.configure(dex.url, dex.url)
    client_id, secret = dex.add_account(USER, PASSWORD)
    form = {"user": "alice", "clientId": client_id, "clientSecret": secret, "username": USER, "password": "nope"}
    with pytest.raises(mangadex_accounts.AuthRefused, match="invalid_grant .Invalid user credentials"):
        call(dexd, "POST", "/account", form)
    with pytest.raises(mangadex_accounts.AuthRefused, match="unauthorized_client"):
        call(dexd, "POST", "/account", {**form, "password": PASSWORD, "clientSecret": "wrong"})
    assert api.error_answer(mangadex_accounts.AuthRefused("x"))[0] == 400
    assert not (dexd.dir / "mangadex-accounts.json").exists()
    with pytest.raises(Invalid, match="password"):
        call(dexd, "POST", "/account", {**form, "password": ""})
    mangadex.SOURCE.configure(dex.url)


def test_the_follows_list_comes_in_pages_of_100_marked_with_what_is_here(dexd, dex, account):
    many = [dex.add_manga(f"Followed {n}") for n in range(130)]
    dex.follow(USER, dex.ids["garden"], *many)
    call(dexd, "POST", "/series", {"source": "mangadex", "id": dex.ids["garden"], "lang": "en"})
    drain(dexd)
    follows = call(dexd, "GET", "/account/follows", query={"user": ["alice"]})["follows"]
    assert len(follows) == 131 and dex.hits["/user/follows/manga"] == 2
    garden = follows[0]
    assert garden["id"] == dex.ids["garden"] and garden["title"] == "Moon Garden" and garden["followed"]
    assert garden["here"] and not follows[1]["followed"] and not follows[1]["here"]
    assert follows[1]["cover_url"].endswith("/cover-1.png") and follows[1]["languages"] == ["en"]


def test_read_markers_are_asked_for_the_mangadex_series_here_only(dexd, dex, account):
    dex.mark_read(USER, dex.ids["c1"], dex.ids["c2"], dex.chapter_ids(dex.ids["strip"])[0])
    assert call(dexd, "GET", "/account/read", query={"user": ["alice"]}) == {"read": [], "series": 0}
    assert dex.hits["/manga/read"] == 0  # no series here: nothing to ask
    call(dexd, "POST", "/series", {"source": "mangadex", "id": dex.ids["garden"], "lang": "en"})
    drain(dexd)
    answer = call(dexd, "GET", "/account/read", query={"user": ["alice"]})
    assert answer == {"read": [dex.ids["c1"], dex.ids["c2"]], "series": 1}


def test_an_access_token_past_its_15_minutes_is_refreshed_first(dexd, dex, account):
    call(dexd, "GET", "/account/follows", query={"user": ["alice"]})
    assert [g for g, _ in dex.grants] == ["password"]
    dexd.accounts.clock.advance(15 * 60 - 30)     # 30 s before its end: refreshed first
    call(dexd, "GET", "/account/follows", query={"user": ["alice"]})
    assert [g for g, _ in dex.grants] == ["password", "refresh_token"]
    call(dexd, "GET", "/account/follows", query={"user": ["alice"]})
    assert len(dex.grants) == 2  # the new one is used while it lasts


def test_a_token_the_api_refuses_early_is_refreshed_once_and_the_call_goes_on(dexd, dex, account):
    dex.follow(USER, dex.ids["strip"])
    dex.expire(USER)
    follows = call(dexd, "GET", "/account/follows", query={"user": ["alice"]})["follows"]
    assert [f["id"] for f in follows] == [dex.ids["strip"]]
    assert [g for g, _ in dex.grants] == ["password", "refresh_token"]


def test_a_revoked_refresh_token_needs_a_reconnect_and_nothing_else_breaks(dexd, dex, account, library):
    dex.revoke(USER)
    dex.expire(USER)
    with pytest.raises(Conflict, match="needs to be made again: MangaDex's auth server refused: invalid_grant"):
        call(dexd, "GET", "/account/follows", query={"user": ["alice"]})
    status = call(dexd, "GET", "/account", query={"user": ["alice"]})["account"]
    assert status["state"] == "reconnect" and "Token is not active" in status["error"]
    asked = len(dex.grants)
    with pytest.raises(Conflict):
        call(dexd, "GET", "/account/read", query={"user": ["alice"]})
    assert len(dex.grants) == asked  # not asked again until the user reconnects
    # Downloads are not affected.
    call(dexd, "POST", "/series", {"source": "mangadex", "id": dex.ids["strip"], "lang": "en"})
    drain(dexd)
    assert (library / "Night Strip" / "manga.json").exists()
    # Connecting again (with the password) makes it work again.
    again = call(dexd, "POST", "/account", {"user": "alice", "clientId": "personal-client-1", "clientSecret": "s3cret",
                                            "username": USER, "password": PASSWORD})["account"]
    assert again["state"] == "connected"
    assert call(dexd, "GET", "/account/follows", query={"user": ["alice"]})["follows"] == []


def test_no_secret_reaches_the_log(dexd, dex, account, caplog):
    caplog.set_level(logging.DEBUG)
    dex.expire(USER)
    call(dexd, "GET", "/account/follows", query={"user": ["alice"]})
    dex.revoke(USER)
    dex.expire(USER)
    with pytest.raises(Conflict):
        call(dexd, "GET", "/account/follows", query={"user": ["alice"]})
    secrets = [PASSWORD, "s3cret", *dex.refresh, *dex.access]
    assert caplog.records and not [s for s in secrets if s in caplog.text]


def test_disconnecting_removes_the_tokens(dexd, dex, account):
    assert call(dexd, "POST", "/account/disconnect", {"user": "alice"}) == {"disconnected": True}
    assert orjson.loads((dexd.dir / "mangadex-accounts.json").read_bytes())["accounts"] == {}
    with pytest.raises(mangadex_accounts.NotConnected):
        call(dexd, "GET", "/account/follows", query={"user": ["alice"]})


def test_an_unreadable_accounts_file_is_left_alone_and_downloads_go_on(tmp_path, dex, library, imports):
    from tests.scraper.conftest import make_daemon

    (tmp_path / "data" / "scraper").mkdir(parents=True)
    path = tmp_path / "data" / "scraper" / "mangadex-accounts.json"
    path.write_text("{not json")
    d = make_daemon(tmp_path, library, imports)
    try:
        assert "cannot be read" in call(d, "GET", "/account", query={"user": ["alice"]})["account"]["error"]
        with pytest.raises(Conflict, match="cannot be read"):
            call(d, "POST", "/account", {"user": "alice", "clientId": "c", "clientSecret": "s", "username": "u",
                                         "password": "p"})
        call(d, "POST", "/series", {"source": "mangadex", "id": dex.ids["strip"], "lang": "en"})
        drain(d)
        assert (library / "Night Strip" / "manga.json").exists() and path.read_text() == "{not json"
    finally:
        d.close()


def test_a_redirected_token_request_is_not_followed_and_a_redirect_elsewhere_loses_the_token(dexd, dex, account,
                                                                                            monkeypatch):
    """The password (and the client secret) never go to a host a redirect names, and the bearer
    token does not follow a redirect to another origin."""
    from bench.fakedex import FakeDex, status

    elsewhere = FakeDex().start()
    # Another origin the guard would let through (a host on the LAN a module names): what is sent there.
    monkeypatch.setattr(mangadex.SOURCE, "private_hosts",
                        (*mangadex.SOURCE.private_hosts, elsewhere.url.removeprefix("http://")))
    try:
        token_path = "/realms/mangadex/protocol/openid-connect/token"
        dex.script[token_path] = [status(307, {"Location": f"{elsewhere.url}{token_path}"})]
        with pytest.raises(ScraperError, match="not followed"):
            dexd.accounts.connect(dexd.transport(mangadex.SOURCE), "carol", "personal-client-1", "s3cret", USER,
                                  PASSWORD)
        assert elsewhere.hits[token_path] == 0
        dex.always["/user/follows/manga"] = status(302, {"Location": f"{elsewhere.url}/user/follows/manga"})
        with pytest.raises(Conflict):
            call(dexd, "GET", "/account/follows", query={"user": ["alice"]})
        assert elsewhere.hits["/user/follows/manga"] == 2 and elsewhere.authorizations == [None, None]
        assert all(a and a.startswith("Bearer ") for a, (_t, p) in zip(dex.authorizations, dex.log)
                   if p == "/user/follows/manga")
    finally:
        elsewhere.stop()
